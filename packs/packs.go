// Package packs owns what one country or one language knows about the
// receipts and invoices printed there, as data (data/countries/*.json,
// data/languages/*.json): the words for total, subtotal, tax, cash, change,
// tip and the rest, month names, number and date formats, legal forms, tax
// words and rates, tax-ID schemes and currency marks. The reading rules
// (inference/fields) are the same everywhere; a pack tells them what a
// page's words mean. Detect decides from a page's own words which pack it
// is printed in, the client's country being only the prior.
//
// Adding a country is one JSON file (and its language's, if new), checked
// by the loader: see Load and Add.
package packs

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Language is what a language's receipts print, whatever the country.
type Language struct {
	Code string `json:"language"` // ISO 639-1: "de"
	Name string `json:"name"`
	// Tesseract names the language's trained data ("deu"), for the second
	// reader.
	Tesseract string `json:"tesseract"`
	// Script is the ISO 15924 code of the script the language is written
	// in where it is not Latin ("Cyrl"): PP-OCR has no letters for it, so
	// a page in it is read by Tesseract with this language's data.
	Script string `json:"script,omitempty"`
	// Lookalikes pairs each Latin letter with the letter of Script it
	// looks like ("AАBВCС…", Latin first): Tesseract, reading the script
	// with English beside it, reads bold capitals of the script as Latin
	// ("PECTO" for РЕСТО), and a word of such letters that the language
	// knows, or that mixes them with the script's own, is written back in
	// the script (FromLookalikes).
	Lookalikes string `json:"lookalikes,omitempty"`
	// MisreadLetters are the language's letters the default page reader
	// (PP-OCR) has none of, or often reads as another letter, each with
	// the letters it reads in its place ("ł": "t", so Wrocław reads
	// "Wroctaw"; "ß": "BR"; "l": "i" in small print, "Hauptpiatz");
	// letters it reads without their accent (ą as a) are not listed: the
	// rules compare words without accents. A name's or address's word
	// with such a stand-in is read again by Tesseract in the language, and
	// its reading taken where it only gives the letters back
	// (RestoresMisread).
	MisreadLetters map[string]string `json:"misread_letters,omitempty"`
	// Accents are the language's letters with an accent or umlaut (small
	// letters: "áéíóúüñ"), which the page reader reads without it
	// ("Distribucion", "KORNMUHLE"): a name's or address's word that could
	// have lost one is read again by Tesseract in the language, and its
	// reading taken where it only puts accents back (RestoresAccents).
	Accents string `json:"accents,omitempty"`
	// Elisions are the language's words that end in an apostrophe and
	// join the next ("D'", "L'", "DELL'"): read apart from it ("D'
	// IXELLES"), such a word is part of the text, not a speck.
	Elisions []string `json:"elisions,omitempty"`
	// Labels maps a canonical label, as the reading rules spell it in
	// English ("TOTAL", "TOTAL DUE", "SUBTOTAL", "CASH", "CARD", "CHANGE",
	// "TIP", "DISCOUNT", "ROUNDING", "TAX", "NET", "GROSS", "AMOUNT",
	// "DATE", "INVOICE", "RECEIPT"), to the language's words for it.
	Labels map[string][]string `json:"labels"`
	// Evidence are words and phrases common on this language's receipts
	// and rare elsewhere: they tell the page's language.
	Evidence []string `json:"evidence"`
	// Months maps month names and abbreviations to their number.
	Months map[string]int `json:"months"`
	// DateLinks are the words a written date puts between its day, month
	// and year ("22 de noviembre de 2025"); nil where it puts none.
	DateLinks []string `json:"date_links,omitempty"`
	// DatelineWords are the words a letter's dateline puts between its
	// place and its date ("Lyon, le 5 décembre 2024", "Berlin, den …").
	DatelineWords []string `json:"dateline_words,omitempty"`
	// NameWords are words that end or carry a business's name (RESTAURANT,
	// BAKERY, GRILL): a heading's next line made of them is the name's.
	NameWords []string `json:"name_words"`
	// SloganOpeners are the possessives a shop's slogan opens with ("MEIN
	// Drogeriemarkt", "YOUR local store", "VOTRE supermarché"): a line of
	// one ending in a trade word reads as the motto printed under the name
	// or logo, and a name read so waits for a look (IsSlogan).
	SloganOpeners []string `json:"slogan_openers,omitempty"`
	// NameLinks are the words that carry a business's name on to the next
	// line ("HOTEL MIRADOURO" / "DA GRAÇA", "GASTHOF" / "ZUM LÖWEN"): a
	// heading's next line that opens with one goes on with the name.
	NameLinks []string `json:"name_links,omitempty"`
	// NotNames are the till's words printed near the top (SERVER, TABLE,
	// CASHIER, KASSE): a line of them and numbers names no business.
	NotNames []string `json:"not_names"`
	// StreetWords are the words of a street address (STREET, PARKWAY,
	// STRASSE, RUE, VIA): with a number on its line, an address, never a
	// name.
	StreetWords []string `json:"street_words"`
	// StreetEndings are the street words a street's name ends in, written
	// as one word with it where the language compounds (HAUPTSTRASSE,
	// MOLENWEG, MANNERHEIMINTIE).
	StreetEndings []string `json:"street_endings,omitempty"`
	// OtherDates label a date that is not the document's own: an expiry,
	// a best-before, a validity, a payment's due date, a promotion's end,
	// a till's software version ("EXP", "MHD", "VALABLE", "SCADENZA").
	OtherDates []string `json:"other_dates"`
	// TradingAs are the words that put the name a business trades under
	// after its registered one ("Ltd T/A", "Inc. o/a", "DBA", "h.o.d.n."):
	// the name after them is the one its customers and bookkeeper know.
	TradingAs []string `json:"trading_as,omitempty"`
	// InvoiceLabels maps the labels of a printed invoice's blocks
	// (InvoiceLabelNames: "BUYER", "INVOICE NUMBER", "DUE DATE", "NET
	// TOTAL"…) to the language's words for them. Its "TAX ID" labels are
	// read on receipts too ("UID:", "Contribuinte n.º").
	InvoiceLabels map[string][]string `json:"invoice_labels"`

	lookalike map[rune]rune   // Lookalikes, Latin to the script's
	known     map[string]bool // the words the pack prints, folded (knownWords)
}

