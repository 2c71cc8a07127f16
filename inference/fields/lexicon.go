package fields

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/shoebox-app/shoebox/receipt"
)

// shopWords name trades and shop kinds and legal forms: the words a
// supplier's name ends in. Short words one letter from a street word stay
// out (SALON would tie JALON between SALON and JALAN; DINER turns DINAR).
var shopWords = wordSet(`
HARDWARE BAKERY BAKERIES STATIONERY RESTAURANT RESTORAN ENTERPRISE ENTERPRISES TRADING
ELECTRICAL ELECTRONICS SUPPLY SUPPLIES SUPERMARKET HYPERMARKET PHARMACY FARMASI BOOKSTORE
BOOKSTORES CONFECTIONERY SEAFOOD CENTRE CENTER MARKET MARKETING FOOD FOODS BEVERAGE BEVERAGES
HEALTH BEAUTY INTERNATIONAL SERVICE SERVICES STATION MACHINERY MOTOR MOTORS PARTS TIMBER
BUILDING MATERIAL MATERIALS CONSTRUCTION HOLDINGS INDUSTRIES INDUSTRIAL DISTRIBUTION
DISTRIBUTOR KEDAI PERNIAGAAN PERUSAHAAN SYARIKAT RUNCIT MAKANAN MINUMAN KOPITIAM BISTRO
KITCHEN GROCERY FRESH BOOKS OFFICE PRINTING COMPUTER TEXTILE FURNITURE HOME LIVING CASH
CARRY RETAIL WHOLESALE TRANSPORT LOGISTICS TRAVEL HOTEL PETROL PETROLEUM ENERGY BERHAD
LIMITED COMPANY CORPORATION SHOPPING CAFE
STATIONERS GROCER GROCERS CHEMIST BUTCHER NEWSAGENT FLORIST GARAGE TOOLS MART
STORE STORES SHOP GARDEN
`)

// placeWords are street, district and state words (for Malaysia, where our
// development receipts come from), and a building's PLAZA: mended only on
// Malaysian receipts, where "Plata" is no misread place.
var placeWords = wordSet(`
JALAN TAMAN BANDAR LORONG PERSIARAN LEBUHRAYA LEBUH KAWASAN PERINDUSTRIAN SEKSYEN KAMPUNG
BATU BUKIT SUNGAI SUNGEI SELANGOR JOHOR BAHRU KUALA LUMPUR PETALING SHAH SUBANG KLANG
CHERAS PUCHONG KAJANG KEMBANGAN DAMANSARA AMPANG SETAPAK KEPONG PERAK PENANG PULAU PINANG
MELAKA PAHANG KEDAH KELANTAN TERENGGANU SABAH SARAWAK NEGERI SEMBILAN PUTRAJAYA CYBERJAYA
DARUL EHSAN TAKZIM MALAYSIA UTAMA INDAH PERDANA MUTIARA LEVEL FLOOR BLOCK BASEMENT
BESAR BATANG SETIA PLAZA
`)

// streetWords are more Malaysian place words, mended in addresses only:
// towns of the Klang Valley and Johor, and the words streets, estates and
// buildings are named with (flowers, gems, titles: JALAN KENANGA, TAMAN
// PERMATA, JALAN TENGKU…). A supplier's name is often a proper name one
// letter from one of them (SANJUNG REALITI is not TANJUNG). A common
// English word one letter from a street word would be mended to it, so
// places such as BANTING (BATTING), SENTRAL (CENTRAL), SUNWAY (SUNDAY),
// GENTING (GETTING) and DINAR (DINER) stay out: each word here was checked
// against Debian's American English word list (wamerican).
var streetWords = wordSet(`
ABDUL ANGGERIK BAHAGIA BANGI BANGSAR BANGUNAN BENDAHARA BERLIAN
BERNAM BESI BESTARI BINTANG BOTANIC BULOH BUTTERWORTH CEMERLANG CEMPAKA DAHLIA DAMAI
DATUK DELIMA DENGKIL GEMILANG GOMBAK GUDANG HARMONI IDAMAN IMPIAN INDUSTRI INTAN IPOH ISMAIL
JINJANG KARANG KEDIAMAN KELANA KEMAJUAN KEMBOJA KENANGA KESUMA KINRARA KLUANG
KOMPLEKS KUANTAN KULAI LAKSAMANA LANGAT LENGKOK LINGKARAN MAHARAJA MASAI MAWAR
MEGAH MELATI MENARA MENJALARA MERAK MERPATI MEWAH MOLEK NILAI NILAM NUSAJAYA ORKID PANDAMARAN
PANDAN PANGSAPURI PANTAI PASIR PELANGI PERDAGANGAN PERKASA PERMAISURI PERMATA PERUMAHAN
PONTIAN PUSAT PUTERI PUTRA RAHMAN RAWANG SABAK SALAK SAUJANA SEGAMAT SEGAMBUT SEJAHTERA
SEMENYIH SENAI SENAWANG SENTUL SEPANG SEPUTEH SERDANG SEREMBAN SEROJA SKUDAI SULTANAH
TANJUNG TEBRAU TENGKU TERATAI TIRAM TROPICANA TUNKU WANGSA WISMA
ZAMRUD
`)

