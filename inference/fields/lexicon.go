package fields

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// shopWords name trades and shop kinds and legal forms: the words a
// supplier's name ends in, the world over (a country's own, KEDAI or
// PERNIAGAAN, are in its pack's place words). Short words one letter from
// a street word stay out (SALON would tie JALON between SALON and JALAN;
// DINER turns DINAR).
var shopWords = wordSet(`
HARDWARE BAKERY BAKERIES STATIONERY RESTAURANT ENTERPRISE ENTERPRISES TRADING
ELECTRICAL ELECTRONICS SUPPLY SUPPLIES SUPERMARKET HYPERMARKET PHARMACY BOOKSTORE
BOOKSTORES CONFECTIONERY SEAFOOD CENTRE CENTER MARKET MARKETING FOOD FOODS BEVERAGE BEVERAGES
HEALTH BEAUTY INTERNATIONAL SERVICE SERVICES STATION MACHINERY MOTOR MOTORS PARTS TIMBER
BUILDING MATERIAL MATERIALS CONSTRUCTION HOLDINGS INDUSTRIES INDUSTRIAL DISTRIBUTION
DISTRIBUTOR BISTRO
KITCHEN GROCERY FRESH BOOKS OFFICE PRINTING COMPUTER TEXTILE FURNITURE HOME LIVING CASH
CARRY RETAIL WHOLESALE TRANSPORT LOGISTICS TRAVEL HOTEL PETROL PETROLEUM ENERGY
LIMITED COMPANY CORPORATION SHOPPING CAFE
STATIONERS GROCER GROCERS CHEMIST BUTCHER NEWSAGENT FLORIST GARAGE TOOLS MART
STORE STORES SHOP GARDEN
`)

// knownWords are left as read and never become a correction: English
// words one letter from a trade word or a country's place word (JAPAN is
// not JALAN, HONE not HOME). A country's own such words are its pack's
// (packs.Places.Keep).
var knownWords = wordSet(`
HOUSE HORSE MONEY MINT MINE MINES MINI NONE HONG HONE HOLE BONE STORE STORES SHOP SHOPS
JAPAN CHINA INDIA KOREA TAIWAN THAI
`)

// lexicon is what one page's names and addresses are mended to: the
// trade words everywhere, and the place words of the country the page is
// printed in (packs.Places), which a page of another country never sees.
type lexicon struct {
	trade   map[string]bool // shop words and the country's place words: names and addresses are mended to them
	address map[string]bool // trade and the country's street names: addresses are mended to them
	streets map[string]bool // the country's street names
	known   map[string]bool // left as read, never a correction
	phrases [][2]string     // two-word place names (packs.Places.Phrases)
	places  bool            // the country has place words
	abbrevs textFixes       // its street abbreviations as misread (packs.Places.Abbreviations)
	towns   map[string][][2]int
	// townNames are the towns in reverse order, so that of two spellings
	// of a town the one with its umlaut comes first (MÜNCHEN, MUENCHEN).
	townNames []string
	states    map[string][][2]int
	own       map[string]bool // the page's languages' own receipt and trade words (packs.Pack.KnownWords): never mended to a shop word
	townEnd   *regexp.Regexp  // what may follow a town's name: a mark, or a word of packs.Places.AfterTown
	postcode  []int           // the lengths of the postcode's groups (packs.Places.Postcode), nil: unknown
	shape     string          // the postcode's letters (A) and digits (9), its spaces left out
}

// lexicons caches each pack's lexicon; plainLexicon is a page's of no
// pack, or of a country with no place words.
var (
	lexicons     sync.Map // *packs.Pack → *lexicon
	plainLexicon = &lexicon{trade: shopWords, address: shopWords, streets: map[string]bool{}, known: knownWords, townEnd: townEndAfter(nil)}
)