// Pack is what one country's receipts print, its languages' words included.
type Pack struct {
	Country string `json:"country"` // as receipt.Country spells it where it has one ("UK"); else ISO 3166
	Name    string `json:"name"`
	// Jurisdiction is the receipt.Country whose tax rules a library of
	// this country follows ("EU" for Germany).
	Jurisdiction string   `json:"jurisdiction"`
	Languages    []string `json:"languages"`
	Currency     string   `json:"currency"` // ISO 4217
	// CurrencyChanges are the days from which the country pays in
	// another currency (Bulgaria: the euro from 2026-01-01), in order;
	// Currency is the one before the first. CurrencyOn says which is in
	// force on a receipt's day.
	CurrencyChanges []CurrencyChange `json:"currency_changes,omitempty"`
	// CurrencyMarks are how the page prints its currency: ISO codes and
	// symbols ("EUR", "€"; "RM"; "$", which several countries share).
	CurrencyMarks []string `json:"currency_marks"`
	DecimalComma  bool     `json:"decimal_comma"`
	DateOrder     string   `json:"date_order"` // DMY, MDY or YMD
	// TimeWithDot: the country's tills print the time of day with a dot
	// after the date ("21.11.2024 16.05" in Finland), as well as with a
	// colon.
	TimeWithDot bool     `json:"time_with_dot,omitempty"`
	LegalForms  []string `json:"legal_forms"`
	TaxWords    []string `json:"tax_words"`
	// TaxRates are the rates (percent, as decimal strings) the country's
	// receipts print; empty where any rate is plausible (US sales tax).
	// They include the temporary rates of the last years, since receipts
	// are filed late (DE 16 and 5 in 2020, AT 5 in 2020–21, IE 21 in
	// 2020–21, UK 12.5 in 2021–22), and rates set to start (FI 13.5 from
	// 2026).
	TaxRates []string `json:"tax_rates"`
	// TaxID is a regular expression for the country's VAT or tax number.
	TaxID string `json:"tax_id,omitempty"`
	// NationalTaxIDSuffix follows the national number in the VAT number
	// made of it: Sweden's organisation number 556123-4567 is VAT number
	// SE556123456701.
	NationalTaxIDSuffix string `json:"national_tax_id_suffix,omitempty"`
	// Evidence are words only this country's pages print: its name,
	// regions, registry names.
	Evidence []string `json:"evidence"`
	// AddressPatterns are regular expressions (on upper-case text) for a
	// line of a postal address: a town with its state and ZIP code, a
	// postcode. Such a line is no business name.
	AddressPatterns []string `json:"address_patterns"`
	// JoinNameLines: a heading's next line that ends in a business word
	// ("SAGE" over "FRENCH CAFE & WINE BAR") is the name's. Off where the
	// trading name is the heading alone and the legal name follows (MY).
	JoinNameLines bool `json:"join_name_lines"`
	// AddressTells: the address patterns are the country's alone (a US
	// state and ZIP code, a UK postcode), so such a line is evidence of
	// the country; five-digit postcodes tell nothing.
	AddressTells bool `json:"address_tells"`
	// PhoneRegion is the country's code in the telephone numbering plans
	// (ISO 3166: "GB" for the UK): a phone number valid there, and not only
	// in another country of its calling code, is evidence of the country.
	// Empty: phone numbers tell nothing of it.
	PhoneRegion string `json:"phone_region,omitempty"`
	// WebDomains are the country's internet domains ("de"; "uk" for
	// co.uk): a web or mail address in one ("www.ikea.de", "rossmann.de/",
	// "info@firma.de") is evidence of the country.
	WebDomains []string `json:"web_domains,omitempty"`
	// Places are the country's place words, for mending misread names and
	// addresses; nil where none are known.
	Places *Places `json:"places,omitempty"`

	langs      []*Language
	labels     []phrase // longest first
	months     map[string]int
	dateLinks  map[string]bool
	legal      [][]string
	taxWords   [][]string
	evidence   [][]string
	langWords  [][][]string // per language: its evidence and label words
	rates      []*regexp.Regexp
	taxID      *regexp.Regexp
	webAddress *regexp.Regexp // a web or mail address in one of WebDomains
	taxPrefix  string         // the two letters the tax ID's international form begins with
	taxLetters string         // all the capitals it begins with ("CHE" for Switzerland's, "ATU" for Austria's)
	// taxLabelEnds are the tax words and the last word of each tax ID
	// label of the languages, folded: what a tax ID's letters may be read
	// glued to (gluedToTaxLabel).
	taxLabelEnds []string
	addresses    []*regexp.Regexp
	nameWords    map[string]bool
	notNames     map[string]bool
	sloganOpen   []string
	nameLinks    map[string]bool
	streetWords  map[string]bool
	streetEnds   []string
	otherDates   [][]string
	tradingAs    []*regexp.Regexp
	receiptNo    []*regexp.Regexp
}

// Places are the words a country's addresses, and the names of its
// businesses, print, so that a word one misread letter from one of them
// can be mended to it (JALAN, TAMAN, SELANGOR; "JAL AN", "5ELANGOR").
// Each is in capitals, letters only.
type Places struct {
	// Words are street, district, state and building words, and the
	// country's words for a trade (KEDAI, a shop), that names and
	// addresses print alike: mended in both.
	Words []string `json:"words"`
	// Streets are more place words, mended in an address only: towns and
	// the words streets, estates and buildings are named with (flowers,
	// gems, titles: JALAN KENANGA, TAMAN PERMATA). A business's name is
	// often a proper name one letter from one of them (SANJUNG REALITI is
	// not TANJUNG). A place one letter from a common English word would
	// pull that word to it, so such places (BANTING: BATTING, SUNWAY:
	// SUNDAY) go in Keep instead; inference/fields' tests list the English
	// words next to every pack's places (lexicon_english.go).
	Streets []string `json:"streets"`
	// Keep are the country's words one letter from a place word that are
	// no misread of it (TANAH, land, is not TAMAN; PASAR, a market, not
	// PASIR; TANJONG is TANJUNG's older spelling), and the places left out
	// of Streets, so that none is mended to a street name either
	// (SELAYANG is not SENAWANG): they stay as read.
	Keep []string `json:"keep"`
	// Phrases are place names of two words either of which is short or
	// ordinary alone ("SHAH ALAM", "DARUL EHSAN"): only the pair shows a
	// misread.
	Phrases [][2]string `json:"phrases,omitempty"`
	// Abbreviations maps a street abbreviation to the ways a reader
	// misreads it (JLN, for jalan, as JIN, J1N, JEN): mended where a name
	// or number follows it.
	Abbreviations map[string][]string `json:"abbreviations,omitempty"`
	// Towns are post towns and the postcode ranges they use (first and
	// last, inclusive), generous where a town spans several, as a range
	// too narrow would "mend" a right postcode: a postcode one digit off
	// its town's is mended.
	Towns map[string][][2]int `json:"towns,omitempty"`
	// States are the states named by one word after an address's
	// postcode, with their postcode ranges: a word after a postcode a
	// letter or two off its state's name is that name.
	States map[string][][2]int `json:"states,omitempty"`
	// AfterTown are what may follow a town's name in an address besides a
	// mark: a state, the country ("SELANGOR", "W.P", "MALAYSIA").
	AfterTown []string `json:"after_town,omitempty"`
	// Postcode is the shape of the country's postcode, A a letter, 9 a
	// digit, a space between its groups ("A9A 9A9", "9999 AA"): a code
	// read with a letter for a digit of like shape, or a digit for a
	// letter, is mended.
	Postcode string `json:"postcode,omitempty"`
}

// checkPlaces says what is wrong with a pack's place words, if anything.
func checkPlaces(pl *Places) error {
	if pl == nil {
		return nil
	}
	lists := [][]string{pl.Words, pl.Streets, pl.Keep}
	for _, p := range pl.Phrases {
		lists = append(lists, p[:])
	}
	for abbr, misread := range pl.Abbreviations {
		lists = append(lists, []string{abbr})
		for _, m := range misread {
			if m == "" || strings.ContainsFunc(m, unicode.IsSpace) {
				return fmt.Errorf("abbreviation %s: misreading %q is not one word", abbr, m)
			}
		}
	}
	if strings.Trim(pl.Postcode, "A9 ") != "" {
		return fmt.Errorf("postcode shape %q: A for a letter, 9 for a digit, spaces between groups", pl.Postcode)
	}
	for _, ranges := range []map[string][][2]int{pl.Towns, pl.States} {
		for name, rs := range ranges {
			for _, r := range rs {
				if r[0] > r[1] || r[0] < 0 {
					return fmt.Errorf("%s: postcode range %d–%d", name, r[0], r[1])
				}
			}
		}
	}
	for _, l := range lists {
		for _, w := range l {
			if w == "" || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsUpper(r) }) >= 0 {
				return fmt.Errorf("place word %q: capital letters only", w)
			}
		}
	}
	return nil
}