// tradeWords are words that recur in the names and addresses printed on
// receipts. OCR errors in them are mended when a misread is close to exactly
// one of them.
var tradeWords = union(shopWords, placeWords)

// addressWords are the words an address's misreads are mended to.
var addressWords = union(tradeWords, streetWords)

// knownWords are left as read and never become a correction: ordinary
// words one letter away from a trade word (TANAH is not TAMAN, JAPAN is not
// JALAN, PAPAN is not JAPAN), Malay words or spellings one letter from a
// place word (PASAR, a market, is not PASIR; BORONG, wholesale, is not
// LORONG; TANJONG is TANJUNG's older spelling), and the places left out of
// streetWords, so that they are not mended to a street word either
// (SELAYANG is not SENAWANG).
var knownWords = wordSet(`
TANAH MERAH BARAT TIMUR UTARA SELATAN TENGAH LAMA BARU JAYA JASA ALAM SERI RAYA DESA MAJU PAPAN
HOUSE HORSE MONEY MINT MINE MINES MINI NONE HONG HONE HOLE BONE STORE STORES SHOP SHOPS
JAPAN CHINA INDIA KOREA TAIWAN THAI
PASAR BORONG TANJONG PUTERA KUSUMA
AHMAD BANTING BRICKFIELDS CAVES DINAR GALLERIA GENTING ISKANDAR KEMUNING KIARA MEDAN PERLING
SEBERANG SELAYANG SENTRAL SIMPANG SULTAN SUNWAY TAIPING
`)