// lexiconOf is the lexicon a page of pack pk is mended with: English
// shop words, and the page's languages' own trade and receipt words, which
// are never mended into English ones (ESTACION is no misread STATION).
func lexiconOf(pk *packs.Pack) *lexicon {
	if pk == nil {
		return plainLexicon
	}
	if lx, ok := lexicons.Load(pk); ok {
		return lx.(*lexicon)
	}
	pl := pk.Places
	if pl == nil {
		pl = &packs.Places{}
	}
	lx := &lexicon{
		trade:   union(shopWords, wordSet(strings.Join(pl.Words, " "))),
		streets: wordSet(strings.Join(pl.Streets, " ")),
		known:   union(knownWords, wordSet(strings.Join(pl.Keep, " "))),
		own:     pk.KnownWords(),
		phrases: pl.Phrases,
		places:  len(pl.Words)+len(pl.Streets) > 0,
		abbrevs: abbreviationFixes(pl.Abbreviations),
		towns:   pl.Towns,
		states:  pl.States,
		townEnd: townEndAfter(pl.AfterTown),
		shape:   strings.ReplaceAll(pl.Postcode, " ", ""),
	}
	for _, g := range strings.Fields(pl.Postcode) {
		lx.postcode = append(lx.postcode, len(g))
	}
	lx.townNames = slices.Sorted(maps.Keys(lx.towns))
	slices.Reverse(lx.townNames)
	lx.address = union(lx.trade, lx.streets)
	actual, _ := lexicons.LoadOrStore(pk, lx)
	return actual.(*lexicon)
}

// KnownWord says whether w, its marks aside and in capitals, is a word of
// the lexicon names and addresses on a page of pack pk (nil: none) are
// mended to or left alone as.
func KnownWord(w string, pk *packs.Pack) bool {
	c := letterCore(strings.ToUpper(w))
	lx := lexiconOf(pk)
	return c != "" && (lx.address[c] || lx.known[c])
}