// phrase is a run of folded words and the canonical words it stands for.
type phrase struct {
	words []string
	canon []string
}

//go:embed data
var embedded embed.FS

var (
	mu        sync.RWMutex
	countries = map[string]*Pack{}
	languages = map[string]*Language{}
	// everywhere caches LabelWordsEverywhere; Add empties it.
	everywhere = map[string][][]string{}
	// englishDates are English's OtherDates, for a page of no pack.
	englishDates [][]string
	// englishNames are English's NameWords, which shop signs print the
	// world over.
	englishNames map[string]bool
	// oneWordLabels are the labels of every language that are one word
	// ("HT", "CB", "MWST"), folded; Add fills it.
	oneWordLabels = map[string]bool{}
	// oneWordForms are the legal forms of every country that are one word
	// ("AY", "AG", "GMBH"), folded; Add fills it.
	oneWordForms = map[string]bool{}
)

func init() {
	if err := Load(embedded, "data"); err != nil {
		panic("packs: the built-in packs do not load: " + err.Error())
	}
}

// Load reads languages/*.json and countries/*.json under dir of fsys,
// checks each and adds them. A country may use a language loaded before
// or in the same call.
func Load(fsys fs.FS, dir string) error {
	langFiles, _ := fs.Glob(fsys, path.Join(dir, "languages", "*.json"))
	var langs []*Language
	for _, f := range langFiles {
		var l Language
		if err := readJSON(fsys, f, &l); err != nil {
			return err
		}
		langs = append(langs, &l)
	}
	countryFiles, _ := fs.Glob(fsys, path.Join(dir, "countries", "*.json"))
	var packs []*Pack
	for _, f := range countryFiles {
		var p Pack
		if err := readJSON(fsys, f, &p); err != nil {
			return err
		}
		packs = append(packs, &p)
	}
	return Add(langs, packs)
}

func readJSON(fsys fs.FS, name string, v any) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("pack file %s: %w", name, err)
	}
	return nil
}

// canonicalLabels are the labels the reading rules understand.
var canonicalLabels = map[string]bool{
	"TOTAL": true, "TOTAL DUE": true, "SUBTOTAL": true, "CASH": true, "CARD": true, "CHANGE": true,
	"TIP": true, "SERVICE CHARGE": true, "DISCOUNT": true, "ROUNDING": true, "TAX": true, "NET": true,
	"GROSS": true, "AMOUNT": true, "DATE": true, "INVOICE": true, "RECEIPT": true,
	"QTY": true, "DESCRIPTION": true, "PRICE": true, // an item table's column headings
}

// PrintsALabel says whether a page's lines print a label the rules know,
// in English or any loaded language, of three letters or more ("TOTAL",
// "SUMME", "CASH", "YHTEENSÄ", "ОБЩА СУМА"): a page in a script its reader
// has no letters for shows none ("CYMA", "PECTO" for СУМА, РЕСТО).
func PrintsALabel(lines []string) bool {
	var phrases [][]string
	for label := range canonicalLabels {
		phrases = append(phrases, strings.Fields(label))
		phrases = append(phrases, LabelWordsEverywhere(label)...)
	}
	for _, l := range lines {
		words := Words(l)
		for i := range words {
			for _, ph := range phrases {
				if len(strings.Join(ph, "")) >= 3 && hasPrefix(words[i:], ph) {
					return true
				}
			}
		}
	}
	return false
}

// InvoiceLabelNames are the invoice labels the invoice reader understands.
var InvoiceLabelNames = []string{
	"SELLER", "BUYER", "INVOICE NUMBER", "ISSUE DATE", "DUE DATE", "DELIVERY DATE",
	"NET TOTAL", "TAX", "GROSS TOTAL", "PAID", "AMOUNT DUE", "CREDIT NOTE", "CARRIED FORWARD", "CURRENCY", "TAX ID", "SALUTATION", "PAYMENT TERMS", "DUE BY",
}

// Add checks languages and country packs and adds them, replacing any of
// the same code. Nothing is added when one of them is wrong.
func Add(langs []*Language, packs []*Pack) error {
	mu.Lock()
	defer mu.Unlock()
	known := map[string]*Language{}
	for k, v := range languages {
		known[k] = v
	}
	for _, l := range langs {
		if err := checkLanguage(l); err != nil {
			return err
		}
		known[l.Code] = l
	}
	for _, p := range packs {
		if err := compile(p, known); err != nil {
			return err
		}
	}
	for _, l := range langs {
		languages[l.Code] = l
	}
	everywhere = map[string][][]string{}
	if en, ok := languages["en"]; ok {
		englishDates = phrases(en.OtherDates)
		englishNames = map[string]bool{}
		for _, w := range en.NameWords {
			englishNames[Fold(w)] = true
		}
	}
	oneWordLabels = map[string]bool{}
	for _, l := range languages {
		for _, ws := range l.Labels {
			for _, w := range ws {
				if f := Words(w); len(f) == 1 {
					oneWordLabels[f[0]] = true
				}
			}
		}
	}
	for _, p := range packs {
		countries[p.Country] = p
	}
	// A language replaced under packs already loaded: compile them again.
	oneWordForms = map[string]bool{}
	for _, p := range countries {
		_ = compile(p, languages)
		for _, f := range p.LegalForms {
			if w := Words(f); len(w) == 1 {
				oneWordForms[w[0]] = true
			}
		}
	}
	return nil
}