// KnownWord says whether w, its marks aside and in capitals, is a word of
// the lexicon names and addresses are mended to or left alone as.
func KnownWord(w string) bool {
	c := letterCore(strings.ToUpper(w))
	return c != "" && (addressWords[c] || knownWords[c])
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

// mendTradeWords replaces each misread word in s by the trade word it is
// closest to, when exactly one lies within one edit (two for words of eight
// letters or more). Short words, words with digits and words already known
// are left alone.
func mendTradeWords(s string) string { return mendWords(s, tradeWords) }

// mendAddressWords is mendTradeWords for an address, with its street words.
func mendAddressWords(s string) string { return mendWords(s, addressWords) }

// mendNameWords mends a supplier's name: its shop words everywhere, and
// the Malaysian place words only on Malaysian receipts, where SABAH is a
// state and not a misread SARAH.
func mendNameWords(s string, c receipt.Country) string {
	s = mendTradePhrases(s)
	if c != receipt.CountryMY {
		return mendWords(s, shopWords)
	}
	return mendTradeWords(s)
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

// mendAddressText mends an address's words, place phrases and street
// abbreviations. The word lists are Malaysia's (JALAN, TAMAN, DARUL
// EHSAN): elsewhere only a shop word is mended.
func mendAddressText(s string, c receipt.Country) string {
	if c != receipt.CountryMY {
		return mendWords(s, shopWords)
	}
	return mendPlacePhrases(addressAbbrevFixes.apply(mendAddressWords(s)))
}

// mendWords replaces each misread word in s by the word of lexicon it is
// closest to (see mendTradeWords).
func mendWords(s string, lexicon map[string]bool) string {
	s = joinSplitWords(s, lexicon)
	return mendEachWord(s, func(f string) string {
		if w, ok := mendDigitsInWord(f, lexicon); ok {
			return w
		}
		if w, ok := mendPunctuatedWord(f); ok {
			return w
		}
		core := letterCore(f)
		if !mendable(core) {
			return f
		}
		if w, ok := closestWord(core, lexicon); ok {
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
func mendLowerInCapsWords(s string) string {
	return mendEachWord(s, func(f string) string {
		core := letterCore(f)
		if w, ok := mendLowerInCaps(core); ok {
			return strings.Replace(f, core, w, 1)
		}
		return f
	})
}

// mendLowerInCaps mends a capital word with one lower-case letter inside
// it ("HOnE"): printed names are in capitals, so that letter is the one
// misread, and the word is the trade word that fits with every other letter
// as read, when exactly one does.
func mendLowerInCaps(core string) (string, bool) {
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
	for w := range tradeWords {
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
func mendPunctuatedWord(f string) (string, bool) {
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
		for w := range tradeWords {
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
func mendable(core string) bool {
	return len(core) >= 5 && !tradeWords[core] && !streetWords[core] && !knownWords[core] && !englishNeighbours[core] &&
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

// placePhrases are Malaysian place names of two words, either of which
// is short or an ordinary word on its own (ALAM, LAMA, BESI), so that
// only the pair shows a misread: "SHAH ALAN", "SHEH ALAM", "DARU EHSAN",
// "SUNGET BEST". The states' honorifics (DARUL EHSAN for Selangor…) are
// printed after most addresses.
var placePhrases = [][2]string{
	{"SHAH", "ALAM"},
	{"KUALA", "LUMPUR"},
	{"PETALING", "JAYA"},
	{"JOHOR", "BAHRU"},
	{"DARUL", "EHSAN"},
	{"DARUL", "TAKZIM"},
	{"DARUL", "AMAN"},
	{"DARUL", "MAKMUR"},
	{"DARUL", "RIDZUAN"},
	{"DARUL", "NAIM"},
	{"DARUL", "IMAN"},
	{"DARUL", "KHUSUS"},
}

// mendPlacePhrases mends two neighbouring words of an address that are
// one misread letter (a letter lost, for DARU) away from a place phrase,
// each word at most one, the pair at most one below ten letters. Known
// words and marks around the words stay. Pairs that fit two phrases are
// left alone.
func mendPlacePhrases(s string) string {
	fields := strings.Fields(s)
	changed := false
	for i := 0; i+1 < len(fields); i++ {
		a, b := letterCore(fields[i]), letterCore(fields[i+1])
		if a == "" || b == "" || strings.IndexFunc(a+b, func(r rune) bool { return !unicode.IsUpper(r) }) >= 0 {
			continue
		}
		var fit [2]string
		n := 0
		for _, p := range placePhrases {
			if a == p[0] && b == p[1] {
				n = 0
				break
			}
			da, db := editDistance(a, p[0], 1), editDistance(b, p[1], 1)
			limit := 1
			if len(p[0])+len(p[1]) >= 10 {
				limit = 2
			}
			if da <= 1 && db <= 1 && da+db <= limit && mendableIn(a, da) && mendableIn(b, db) {
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
// letters and no other digit: "A1", "3M", "7-ELEVEN" and "U3" stay.
func mendZeroInNameWords(s string) string {
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
	reZeroBesideLetter = regexp.MustCompile(`\pL-?0|0\pL`)
)

// textFixes are misreadings a pattern finds, each with what it stands for.
type textFixes []struct {
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
func mendableIn(w string, d int) bool {
	return d == 0 || len(w) >= 4 && !tradeWords[w] && !knownWords[w]
}

// Street abbreviations as OCR misreads them: JLN (jalan) as JIN, JUN, JEN,
// J1N; TMN (taman) as THN, TMM; BLK (block) as BIK, 8LK; the land-title
// "LOT P.T." as P.7. Each is mended only where its place in an address
// shows what it is: JLN and TMN before a name or number, BLK before a
// block letter or number, P.T. after LOT, LOT itself opening the address
// before a number; the "&" between two lettered house numbers ("31G&33G")
// read as 8.
var addressAbbrevFixes = textFixes{
	{regexp.MustCompile(`(^|[\s,.])(?:J[I1lUE]N|JLM)(\.?\s+[A-Z0-9])`), "${1}JLN${2}"},
	{regexp.MustCompile(`(^|[\s,.\-])(?:THN|TMM|TNN|7MN)(\.?\s+[A-Z0-9])`), "${1}TMN${2}"},
	{regexp.MustCompile(`(^|[\s,.])(?:B[I1]K|8LK)(\.?\s+[A-Z0-9]{1,3}\b)`), "${1}BLK${2}"},
	// Two lettered house numbers joined by "&" read as 8: "31G833G".
	{regexp.MustCompile(`\b(\d{1,4}[A-Z])8(\d{1,4}[A-Z])\b`), "${1}&${2}"},
}

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
// "Gardenta's" at 0.96). first and last of -1 count every line.
func mendFromPage(name string, lines []Line, first, last int) string {
	body := pageWords(lines, first, last)
	own := runConfidences(lines, func(i int, _ Line) bool { return i >= first && i <= last })
	elsewhere := runConfidences(lines, func(i int, l Line) bool { return (i < first || i > last) && l.Conf >= 0.8 })
	return mendEachWord(name, func(f string) string {
		core := letterCore(f)
		if !mendable(core) || body[core] > 0 {
			return f
		}
		twin, n := "", 0
		for w := range body {
			if hamming(core, w, 1) == 1 {
				twin, n = w, n+1
			}
		}
		if c, read := own[core]; n == 1 && (!read || elsewhere[twin] > c || body[twin] > 1) {
			return strings.Replace(f, core, twin, 1)
		}
		return f
	})
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
func mendBracketLookalikes(name string, lines []Line, first, last int) string {
	known := pageWords(lines, first, last)
	isLexicon := func(w string) bool { return addressWords[w] || knownWords[w] }
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
func joinSplitWords(s string, lexicon map[string]bool) string {
	fields := strings.Fields(s)
	if len(fields) < 2 {
		return s
	}
	known := func(w string) bool {
		return lexicon[w] || knownWords[w] || englishNeighbours[w] || streetWords[w] || tradeWords[w]
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
				if w, ok := mendDigitsInWord(joined, lexicon); ok {
					joined = w
				}
				if lexicon[joined] && strings.IndexFunc(joined, func(r rune) bool { return !unicode.IsUpper(r) }) < 0 {
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