func union(sets ...map[string]bool) map[string]bool {
	m := map[string]bool{}
	for _, s := range sets {
		for w := range s {
			m[w] = true
		}
	}
	return m
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// mendAddressWords mends an address's words to the trade and street words
// (see mendWords).
func (lx *lexicon) mendAddressWords(s string) string { return lx.mendWords(s, lx.address) }

// mendNameWords mends a supplier's name to the trade words: the shop
// words, and the place words of the page's country alone (on a Malaysian
// receipt SABAH is a state; elsewhere it may be a misread SARAH).
func (lx *lexicon) mendNameWords(s string) string {
	return lx.mendWords(mendTradePhrases(s), lx.trade)
}

// tradePhrases are trades named by two words joined by "&", each short
// enough that a misread letter in it is no misread alone.
var tradePhrases = [][2]string{{"CASH", "CARRY"}}

// reAmpersandPair is two words joined by "&".
var reAmpersandPair = regexp.MustCompile(`\b([A-Z]{3,6})(\s*&\s*)([A-Z]{3,6})\b`)

// mendTradePhrases mends a pair of words joined by "&" that is one misread,
// lost or extra letter in each word or fewer from a trade phrase ("CASHF &
// CARY" is CASH & CARRY).
func mendTradePhrases(s string) string {
	return reAmpersandPair.ReplaceAllStringFunc(s, func(m string) string {
		sub := reAmpersandPair.FindStringSubmatch(m)
		for _, p := range tradePhrases {
			if editDistance(sub[1], p[0], 1) <= 1 && editDistance(sub[3], p[1], 1) <= 1 {
				return p[0] + sub[2] + p[1]
			}
		}
		return m
	})
}

// mendAddressText mends an address's words, and, where the page's country
// has place words, its place phrases and street abbreviations (JALAN,
// DARUL EHSAN, JLN): elsewhere only a shop word is mended.
func (lx *lexicon) mendAddressText(s string) string {
	if !lx.places {
		return lx.mendWords(s, lx.trade)
	}
	return lx.mendPlacePhrases(lx.abbrevs.apply(lx.mendAddressWords(s)))
}

// mendWords replaces each misread word in s by the word of words it is
// closest to, when exactly one lies within one edit (two for words of eight
// letters or more). Short words, words with digits and words already known
// are left alone.
func (lx *lexicon) mendWords(s string, words map[string]bool) string {
	s = lx.joinSplitWords(s, words)
	return mendEachWord(s, func(f string) string {
		if w, ok := mendDigitsInWord(f, words); ok {
			return w
		}
		if w, ok := lx.mendPunctuatedWord(f); ok {
			return w
		}
		core := letterCore(f)
		if !lx.mendable(core) || lx.own[core] {
			return f
		}
		if w, ok := closestWord(core, words); ok {
			return strings.Replace(f, core, w, 1)
		}
		return f
	})
}

// mendEachWord puts mend(f) in place of each word f of s, the words a
// comma glues together taken one by one ("JAYA,ELANGOR"); s comes back as
// it was, spacing and all, when no word changes.
func mendEachWord(s string, mend func(f string) string) string {
	fields := strings.Fields(s)
	changed := false
	for i, f := range fields {
		if w := mendGluedWords(f, mend); w != f {
			fields[i], changed = w, true
		}
	}
	if !changed {
		return s
	}
	return strings.Join(fields, " ")
}

// mendGluedWords is mend(f), or, for words glued by commas, each of them
// mended alone.
func mendGluedWords(f string, mend func(f string) string) string {
	parts := strings.Split(f, ",")
	if len(parts) == 1 {
		return mend(f)
	}
	for i, p := range parts {
		if p != "" {
			parts[i] = mend(p)
		}
	}
	return strings.Join(parts, ",")
}

// closestWord is the one word of lexicon nearest a misread word, within
// one misread letter (two edits for words of eight letters or more), and
// ending in the same letter.
func closestWord(core string, lexicon map[string]bool) (string, bool) {
	// Shorter words only mend a misread letter (HONE, not BATFU -> BATU):
	// a dropped or extra letter in a short word is too often another word.
	limit, dist := 1, hamming
	switch {
	case len(core) >= 8:
		limit, dist = 2, editDistance
	case len(core) == 7:
		dist = editDistance // HARDARE: one letter dropped from a long word
	}
	best, tie := "", false
	bestD := limit + 1
	for w := range lexicon {
		if w[len(w)-1] != core[len(core)-1] {
			continue // another ending is usually another word: STATIONERS, BAKERS
		}
		if len(core) >= len(w)+2 && strings.Contains(core, w) {
			continue // the word whole inside a longer one is a compound: BHPETROL
		}
		if d := dist(core, w, limit); d < bestD {
			best, bestD, tie = w, d, false
		} else if d == bestD && d <= limit {
			tie = true
		}
	}
	return best, best != "" && !tie
}

// mendLowerInCapsWords mends each capital word of s with one lower-case
// letter inside it (see mendLowerInCaps). It runs before a name or address
// line is put in capitals, which hides the misread letter.
func (lx *lexicon) mendLowerInCapsWords(s string) string {
	return mendEachWord(s, func(f string) string {
		core := letterCore(f)
		if w, ok := lx.mendLowerInCaps(core); ok {
			return strings.Replace(f, core, w, 1)
		}
		return f
	})
}

// mendLowerInCaps mends a capital word with one lower-case letter inside
// it ("HOnE"): printed names are in capitals, so that letter is the one
// misread, and the word is the trade word that fits with every other letter
// as read, when exactly one does.
func (lx *lexicon) mendLowerInCaps(core string) (string, bool) {
	if len(core) < 4 {
		return "", false
	}
	at := -1
	for i, r := range core {
		switch {
		case r > unicode.MaxASCII:
			return "", false
		case unicode.IsLower(r):
			if at >= 0 || i == 0 {
				return "", false
			}
			at = i
		}
	}
	if at < 0 {
		return "", false
	}
	fit := ""
	for w := range lx.trade {
		if len(w) == len(core) && w[:at] == core[:at] && w[at+1:] == core[at+1:] {
			if fit != "" {
				return "", false
			}
			fit = w
		}
	}
	return fit, fit != ""
}

// glyphLike are the marks OCR reads for part of a letter's strokes: "!UMPUR"
// (L), "MA!'KOTA" (H), "SELA:IGOR" (N), "JA.AN" (L).
const glyphLike = "!:|'`‘’\"{[."

// mendPunctuatedWord mends a capital word with a run of letter-like marks
// at its start or between its letters, when exactly one trade word fits with
// that run standing for one letter (the run may take an I beside it along:
// ":I" for N) and every other letter as read. Trailing punctuation stays.
func (lx *lexicon) mendPunctuatedWord(f string) (string, bool) {
	end := strings.LastIndexFunc(f, unicode.IsLetter)
	if end < 0 {
		return f, false
	}
	word, tail := f[:end+1], f[end+1:]
	start := strings.IndexFunc(word, func(r rune) bool { return !strings.ContainsRune(glyphLike, r) })
	if start > 0 && strings.ContainsRune("!|{[", rune(word[0])) {
		start = 0 // a leading "!", "|", "{" or "[" may be the first letter: "{AMAN"
	}
	word = word[start:]
	runAt := strings.IndexAny(word, glyphLike)
	if runAt < 0 {
		return f, false
	}
	runEnd := runAt
	for runEnd < len(word) && strings.ContainsRune(glyphLike, rune(word[runEnd])) {
		runEnd++
	}
	before, after := word[:runAt], word[runEnd:]
	if strings.ContainsAny(after, glyphLike) || letterCount(before+after) < 4 ||
		strings.IndexFunc(before+after, func(r rune) bool { return !unicode.IsUpper(r) }) >= 0 {
		return f, false
	}
	var fits []string
	try := func(b, a string) {
		for w := range lx.trade {
			if len(w) == len(b)+1+len(a) && strings.HasPrefix(w, b) && strings.HasSuffix(w, a) {
				fits = append(fits, w)
			}
		}
	}
	try(before, after)
	if strings.HasPrefix(after, "I") {
		try(before, after[1:])
	}
	if strings.HasSuffix(before, "I") {
		try(before[:len(before)-1], after)
	}
	if len(fits) != 1 {
		return f, false
	}
	return f[:start] + fits[0] + tail, true
}

// letterCore is a word without the marks around it.
func letterCore(f string) string {
	return strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) })
}