func checkLanguage(l *Language) error {
	if len(l.Code) != 2 || strings.ToLower(l.Code) != l.Code {
		return fmt.Errorf("language pack %q: the code must be two lower-case letters (ISO 639-1)", l.Code)
	}
	for label, words := range l.Labels {
		if !canonicalLabels[label] {
			return fmt.Errorf("language pack %s: %q is no label the reading rules know", l.Code, label)
		}
		for _, w := range words {
			if len(Words(w)) == 0 {
				return fmt.Errorf("language pack %s: an empty word for %s", l.Code, label)
			}
		}
	}
	for label, words := range l.InvoiceLabels {
		if !slices.Contains(InvoiceLabelNames, label) {
			return fmt.Errorf("language pack %s: %q is no invoice label the reader knows (%s)", l.Code, label, strings.Join(InvoiceLabelNames, ", "))
		}
		for _, w := range words {
			if len(Words(w)) == 0 {
				return fmt.Errorf("language pack %s: an empty word for the invoice label %s", l.Code, label)
			}
		}
	}
	for m, n := range l.Months {
		if n < 1 || n > 12 || len(Words(m)) != 1 {
			return fmt.Errorf("language pack %s: month %q → %d", l.Code, m, n)
		}
	}
	for _, r := range l.Accents {
		if !unicode.IsLower(r) || Fold(string(r)) == string(unicode.ToUpper(r)) {
			return fmt.Errorf("language pack %s: accent %q: small letters with an accent or umlaut", l.Code, r)
		}
	}
	for letter, read := range l.MisreadLetters {
		if utf8.RuneCountInString(letter) != 1 || read == "" || strings.Contains(read, letter) {
			return fmt.Errorf("language pack %s: misread letter %q read as %q: one letter, read as others", l.Code, letter, read)
		}
	}
	pairs := []rune(l.Lookalikes)
	if len(pairs)%2 != 0 || len(pairs) > 0 && l.Script == "" {
		return fmt.Errorf("language pack %s: lookalikes must pair each Latin letter with one of the language's script", l.Code)
	}
	l.lookalike = map[rune]rune{}
	for i := 0; i < len(pairs); i += 2 {
		if !unicode.Is(unicode.Latin, pairs[i]) || !unicode.IsLetter(pairs[i+1]) || unicode.Is(unicode.Latin, pairs[i+1]) {
			return fmt.Errorf("language pack %s: lookalike %q for %q: a Latin letter, then the script's", l.Code, pairs[i+1], pairs[i])
		}
		l.lookalike[pairs[i]] = pairs[i+1]
	}
	l.known = knownWords(l)
	return nil
}

// knownWords are the words a language's receipts print, as its pack
// lists them (labels, evidence, months, trade and till words, street
// words), folded.
func knownWords(l *Language) map[string]bool {
	known := map[string]bool{}
	add := func(ss ...string) {
		for _, s := range ss {
			for _, w := range Words(s) {
				known[w] = true
			}
		}
	}
	for _, ws := range l.Labels {
		add(ws...)
	}
	for _, ws := range l.InvoiceLabels {
		add(ws...)
	}
	for m := range l.Months {
		add(m)
	}
	add(l.Evidence...)
	add(l.NameWords...)
	add(l.SloganOpeners...)
	add(l.NotNames...)
	add(l.StreetWords...)
	add(l.OtherDates...)
	return known
}

// ScriptOfTesseract is the script (ISO 15924) of the language whose
// trained data Tesseract names code ("bul": "Cyrl"); empty for Latin.
func ScriptOfTesseract(code string) string {
	mu.RLock()
	defer mu.RUnlock()
	for _, l := range languages {
		if l.Tesseract == code && l.Script != "" {
			return l.Script
		}
	}
	return ""
}

// FromLookalikes writes a word read in Latin letters in script instead,
// where each of its Latin letters is one of a language's lookalikes and
// the word so written is one the language knows ("PECTO:" is "РЕСТО:"),
// or the word mixes them with the script's own letters, which no word
// does ("OБЩA" is ОБЩА); ok is false otherwise, and for a word wholly in
// the script. Marks around the word are kept.
func FromLookalikes(script, word string) (string, bool) {
	core := strings.TrimFunc(word, func(r rune) bool { return !unicode.IsLetter(r) })
	table := scriptTables[script]
	if len([]rune(core)) < 2 || table == nil {
		return "", false
	}
	mu.RLock()
	defer mu.RUnlock()
	for _, l := range languages {
		if l.Script != script || len(l.lookalike) == 0 {
			continue
		}
		var b strings.Builder
		latin, own := 0, 0
		for _, r := range core {
			switch to, ok := l.lookalike[r]; {
			case ok:
				latin++
				b.WriteRune(to)
			case unicode.Is(table, r):
				own++
				b.WriteRune(r)
			default:
				latin, own = 0, 0
			}
			if latin+own == 0 {
				break
			}
		}
		if latin > 0 && (own > 0 || l.known[Fold(b.String())]) {
			i := strings.IndexFunc(word, unicode.IsLetter) // where core starts
			return word[:i] + b.String() + word[i+len(core):], true
		}
	}
	return "", false
}

// CurrencyChange is a country's change to another currency on a day, at a
// fixed rate: shops print both for a while around it ("dual display").
type CurrencyChange struct {
	From     string `json:"from"`     // the first day, YYYY-MM-DD
	Currency string `json:"currency"` // ISO 4217
	// Rate is one unit of Currency in the currency before it, as fixed
	// by law ("1.95583" lev to the euro).
	Rate string `json:"rate"`

	from time.Time
}

// CurrencyOn is the country's currency on day d.
func (p *Pack) CurrencyOn(d time.Time) string {
	cur := p.Currency
	for _, c := range p.CurrencyChanges {
		if !d.Before(c.from) {
			cur = c.Currency
		}
	}
	return cur
}

// Currencies are every currency the pack's country has paid in, the
// first first.
func (p *Pack) Currencies() []string {
	out := []string{p.Currency}
	for _, c := range p.CurrencyChanges {
		out = append(out, c.Currency)
	}
	return out
}

// CurrencyBefore is the currency in force before change i.
func (p *Pack) CurrencyBefore(i int) string {
	if i == 0 {
		return p.Currency
	}
	return p.CurrencyChanges[i-1].Currency
}

func checkCurrencyChanges(p *Pack) error {
	var last time.Time
	for i := range p.CurrencyChanges {
		c := &p.CurrencyChanges[i]
		d, err := time.Parse(time.DateOnly, c.From)
		switch {
		case err != nil:
			return fmt.Errorf("currency change %d: the day %q is no YYYY-MM-DD", i+1, c.From)
		case !d.After(last):
			return fmt.Errorf("currency change %d: %s is not after the change before it", i+1, c.From)
		case len(c.Currency) != 3 || c.Currency == p.CurrencyBefore(i):
			return fmt.Errorf("currency change %d: currency %q is no ISO 4217 code, or no change", i+1, c.Currency)
		}
		if r, err := strconv.ParseFloat(c.Rate, 64); err != nil || r <= 0 {
			return fmt.Errorf("currency change %d: rate %q is no positive number", i+1, c.Rate)
		}
		c.from, last = d, d
	}
	return nil
}

// scriptTables are the Unicode tables of the scripts (ISO 15924) a
// language pack may be written in.
var scriptTables = map[string]*unicode.RangeTable{"Cyrl": unicode.Cyrillic, "Grek": unicode.Greek}

var validOrders = map[string]bool{"DMY": true, "MDY": true, "YMD": true}