// mendable says whether a word may be mended to another: five capitals or
// more, and not a word we know as it is (englishNeighbours: English words
// one letter from one of ours, GOODS for FOODS, BLACK for BLOCK).
func (lx *lexicon) mendable(core string) bool {
	// Letters, not bytes: a Cyrillic "ООД" is three letters (and a legal form).
	return utf8.RuneCountInString(core) >= 5 && !packs.IsLegalFormWord(core) && !lx.trade[core] && !lx.streets[core] && !lx.known[core] && !englishNeighbours[core] &&
		strings.IndexFunc(core, func(r rune) bool { return !unicode.IsUpper(r) }) < 0
}

// hamming counts the letters two words of the same length differ in, or is
// limit+1 for words of different lengths.
func hamming(a, b string, limit int) int {
	if len(a) != len(b) {
		return limit + 1
	}
	d := 0
	for i := range len(a) {
		if a[i] != b[i] {
			d++
		}
	}
	return d
}

// EditDistance is the Levenshtein distance of a and b (in bytes), or
// limit+1 once it is sure to exceed limit.
func EditDistance(a, b string, limit int) int { return editDistance(a, b, limit) }

// editDistance is the Levenshtein distance of a and b, or limit+1 once it
// is sure to exceed limit.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// mendPlacePhrases mends two neighbouring words of an address that are
// one misread letter (a letter lost, for DARU) away from a place phrase,
// each word at most one, the pair at most one below ten letters. Known
// words and marks around the words stay. Pairs that fit two phrases are
// left alone.
func (lx *lexicon) mendPlacePhrases(s string) string {
	fields := strings.Fields(s)
	changed := false
	for i := 0; i+1 < len(fields); i++ {
		a, b := letterCore(fields[i]), letterCore(fields[i+1])
		if a == "" || b == "" || strings.IndexFunc(a+b, func(r rune) bool { return !unicode.IsUpper(r) }) >= 0 {
			continue
		}
		var fit [2]string
		n := 0
		for _, p := range lx.phrases {
			if a == p[0] && b == p[1] {
				n = 0
				break
			}
			da, db := editDistance(a, p[0], 1), editDistance(b, p[1], 1)
			limit := 1
			if len(p[0])+len(p[1]) >= 10 {
				limit = 2
			}
			if da <= 1 && db <= 1 && da+db <= limit && lx.mendableIn(a, da) && lx.mendableIn(b, db) {
				fit, n = p, n+1
			}
		}
		if n == 1 {
			fields[i] = strings.Replace(fields[i], a, fit[0], 1)
			fields[i+1] = strings.Replace(fields[i+1], b, fit[1], 1)
			changed = true
			i++
		}
	}
	if !changed {
		return s
	}
	return strings.Join(fields, " ")
}

// mendZeroInNameWords reads a 0 among the letters of a name's word as
// the O it is ("G0LDEN B0OK", "HAI~0" for HAI-O), and a tilde between
// two characters of a word as the hyphen it is. A word needs three
// letters and no other digit: "A1", "3M", "7-ELEVEN" and "U3" stay. A 0
// standing alone before a word, or before an apostrophe and a letter, is
// the Irish O too ("0 SUILLEABHAIN", "0'BRIEN").
func mendZeroInNameWords(s string) string {
	s = reZeroBeforeName.ReplaceAllString(s, "${1}O${2}")
	return mendEachWord(s, func(f string) string {
		w := reTildeInWord.ReplaceAllString(f, "$1-$2")
		letters, zeros, digits := countZeros(w)
		if zeros == 1 && digits == 0 && letters >= 3 && reZeroBesideLetter.MatchString(w) {
			w = strings.Replace(w, "0", "O", 1)
		}
		return w
	})
}

// mendZeroInAddressWords reads the 0s among an address word's letters as
// the O they are: PP-OCR's recogniser reads O as 0 ("49 0AK AVE", "TOLED0
// 0H 43604", "50667 K0ELN"). A word needs a letter and no other digit, so
// "10TH", "B-01" and "C/0" stay. In the UK it needs three letters: the
// second half of a postcode is a digit and two letters ("SW1A 0AA").
func mendZeroInAddressWords(s string, c receipt.Country) string {
	minLetters := 1
	if c == receipt.CountryUK {
		minLetters = 3
	}
	return mendEachWord(s, func(f string) string {
		letters, zeros, digits := countZeros(f)
		if zeros == 0 || digits > 0 || letters < minLetters || !reZeroBesideLetter.MatchString(f) {
			return mendOInNumber(f)
		}
		return strings.ReplaceAll(f, "0", "O")
	})
}

// countZeros counts a word's letters, its 0s and its other digits.
func countZeros(w string) (letters, zeros, otherDigits int) {
	for _, r := range w {
		switch {
		case r == '0':
			zeros++
		case unicode.IsDigit(r):
			otherDigits++
		case unicode.IsLetter(r):
			letters++
		}
	}
	return letters, zeros, otherDigits
}

// mendOInNumber reads the Os of a word that is otherwise three or more
// digits as the 0s they are ("4330O SERI KEMBANGAN", "551OO"): postcodes
// and house numbers hold no letter O.
func mendOInNumber(f string) string {
	core := strings.TrimRight(f, ",.;:")
	oes, digits := 0, 0
	for _, r := range core {
		switch {
		case r == 'O':
			oes++
		case r >= '0' && r <= '9':
			digits++
		default:
			return f
		}
	}
	if oes == 0 || digits < 3 {
		return f
	}
	return strings.ReplaceAll(core, "O", "0") + f[len(core):]
}

var (
	reTildeInWord      = regexp.MustCompile(`(\w)~(\w)`)
	reZeroBesideLetter = regexp.MustCompile(`\pL-?0|0['’]?\pL`) // "0'CONNELL" is O'CONNELL
)

// textFixes are misreadings a pattern finds, each with what it stands for.
type textFixes []textFix

// textFix is a misreading a pattern finds and what it stands for.
type textFix struct {
	re   *regexp.Regexp
	with string
}