func compile(p *Pack, langs map[string]*Language) error {
	name := p.Country
	switch {
	case len(p.Country) != 2 || strings.ToUpper(p.Country) != p.Country:
		return fmt.Errorf("country pack %q: the code must be two capital letters", p.Country)
	case len(p.Currency) != 3:
		return fmt.Errorf("country pack %s: currency %q is no ISO 4217 code", name, p.Currency)
	case !validOrders[p.DateOrder]:
		return fmt.Errorf("country pack %s: date order %q (DMY, MDY or YMD)", name, p.DateOrder)
	case p.Jurisdiction == "":
		return fmt.Errorf("country pack %s: no jurisdiction (the tax rules a library follows: AU, NZ, UK, EU, US, MY or other)", name)
	case len(p.Languages) == 0:
		return fmt.Errorf("country pack %s: no language", name)
	}
	if err := checkPlaces(p.Places); err != nil {
		return fmt.Errorf("country pack %s: %w", name, err)
	}
	if err := checkCurrencyChanges(p); err != nil {
		return fmt.Errorf("country pack %s: %w", name, err)
	}
	p.taxID, p.taxPrefix, p.taxLetters = nil, "", ""
	if p.TaxID != "" {
		re, err := regexp.Compile(`^(?:` + p.TaxID + `)$`)
		if err != nil {
			return fmt.Errorf("country pack %s: tax ID pattern: %w", name, err)
		}
		p.taxID = re
		if lit, _ := re.LiteralPrefix(); len(lit) >= 2 && strings.ToUpper(lit[:2]) == lit[:2] && unicode.IsLetter(rune(lit[0])) && unicode.IsLetter(rune(lit[1])) {
			p.taxPrefix = lit[:2]
			p.taxLetters = lit[:strings.IndexFunc(lit+"0", func(r rune) bool { return !unicode.IsUpper(r) })]
		}
	}
	p.langs, p.labels, p.langWords, p.addresses, p.otherDates = nil, nil, nil, nil, nil
	p.nameWords, p.notNames, p.streetWords, p.sloganOpen = map[string]bool{}, map[string]bool{}, map[string]bool{}, nil
	p.nameLinks, p.tradingAs, p.receiptNo = map[string]bool{}, nil, nil
	for _, a := range p.AddressPatterns {
		re, err := regexp.Compile(a)
		if err != nil {
			return fmt.Errorf("country pack %s: address pattern: %w", name, err)
		}
		p.addresses = append(p.addresses, re)
	}
	p.months, p.dateLinks = map[string]int{}, map[string]bool{}
	for _, code := range p.Languages {
		l, ok := langs[code]
		if !ok {
			return fmt.Errorf("country pack %s: language %q has no pack", name, code)
		}
		p.langs = append(p.langs, l)
		var words [][]string
		for canon, ws := range l.Labels {
			for _, w := range ws {
				p.labels = append(p.labels, phrase{Words(w), strings.Fields(canon)})
				words = append(words, Words(w))
			}
		}
		for _, w := range l.Evidence {
			words = append(words, Words(w))
		}
		p.langWords = append(p.langWords, words)
		for m, n := range l.Months {
			p.months[Fold(m)] = n
		}
		for _, w := range l.DateLinks {
			p.dateLinks[Fold(w)] = true
		}
		for _, w := range l.NameWords {
			p.nameWords[Fold(w)] = true
		}
		for _, w := range l.NotNames {
			p.notNames[strings.Join(Words(w), " ")] = true
		}
		for _, w := range l.SloganOpeners {
			p.sloganOpen = append(p.sloganOpen, Fold(w))
		}
		for _, w := range l.NameLinks {
			p.nameLinks[Fold(w)] = true
		}
		for _, w := range l.StreetWords {
			p.streetWords[Fold(w)] = true
		}
		for _, w := range l.StreetEndings {
			p.streetEnds = append(p.streetEnds, Fold(w))
		}
		p.otherDates = append(p.otherDates, phrases(l.OtherDates)...)
		for _, ph := range l.TradingAs {
			p.tradingAs = append(p.tradingAs, tradingAsPattern(ph))
		}
		for _, ph := range l.Labels["RECEIPT"] {
			p.receiptNo = append(p.receiptNo, receiptNumberPattern(ph))
		}
	}
	// Longest first, then in a fixed order: a phrase two labels share must
	// translate the same way on every run.
	sort.SliceStable(p.labels, func(i, j int) bool {
		a, b := p.labels[i], p.labels[j]
		if len(a.words) != len(b.words) {
			return len(a.words) > len(b.words)
		}
		if x, y := strings.Join(a.words, " "), strings.Join(b.words, " "); x != y {
			return x < y
		}
		return strings.Join(a.canon, " ") < strings.Join(b.canon, " ")
	})
	p.rates = nil
	for _, r := range p.TaxRates {
		re := regexp.MustCompile(`a^`) // 0% tells no country
		switch {
		case strings.Contains(r, "."): // "5.5": also "5,50 %"
			re = regexp.MustCompile(`(^|[^\d.])` + regexp.QuoteMeta(r) + `0*\s?%`)
		case r != "0":
			re = regexp.MustCompile(`(^|[^\d.])` + regexp.QuoteMeta(r) + `(\.0+)?\s?%`)
		}
		p.rates = append(p.rates, re)
	}
	p.legal = phrases(p.LegalForms)
	p.taxWords = phrases(p.TaxWords)
	p.taxLabelEnds = nil
	for _, w := range p.TaxWords {
		p.taxLabelEnds = append(p.taxLabelEnds, Fold(w))
	}
	for _, l := range p.langs {
		for _, label := range l.InvoiceLabels["TAX ID"] {
			if ws := Words(label); len(ws) > 0 && !slices.Contains(p.taxLabelEnds, ws[len(ws)-1]) {
				p.taxLabelEnds = append(p.taxLabelEnds, ws[len(ws)-1])
			}
		}
	}
	p.evidence = phrases(p.Evidence)
	p.webAddress = nil
	if len(p.WebDomains) > 0 {
		var tlds []string
		for _, d := range p.WebDomains {
			if !reDomainLabel.MatchString(d) {
				return fmt.Errorf("country pack %s: web domain %q: letters, as in a web address (de, uk)", name, d)
			}
			tlds = append(tlds, regexp.QuoteMeta(d))
		}
		tld := `\.(?:` + strings.Join(tlds, "|") + `)`
		// Shaped as an address, not a word and an abbreviation: after
		// www., @ or ://, or a name of three or more with a path after it
		// ("rossmann.de/", not "km.de/").
		p.webAddress = regexp.MustCompile(`(?i)(?:www\.|@|://)[a-z0-9][a-z0-9.-]*` + tld + `\b|\b[a-z][a-z0-9-]{2,}` + tld + `/`)
	}
	return nil
}

// reDomainLabel is a country's top-level domain as a pack writes it.
var reDomainLabel = regexp.MustCompile(`^[a-z]{2,3}$`)

func phrases(ss []string) [][]string {
	var out [][]string
	for _, s := range ss {
		if w := Words(s); len(w) > 0 {
			out = append(out, w)
		}
	}
	return out
}

// Get returns the pack of a country code ("DE", "UK"; "GB" is UK).
func Get(code string) (*Pack, bool) {
	code = strings.ToUpper(strings.TrimSpace(code))
	if code == "GB" {
		code = "UK"
	}
	mu.RLock()
	defer mu.RUnlock()
	p, ok := countries[code]
	return p, ok
}

// All lists the country packs by code.
func All() []*Pack {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]*Pack, 0, len(countries))
	for _, p := range countries {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Country < out[j].Country })
	return out
}