// apply makes every fix in s, in order.
func (fs textFixes) apply(s string) string {
	for _, f := range fs {
		s = f.re.ReplaceAllString(s, f.with)
	}
	return s
}

// mendableIn says whether a word d letters from its place in a phrase may
// become it: four letters or more, and no word we know as it is (BANDAR
// BATU is not BANDAR BARU).
func (lx *lexicon) mendableIn(w string, d int) bool {
	return d == 0 || len(w) >= 4 && !lx.trade[w] && !lx.known[w]
}

// abbreviationFixes mend a country's street abbreviations as misread
// (JLN, for jalan, read JIN, JUN or J1N; TMN, taman, read THN) where their
// place in an address shows what they are: before a name or number. And
// two lettered house numbers joined by "&" read as 8 ("31G833G") are
// mended where the country prints them so.
func abbreviationFixes(abbrevs map[string][]string) textFixes {
	if len(abbrevs) == 0 {
		return nil
	}
	names := slices.Sorted(maps.Keys(abbrevs))
	fixes := make(textFixes, 0, len(names)+1)
	for _, abbr := range names {
		alts := make([]string, len(abbrevs[abbr]))
		for i, m := range abbrevs[abbr] {
			alts[i] = regexp.QuoteMeta(m)
		}
		fixes = append(fixes, textFix{regexp.MustCompile(`(^|[\s,.\-])(?:` + strings.Join(alts, "|") + `)(\.?\s+[A-Z0-9])`), "${1}" + abbr + "${2}"})
	}
	return append(fixes, textFix{reAmpersandAsEight, "${1}&${2}"})
}

// reAmpersandAsEight is two lettered house numbers joined by "&" read as
// 8: "31G833G".
var reAmpersandAsEight = regexp.MustCompile(`\b(\d{1,4}[A-Z])8(\d{1,4}[A-Z])\b`)

// mendFromPage takes a word's spelling from where the receipt prints it
// again in plain type when a display font or a faint line was misread:
// "SANYO STATIONERY SHOP" over "SANYU SUPPLY SDN BHD" and "Follow us on
// Facebook: Sanyu.Stationery"; "GARDEQIA BAKERIES" over "the recipient of
// Gardenia's products"; "TAMAN SRI UENGKIL" over "43800 DENGKIL". A word is
// replaced only when it is read with confidence nowhere on the page (lines
// first to last, the text's own, do not count), is no known word, and one
// spelling one letter away (same length, five letters or more) is read
// elsewhere with confidence, and, where the reader gave the words'
// confidences, read surer there than in the name or printed there twice
// ("GARDENIA" at 0.99 in the heading is not mended to the footer's one
// "Gardenta's" at 0.96; clearlySurer); or, with no such spelling, one spelling with a
// letter more inside the word (oneLetterDropped) is read elsewhere. first
// and last of -1 count every line.
func (lx *lexicon) mendFromPage(name string, lines []Line, first, last int) string {
	body := pageWords(lines, first, last)
	own := runConfidences(lines, func(i int, _ Line) bool { return i >= first && i <= last })
	elsewhere := runConfidences(lines, func(i int, l Line) bool { return (i < first || i > last) && l.Conf >= 0.8 })
	return mendEachWord(name, func(f string) string {
		core := letterCore(f)
		if body[core] > 0 {
			return f
		}
		if !lx.mendable(core) {
			// A double letter merged at the end of a short word: "DAILY
			// GRIL" over "Daily Grill".
			if len(core) == 4 && !lx.known[core] && !lx.trade[core] {
				if twin := core + core[3:]; lx.mendable(twin) && body[twin] > 0 {
					return strings.Replace(f, core, twin, 1)
				}
			}
			return f
		}
		twin, n := "", 0
		for w := range body {
			if hamming(core, w, 1) == 1 {
				twin, n = w, n+1
			}
		}
		if c, read := own[core]; n == 1 && (!read || elsewhere[twin] > c+clearlySurer || body[twin] > 1) {
			return strings.Replace(f, core, twin, 1)
		}
		if n == 0 {
			for w := range body {
				if oneLetterDropped(core, w) {
					twin, n = w, n+1
				}
			}
			if n == 1 {
				return strings.Replace(f, core, twin, 1)
			}
		}
		return f
	})
}

// clearlySurer is how much surer a spelling read once elsewhere must be
// than the name's to take its place: "Katana Sushi" at 0.990 is not mended
// to "Hamachi - Sashi mi" at 0.992 (a word split, read as surely).
const clearlySurer = 0.02

// oneLetterDropped says whether word is full with one letter left out,
// not its last: a logo's stylised letter the reader passed over
// ("RSSMANN" over the footer's "Dirk Rossmann GmbH"), or a double letter
// that the recogniser's decoding merges. However surely the heading was
// read, the plain print is the spelling: a reader seldom adds a letter
// that is not there. A last letter is left alone (BURGER is not BURGERS)
// unless it doubles the one before it (GRILL read GRIL).
func oneLetterDropped(word, full string) bool {
	if len(full) != len(word)+1 {
		return false
	}
	i := 0
	for i < len(word) && word[i] == full[i] {
		i++
	}
	if i == len(word) {
		return i > 0 && full[i] == word[i-1]
	}
	return word[i:] == full[i+1:]
}

// Marks a receipt's thin brackets are often read as.
const (
	openLookalikes  = "ILCT1[{|"
	closeLookalikes = "IJY1]}|"
)

// mendBracketLookalikes restores the brackets of a name that OCR read as
// letters, glued or alone: "ENTERPRISE ISETIA ALAMI SDN BHD" is
// "ENTERPRISE (SETIA ALAM) SDN BHD". A word loses its first letter to "("
// only when what is left is a word of our lexicon and the word as read is
// neither that nor a word the page prints elsewhere (ICONIC is not
// "(CONIC"); a lone letter becomes "(" before such a word. Either needs
// the name to have no "(" open before it, and a closing one needs one.
func (lx *lexicon) mendBracketLookalikes(name string, lines []Line, first, last int) string {
	known := pageWords(lines, first, last)
	isLexicon := func(w string) bool { return lx.address[w] || lx.known[w] }
	isKnown := func(w string) bool { return len(w) >= 3 && (known[w] > 0 || isLexicon(w)) }
	fields := strings.Fields(name)
	depth := 0
	for i, f := range fields {
		u := strings.ToUpper(f)
		next := ""
		if i+1 < len(fields) {
			next = strings.ToUpper(fields[i+1])
		}
		switch {
		case depth == 0 && len(u) == 1 && u != "I" && !HasDigit(u) && strings.Contains(openLookalikes, u) && isKnown(letterCore(next)):
			fields[i] = "(" // not I, a word, nor 1, a number: "KEDAI 1 MALAYSIA"
		case depth == 0 && len(u) >= 4 && strings.ContainsRune(openLookalikes, rune(u[0])) && !isKnown(letterCore(u)) && isLexicon(u[1:]):
			fields[i] = "(" + f[1:]
		case depth > 0 && len(u) == 1 && !HasDigit(u) && strings.Contains(closeLookalikes, u):
			fields[i] = ")"
		case depth > 0 && len(u) >= 4 && strings.ContainsRune(closeLookalikes, rune(u[len(u)-1])) && !isKnown(letterCore(u)) && isKnown(u[:len(u)-1]):
			fields[i] = f[:len(f)-1] + ")"
		}
		depth += strings.Count(fields[i], "(") - strings.Count(fields[i], ")")
	}
	return strings.Join(fields, " ")
}

// PageSpellings counts how often a page prints each spelling: the runs of
// letters of its lines read with confidence, in capitals.
type PageSpellings map[string]int

// CountPageWords counts the spellings of the lines read with confidence.
func CountPageWords(lines []Line) PageSpellings { return pageWords(lines, -1, -1) }

// Count is how often the page prints word, in capitals and the marks at
// its ends aside ("SAM," is SAM).
func (p PageSpellings) Count(word string) int { return p[letterCore(strings.ToUpper(word))] }