// Fold is text as the packs compare it: upper case, accents and umlauts
// taken off (RÜCKGELD is RUCKGELD; OCR drops them as often as it reads
// them), ß as SS, ł as L.
func Fold(s string) string {
	s = foldLetters.Replace(norm.NFD.String(s))
	var b strings.Builder
	for _, r := range s {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	return b.String()
}

// foldLetters are the letters that NFD does not take apart into a letter
// and its accent, as Fold writes them: ß as SS, the Polish ł as L, the
// Danish and Norwegian ø as O and æ as AE.
var foldLetters = strings.NewReplacer("ß", "SS", "ł", "L", "Ł", "L", "ø", "o", "Ø", "O", "æ", "ae", "Æ", "AE")

// Words is s folded and cut into words at every mark that is not a letter
// or digit ("EC-Karte" is EC KARTE, "S.p.A." is S P A).
func Words(s string) []string {
	return strings.FieldsFunc(Fold(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// Translate rewrites a line's keyword words (folded, upper case) so that
// the pack's labels read as the canonical English labels the rules know:
// for the German pack "ZU ZAHLEN EUR" becomes "TOTAL DUE EUR" and
// "RUCKGELD" CHANGE. Words that are no label are kept.
func (p *Pack) Translate(words []string) []string {
	if p == nil || len(p.labels) == 0 {
		return words
	}
	out := make([]string, 0, len(words))
	for i := 0; i < len(words); {
		matched := false
		for _, ph := range p.labels {
			if hasPrefix(words[i:], ph.words) {
				out = append(out, ph.canon...)
				i += len(ph.words)
				matched = true
				break
			}
		}
		if !matched {
			out = append(out, words[i])
			i++
		}
	}
	return out
}

// SpacedLabel gives the words of the pack's label, or of the canonical
// label, whose letters run together are letters: a label printed letter
// by letter ("S U M M E", "Z U  Z A H L E N") read as single letters.
func (p *Pack) SpacedLabel(letters string) ([]string, bool) {
	if p == nil || letters == "" {
		return nil, false
	}
	for _, ph := range p.labels {
		if strings.Join(ph.words, "") == letters {
			return ph.words, true
		}
		if strings.Join(ph.canon, "") == letters {
			return ph.canon, true
		}
	}
	return nil, false
}

func hasPrefix(words, ph []string) bool {
	if len(ph) > len(words) {
		return false
	}
	for i, w := range ph {
		if words[i] != w {
			return false
		}
	}
	return true
}

// Month returns the number of a month name or abbreviation in the pack's
// languages (folded: "MÄRZ" and "MARZ" are 3).
func (p *Pack) Month(word string) (int, bool) {
	if p == nil {
		return 0, false
	}
	n, ok := p.months[Fold(word)]
	return n, ok
}

// Months lists the pack's month words, folded.
func (p *Pack) Months() map[string]int {
	if p == nil {
		return nil
	}
	return p.months
}

// IsDateLink says whether a word (any case) is one a written date of the
// pack's languages puts between its parts ("de").
func (p *Pack) IsDateLink(word string) bool {
	return p != nil && p.dateLinks[Fold(word)]
}

// LabelWords lists the words of the pack's languages for one canonical
// label ("DATE": DATUM, RECHNUNGSDATUM…), folded.
func (p *Pack) LabelWords(label string) [][]string {
	if p == nil {
		return nil
	}
	var out [][]string
	for _, ph := range p.labels {
		if strings.Join(ph.canon, " ") == label {
			out = append(out, ph.words)
		}
	}
	return out
}

// IsLegalForm says whether words (folded) end in one of the pack's legal
// forms, and how many words that form takes.
func (p *Pack) IsLegalForm(words []string) (int, bool) {
	if p == nil {
		return 0, false
	}
	best := 0
	for _, f := range p.legal {
		if len(f) <= len(words) && hasPrefix(words[len(words)-len(f):], f) && len(f) > best {
			best = len(f)
		}
	}
	return best, best > 0
}

// LabelWordsEverywhere lists the words for one canonical label in every
// language loaded ("DATE": DATE, DATUM, DATA, FECHA, TARIKH…), folded.
func LabelWordsEverywhere(label string) [][]string {
	mu.RLock()
	cached, ok := everywhere[label]
	mu.RUnlock()
	if ok {
		return cached
	}
	mu.Lock()
	defer mu.Unlock()
	var out [][]string
	seen := map[string]bool{}
	for _, l := range languages {
		for _, w := range l.Labels[label] {
			ws := Words(w)
			if k := strings.Join(ws, " "); !seen[k] {
				seen[k] = true
				out = append(out, ws)
			}
		}
	}
	everywhere[label] = out
	return out
}

// InvoicePhrase is one way a language prints an invoice label, folded
// into words ("N° de facture": N DE FACTURE).
type InvoicePhrase struct {
	Label string
	Words []string
}

// InvoicePhrases lists every language's invoice labels, longest first, so
// that a reader matching a line's start takes "TOTAL HT" (the net) before
// "TOTAL" (the gross).
func InvoicePhrases() []InvoicePhrase {
	mu.RLock()
	defer mu.RUnlock()
	var out []InvoicePhrase
	seen := map[string]bool{}
	for _, code := range slices.Sorted(maps.Keys(languages)) {
		for _, label := range InvoiceLabelNames {
			for _, w := range languages[code].InvoiceLabels[label] {
				ws := Words(w)
				if k := label + "|" + strings.Join(ws, " "); !seen[k] {
					seen[k] = true
					out = append(out, InvoicePhrase{Label: label, Words: ws})
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b InvoicePhrase) int { return len(b.Words) - len(a.Words) })
	return out
}

// AllMonths maps every language's month words, folded, to their number.
func AllMonths() map[string]int {
	mu.RLock()
	defer mu.RUnlock()
	out := map[string]int{}
	for _, l := range languages {
		for m, n := range l.Months {
			out[Fold(m)] = n
		}
	}
	return out
}

// AllDatelineWords are every loaded language's DatelineWords, in small
// letters as written, sorted.
func AllDatelineWords() []string {
	mu.RLock()
	defer mu.RUnlock()
	seen := map[string]bool{}
	for _, l := range languages {
		for _, w := range l.DatelineWords {
			seen[strings.ToLower(w)] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// ScriptTesseractLanguages are the trained data of every loaded language
// written in a script (ISO 15924, "Cyrl"), sorted, and English after:
// what reads a page in that script. nil where no language is.
func ScriptTesseractLanguages(script string) []string {
	mu.RLock()
	defer mu.RUnlock()
	var out []string
	for _, l := range languages {
		if l.Script == script && l.Tesseract != "" && !slices.Contains(out, l.Tesseract) {
			out = append(out, l.Tesseract)
		}
	}
	if len(out) == 0 {
		return nil
	}
	sort.Strings(out)
	return append(out, "eng")
}

// GetLanguage returns the language pack of an ISO 639-1 code ("de"), for
// tools that print a language's words (the synthetic receipts of
// internal/synth); its Labels are folded, as the reading rules compare them.
func GetLanguage(code string) (*Language, bool) {
	mu.RLock()
	defer mu.RUnlock()
	l, ok := languages[strings.ToLower(strings.TrimSpace(code))]
	return l, ok
}

// IsAddressLine says whether a line (any case) is a postal address line as
// the country prints one ("DURHAM, NC 27713", "50667 KÖLN").
func (p *Pack) IsAddressLine(s string) bool {
	if p == nil {
		return false
	}
	u := strings.TrimSpace(Fold(s))
	for _, re := range p.addresses {
		if re.MatchString(u) {
			return true
		}
	}
	return false
}

// IsNameLink says whether a folded word, opening a heading's next line,
// carries the name on to it (NameLinks: DA, DE, VON, ZUM).
func (p *Pack) IsNameLink(w string) bool {
	return p != nil && p.nameLinks[Fold(w)]
}

// DottedTimes says whether the pack's tills print a time of day with a
// dot after the date (TimeWithDot).
func (p *Pack) DottedTimes() bool { return p != nil && p.TimeWithDot }

// IsNameWord says whether a folded word ends or carries a business's name
// in the pack's languages (RESTAURANT, GRILL, BACKEREI).
func (p *Pack) IsNameWord(w string) bool {
	return p != nil && p.nameWords[Fold(w)]
}

// KnownWords is the set, folded, of the words the pack's languages'
// receipts print (labels, evidence, months, trade and till words, street
// words): words a reading is not mended away from. The caller may keep it.
func (p *Pack) KnownWords() map[string]bool {
	known := map[string]bool{}
	if p != nil {
		for _, l := range p.langs {
			maps.Copy(known, l.known)
		}
	}
	return known
}

// NationalTaxID is a tax or VAT number printed in its country's own form,
// without the two letters of its international form ("B47786405" for a
// Spanish NIF, "04603586779" for an Italian partita IVA, "U12345678" in
// Austria), in the international form the pack's tax ID pattern gives
// ("ESB47786405"); ok is false when s (normalised: capitals, no spaces or
// dots) is no such number or is in the international form already.
func (p *Pack) NationalTaxID(s string) (string, bool) {
	if p == nil || p.taxID == nil || p.taxPrefix == "" || p.taxID.MatchString(s) {
		return "", false
	}
	id := p.taxPrefix + s + p.NationalTaxIDSuffix
	if !p.taxID.MatchString(id) && p.taxLetters != p.taxPrefix {
		id = p.taxLetters + s + p.NationalTaxIDSuffix // Switzerland's 123.456.789 is CHE123456789
	}
	return id, p.taxID.MatchString(id)
}

// StreetEndings are the pack's languages' street endings, folded
// ("STRASSE", "WEG").
func (p *Pack) StreetEndings() []string {
	if p == nil {
		return nil
	}
	return p.streetEnds
}

// endsInStreetWord says whether a folded word is a street's name ending in
// one of the pack's street endings, with three letters or more before it.
func (p *Pack) endsInStreetWord(w string) bool {
	for _, e := range p.streetEnds {
		if len(w) >= len(e)+3 && strings.HasSuffix(w, e) {
			return true
		}
	}
	return false
}

// IsSignWord says whether a word is one a business's name is made of in
// the pack's languages or in English, which shop signs print the world
// over ("BURGER JOINT" in Paris); without a pack, in English.
func (p *Pack) IsSignWord(w string) bool {
	if p.IsNameWord(w) {
		return true
	}
	mu.RLock()
	defer mu.RUnlock()
	return englishNames[Fold(w)]
}

// LabelsAnotherDate says whether a line's text labels a date other than
// the document's own (OtherDates) in the pack's languages; without a
// pack, in English, the language the rules are written in.
func (p *Pack) LabelsAnotherDate(text string) bool {
	phs := englishOtherDates()
	if p != nil {
		phs = p.otherDates
	}
	words := Words(text)
	for i := range words {
		for _, ph := range phs {
			if hasPrefix(words[i:], ph) {
				return true
			}
		}
	}
	return false
}

// TradingAs is the name a line says the business trades under, after
// one of the pack's languages' TradingAs words ("2739115 Ontario Inc. o/a
// Toadstool Toys" gives "Toadstool Toys"); "" when it says none.
func (p *Pack) TradingAs(text string) string {
	if p == nil {
		return ""
	}
	for _, re := range p.tradingAs {
		if m := re.FindStringSubmatch(text); m != nil {
			name := m[1]
			if end := reTradingNameEnd.FindStringSubmatchIndex(name); end != nil {
				if end[2] >= 0 {
					end[0] = end[2] // the full stop after the word
				}
				name = name[:end[0]]
			}
			if name = strings.Trim(name, " :-–,."); CountLetters(name) >= 3 {
				return name
			}
		}
	}
	return ""
}

// reTradingNameEnd ends a trading name where the line goes on with
// something else: a separator ("Tidewater Hosting · ABN 59 …"), a comma, a
// bracket, or a sentence's full stop after a word ("Shannonlink. Registered
// in Ireland No. 612784"), not an initial's ("J. Smith Plumbing").
var reTradingNameEnd = regexp.MustCompile(`\s[·|•–—-]\s|[,;(]|\pL{3}(\.)\s+\p{Lu}`)

// ReceiptNumber is the number a line prints after one of the pack's
// languages' words for a receipt ("Kvittering 4-118730", "Bon 40517",
// "Ticket n° VT25-01934"); "" where it prints none with a digit.
func (p *Pack) ReceiptNumber(text string) string {
	if p == nil {
		return ""
	}
	for _, re := range p.receiptNo {
		if m := re.FindStringSubmatch(text); m != nil && strings.ContainsAny(m[1], "0123456789") {
			return m[1]
		}
	}
	return ""
}

// receiptNumberPattern matches a receipt word in any case, a word of its
// own ("Leergut-Bon Nr." is a deposit slip's), then a number label ("nr.",
// "n°", "#") or none, and captures the number.
func receiptNumberPattern(phrase string) *regexp.Regexp {
	words := strings.Fields(phrase)
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	return regexp.MustCompile(`(?i)(?:^|\s)` + strings.Join(words, `\s+`) +
		`[\s.\-]*(?:NO|NR|NUMMER|NUMBER|N°|Nº|#)?\.?\s*[:#]?\s*([A-Z0-9][A-Z0-9\-/]{3,})`)
}

// tradingAsPattern matches a TradingAs phrase in any case, its words apart
// by spaces and its letters joined by slashes or dots as printed, a space
// beside them or not ("T/A", "t / a", "H.O.D.N."), and captures the rest
// of the line.
func tradingAsPattern(phrase string) *regexp.Regexp {
	var b strings.Builder
	for _, r := range phrase {
		switch r {
		case ' ':
			b.WriteString(`\s+`)
		case '/', '.':
			b.WriteString(`\s?` + regexp.QuoteMeta(string(r)) + `\s?`)
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	return regexp.MustCompile(`(?i)(?:^|[^\pL])` + b.String() + `(?:\s|:|$)\s*(\S.*)$`)
}

func englishOtherDates() [][]string {
	mu.RLock()
	defer mu.RUnlock()
	return englishDates
}

// IsLabelWord says whether a word is by itself a label in one of the
// languages ("HT", a French net; "CB", a card): short as it is, it is
// text, not a speck at a line's edge.
func IsLabelWord(w string) bool {
	mu.RLock()
	defer mu.RUnlock()
	return oneWordLabels[Fold(strings.Trim(w, ".:"))]
}

// IsElision says whether a word is an elided word of one of the pack's
// languages ("d'", "DELL’"), which joins the word after it.
func (p *Pack) IsElision(w string) bool {
	if p == nil {
		return false
	}
	f := Fold(strings.ReplaceAll(w, "’", "'"))
	for _, l := range p.langs {
		for _, e := range l.Elisions {
			if Fold(e) == f {
				return true
			}
		}
	}
	return false
}

// IsLegalFormWord says whether a word is by itself a legal form in one of
// the countries ("AY", a Finnish partnership; "AG"): short as it is, it
// ends a name, it is no speck at a line's edge.
func IsLegalFormWord(w string) bool {
	mu.RLock()
	defer mu.RUnlock()
	return oneWordForms[Fold(strings.Trim(w, ".,:"))]
}

// HasStandIn says whether a word holds a letter the default page reader
// reads in place of one of the pack's languages' misread letters ("t" in
// Polish, for ł): a reading of it may have lost that letter.
func (p *Pack) HasStandIn(word string) bool {
	if p == nil {
		return false
	}
	for _, l := range p.langs {
		for _, read := range l.MisreadLetters {
			if strings.ContainsAny(word, read) {
				return true
			}
		}
	}
	return false
}

// RestoresMisread says whether second is first with one or more of the
// letters the page reader read in place of a misread letter of the pack's
// languages given back, and no other change ("Wroctaw", "Wrocław").
func (p *Pack) RestoresMisread(first, second string) bool {
	return p != nil && onlyLettersChanged(first, second, func(i int, read, letter rune) bool {
		// A capital opening the word does not turn into a small letter
		// ("Berlin" is never "ßerlin").
		return p.readsAs(letter, read) && (i > 0 || !unicode.IsUpper(read) || unicode.IsUpper(letter))
	})
}

// onlyLettersChanged says whether second is first, letter for letter,
// with at least one letter changed and each changed one as allowed says
// (the letter at index i read, given back as letter).
func onlyLettersChanged(first, second string, allowed func(i int, read, letter rune) bool) bool {
	a, b := []rune(first), []rune(second)
	if len(a) != len(b) || first == second {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !allowed(i, a[i], b[i]) {
			return false
		}
	}
	return true
}

// MayHaveLostAccents says whether a word, read with no accent, holds a
// letter that one of the pack's languages writes with one ("Distribucion"
// may be Distribución): a reading of it may have lost it.
func (p *Pack) MayHaveLostAccents(word string) bool {
	if p == nil || Fold(word) != strings.ToUpper(word) {
		return false
	}
	up := strings.ToUpper(word)
	for _, l := range p.langs {
		for _, r := range l.Accents {
			if strings.Contains(up, Fold(string(r))) {
				return true
			}
		}
	}
	return false
}

// RestoresAccents says whether second is first with accents of the pack's
// languages put back on letters that had none, and no other change, case
// kept ("Distribucion", "Distribución"; "KORNMUHLE", "KORNMÜHLE").
func (p *Pack) RestoresAccents(first, second string) bool {
	return p != nil && onlyLettersChanged(first, second, func(_ int, read, letter rune) bool {
		base := string(unicode.ToUpper(read))
		return unicode.IsUpper(read) == unicode.IsUpper(letter) && Fold(string(read)) == base &&
			Fold(string(letter)) == base && p.accented(unicode.ToLower(letter))
	})
}

// accented says whether r is one of the pack's languages' accented letters.
func (p *Pack) accented(r rune) bool {
	for _, l := range p.langs {
		if strings.ContainsRune(l.Accents, r) {
			return true
		}
	}
	return false
}

// readsAs says whether letter is a misread letter of the pack's languages
// that the page reader reads as read.
func (p *Pack) readsAs(letter, read rune) bool {
	for _, l := range p.langs {
		if r, ok := l.MisreadLetters[string(letter)]; ok && strings.ContainsRune(r, read) {
			return true
		}
	}
	return false
}

// IsSlogan says whether a line reads as a shop's motto in the pack's
// languages: a slogan opener, then a trade word or a word ending in one
// ("MEIN DROGERIEMARKT", or read as one word "MEINDROGERIEMARKT"), in
// four words at most. A shop may be named so too ("MEIN MARKT", "YOUR CBD
// STORE"): it is a reason to look, not to pass the line over. Read as one
// word, the opener must be three letters or more and the trade word's part
// six or more ("TONBAR", "YOURSTORE" are names).
func (p *Pack) IsSlogan(line string) bool {
	words := Words(line)
	if p == nil || len(words) == 0 || len(words) > 4 {
		return false
	}
	joined := strings.Join(words, "")
	for _, o := range p.sloganOpen {
		if len(joined) <= len(o) || !strings.HasPrefix(joined, o) || len(words) > 1 && words[0] != o {
			continue
		}
		last := words[len(words)-1]
		if len(words) == 1 {
			if last = joined[len(o):]; len(o) < 3 || len(last) < 6 {
				continue
			}
		}
		for w := range p.nameWords {
			if strings.HasSuffix(last, w) {
				return true
			}
		}
	}
	return false
}

// IsTillWord says whether a folded word is one a till prints near the top
// that names no business (SERVER, TABLE, KASSE).
func (p *Pack) IsTillWord(w string) bool {
	return p != nil && p.notNames[Fold(w)]
}

// TesseractLanguages are the trained data a second reader of this
// country's pages loads, its own languages first and English after
// ("deu", "eng"); nil for an English-only country.
func (p *Pack) TesseractLanguages() []string {
	if p == nil {
		return nil
	}
	var out []string
	for _, l := range p.langs {
		if l.Tesseract != "" && l.Tesseract != "eng" && !slices.Contains(out, l.Tesseract) {
			out = append(out, l.Tesseract)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return append(out, "eng")
}

// IsLabelLine says whether words (folded) are nothing but the pack's labels
// ("CARTE BANCAIRE", "MASTERCARD", "SUMME EUR"), or the rules' own English
// ones, which translate to themselves ("QTY DESCRIPTION PRICE AMOUNT"):
// such a line names no business.
func (p *Pack) IsLabelLine(words []string) bool {
	if p == nil || len(words) == 0 {
		return false
	}
	t := p.Translate(words)
	for _, w := range t {
		if !canonicalWords[w] && len(p.CurrencyMarks) > 0 && !slices.Contains(p.CurrencyMarks, w) {
			return false
		}
	}
	return true
}

// canonicalWords are the words of the canonical labels.
var canonicalWords = func() map[string]bool {
	m := map[string]bool{}
	for l := range canonicalLabels {
		for _, w := range strings.Fields(l) {
			m[w] = true
		}
	}
	return m
}()

// IsStreetLine says whether a line is a street address in the pack's
// languages: a number and a street word, or a word ending in one where the
// language compounds them ("8030 Renaissance Parkway", "Hauptstr. 5", "26
// rue Charlot", "Molenweg 49").
func (p *Pack) IsStreetLine(s string) bool {
	if p == nil {
		return false
	}
	words := Words(s)
	number, street := false, false
	for _, w := range words {
		if strings.ContainsAny(w, "0123456789") {
			number = true
		} else if p.streetWords[w] || p.endsInStreetWord(w) {
			street = true
		}
	}
	return number && street
}

// PrintsTaxID says whether id (upper case, no spaces) is a tax ID of the
// pack's scheme, with or without its country letters ("GB773180426" or
// "773180426" for the United Kingdom).
func (p *Pack) PrintsTaxID(id string) bool {
	return p != nil && p.taxID != nil && (p.taxID.MatchString(id) || p.taxPrefix != "" && p.taxID.MatchString(p.taxPrefix+id))
}

// IsTaxIDShape says whether s (upper case, no spaces) has the shape of a
// pack's VAT or tax number, letters where the country puts letters
// (NL123456789B01): such letters are no misread digits.
func IsTaxIDShape(s string) bool {
	mu.RLock()
	defer mu.RUnlock()
	for _, p := range countries {
		if p.taxID != nil && p.taxID.MatchString(s) {
			return true
		}
	}
	return false
}