// pageWords counts the words of the lines read with confidence outside
// lines first to last (a name's own lines), in capitals.
func pageWords(lines []Line, first, last int) map[string]int {
	body := map[string]int{}
	for i, l := range lines {
		if i >= first && i <= last || l.Conf < 0.8 {
			continue
		}
		for _, w := range strings.FieldsFunc(strings.ToUpper(l.Text), func(r rune) bool { return !unicode.IsLetter(r) }) {
			body[w]++
		}
	}
	return body
}

// digitLookalikes are the letters a digit read among a word's capitals may
// stand for.
var digitLookalikes = map[rune]string{'0': "OD", '1': "LI", '2': "Z", '4': "A", '5': "S", '6': "G", '7': "T", '8': "B", '9': "G"}

// mendDigitsInWord reads the digits among a capital word's letters as the
// letters they look like, when that makes exactly one word of lexicon:
// "PETA1ING", "LEVE1", "SE7IA", "5UBANG", "RAWAN9". The word needs three
// letters and at most three such digits, so "U13", "SS21", "2ND" and
// "PJU6A" (no word) stay as read.
func mendDigitsInWord(f string, lexicon map[string]bool) (string, bool) {
	core := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	letters, digits := 0, 0
	for _, r := range core {
		switch {
		case r >= 'A' && r <= 'Z':
			letters++
		case digitLookalikes[r] != "":
			digits++
		default:
			return f, false
		}
	}
	if letters < 3 || digits == 0 || digits > 3 {
		return f, false
	}
	found := ""
	var try func(prefix, rest string) bool // false once two words fit
	try = func(prefix, rest string) bool {
		if rest == "" {
			if !lexicon[prefix] || prefix == found {
				return true
			}
			if found != "" {
				return false
			}
			found = prefix
			return true
		}
		r := rune(rest[0])
		if alts := digitLookalikes[r]; alts != "" {
			for _, a := range alts {
				if !try(prefix+string(a), rest[1:]) {
					return false
				}
			}
			return true
		}
		return try(prefix+rest[:1], rest[1:])
	}
	if !try("", core) || found == "" {
		return f, false
	}
	return strings.Replace(f, core, found, 1), true
}

// joinSplitWords joins two neighbouring capital words that PP-OCR's spacing
// split, when together, their digits maybe read as the letters they look
// like, they make a word of lexicon and neither is a word on its own:
// "STAT IONERY", "PETA1 ING", "JAL AN". Punctuation before the first or
// after the second stays.
func (lx *lexicon) joinSplitWords(s string, words map[string]bool) string {
	fields := strings.Fields(s)
	if len(fields) < 2 {
		return s
	}
	known := func(w string) bool {
		return words[w] || lx.known[w] || englishNeighbours[w] || lx.streets[w] || lx.trade[w]
	}
	var out []string
	changed := false
	for i := 0; i < len(fields); i++ {
		if i+1 < len(fields) {
			a, b := fields[i], fields[i+1]
			lead := strings.TrimRightFunc(a, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
			trail := strings.TrimLeftFunc(b, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
			ca, cb := a[len(lead):], b[:len(b)-len(trail)]
			if ca != "" && cb != "" && !known(ca) && !known(cb) && letterCount(ca+cb) >= 4 && len(ca+cb) >= 5 {
				joined := ca + cb
				if w, ok := mendDigitsInWord(joined, words); ok {
					joined = w
				}
				if words[joined] && strings.IndexFunc(joined, func(r rune) bool { return !unicode.IsUpper(r) }) < 0 {
					out = append(out, lead+joined+trail)
					i++
					changed = true
					continue
				}
			}
		}
		out = append(out, fields[i])
	}
	if !changed {
		return s
	}
	return strings.Join(out, " ")
}

// reZeroBeforeName is a 0 standing alone at a name's start or after a
// word of letters, before a word of letters or an apostrophe and a
// letter: "0 SUILLEABHAIN", "SEAN 0'BRIEN" (not "10 0 STREET").
var reZeroBeforeName = regexp.MustCompile(`(^|\pL\s+)0(\s+\pL{3}|['’]\pL)`)
