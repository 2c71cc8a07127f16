package ocr

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/fields"
	"github.com/shoebox-app/shoebox/inference/ocr/ppocr"
	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// The page readers an OCR engine can read with.
const (
	ReaderPPOCR     = "ppocr"     // PP-OCR alone
	ReaderTesseract = "tesseract" // Tesseract alone
	ReaderBoth      = "both"      // PP-OCR, with Tesseract's reading beside it
)

// PPOCR is the OCR engine that reads pages with PP-OCR (package ppocr) and
// finds the fields with the same rules as Tesseract. With both, a page
// whose total or date PP-OCR missed or is unsure of is also read by
// Tesseract: each field is taken from the reader surer of it, and
// Tesseract's lines count as a second reader's evidence. A page PP-OCR fails on is read
// by Tesseract instead, so nothing is lost. Safe for concurrent use.
type PPOCR struct {
	opt    Options
	reader *ppocr.Reader
	both   bool

	tessMu  sync.Mutex
	tess    *Tesseract // made on first need unless both
	tessErr error
	// byLanguage holds a second reader for each country's languages
	// ("deu+eng"), made when a page of that country first needs one; nil
	// where the language's trained data is not installed.
	byLanguage map[string]*Tesseract
}

// NewPPOCR starts the PP-OCR engine; both also reads every page with
// Tesseract. An error names the missing or damaged part: the caller reads
// with Tesseract instead.
func NewPPOCR(opt Options, popt ppocr.Options, both bool) (*PPOCR, error) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Locale.Country == "" {
		opt.Locale = receipt.DefaultLocale(receipt.CountryOther)
	}
	opt.NoInvertedRetry = true
	r, err := ppocr.New(popt)
	if err != nil {
		return nil, err
	}
	p := &PPOCR{opt: opt, reader: r, both: both}
	if both {
		if _, err := p.tesseract(); err != nil {
			r.Close()
			return nil, err
		}
	}
	return p, nil
}

// PPOCROptions are the reader's settings for a machine: ONNX Runtime's
// threads are cores − 1 (a thread per core ran slower here, as it did for
// llama.cpp), and as many pages run the models at once as those threads
// leave cores for, so that a pool of a page per core never has more model
// threads than cores.
func PPOCROptions(dir string) ppocr.Options {
	cores := runtime.NumCPU()
	threads := max(1, cores-1)
	return ppocr.Options{Dir: dir, Threads: threads, Parallel: max(1, cores/threads)}
}

func (p *PPOCR) tesseract() (*Tesseract, error) {
	p.tessMu.Lock()
	defer p.tessMu.Unlock()
	if p.tess == nil && p.tessErr == nil {
		p.tess, p.tessErr = NewTesseract(p.opt)
	}
	return p.tess, p.tessErr
}

// tesseractFor is the second reader for a page printed in a country
// (a pack's code): Tesseract with the country's languages' trained data
// and English (umlauts, accents, ß, € read as printed), or the English
// reader where the country speaks English or its data is not installed
// (make deps installs Debian's tesseract-ocr-deu, -fra, -nld, -ita,
// -spa, -por, -fin, -swe, -dan, -nor, -pol).
func (p *PPOCR) tesseractFor(country string) *Tesseract {
	pk, _ := packs.Get(country)
	return p.tesseractWith(pk.TesseractLanguages(), false)
}

// tesseractWith is Tesseract with the trained data of langs ("bul",
// "eng"), made on first need, or the English reader where langs is empty
// or its data is not installed. A light one holds one instance, without
// the sparse-text one: for the rare page of another script, where memory
// for a pool would be spent on every run.
func (p *PPOCR) tesseractWith(langs []string, light bool) *Tesseract {
	if len(langs) == 0 {
		return p.tess
	}
	key := strings.Join(langs, "+")
	if light {
		key += " (light)"
	}
	p.tessMu.Lock()
	defer p.tessMu.Unlock()
	if t, ok := p.byLanguage[key]; ok {
		if t == nil {
			return p.tess
		}
		return t
	}
	if p.byLanguage == nil {
		p.byLanguage = map[string]*Tesseract{}
	}
	opt := p.opt
	opt.Languages = langs
	if light {
		opt.Workers, opt.SparseFallback = 1, false
	}
	t, err := NewTesseract(opt)
	if err != nil {
		t = nil // its trained data is missing: read in English
	}
	p.byLanguage[key] = t
	if t == nil {
		return p.tess
	}
	return t
}

// Name is "ocr": the fields come from the OCR rules, whichever reader read
// the page (Result.Engine says which).
func (p *PPOCR) Name() string { return "ocr" }

// Label says which readers read the pages, for people.
func (p *PPOCR) Label() string {
	if p.both {
		return "PP-OCR and Tesseract"
	}
	return "PP-OCR"
}

// Close frees the models and Tesseract.
func (p *PPOCR) Close() error {
	err := p.reader.Close()
	p.tessMu.Lock()
	defer p.tessMu.Unlock()
	for _, t := range p.byLanguage {
		if t != nil {
			err = errors.Join(err, t.Close())
		}
	}
	if p.tess != nil {
		err = errors.Join(err, p.tess.Close())
	}
	return err
}

// Read reads a page's words with PP-OCR, in the page's coordinates.
func (p *PPOCR) Read(ctx context.Context, page inference.Page) ([]inference.Word, inference.Timings, error) {
	words, up, t, err := p.readUpright(ctx, page)
	if up.Moved() {
		b := page.Image.Bounds()
		for i := range words {
			words[i].Box = up.PageBox(words[i].Box, b.Dx(), b.Dy())
		}
	}
	return words, t, err
}

// readUpright reads a page's words with PP-OCR in the coordinates of the
// page set upright as up says.
func (p *PPOCR) readUpright(ctx context.Context, page inference.Page) ([]inference.Word, ppocr.Upright, inference.Timings, error) {
	var t inference.Timings
	words, pt, err := p.reader.Read(ctx, page.Image, page.Index)
	t.Preprocess = pt.Prepare
	t.OCR = pt.Detect + pt.Classify + pt.Recognise
	return words, pt.Upright, t, err
}

// Extract reads one page: a PDF text layer as Tesseract's engine does;
// otherwise PP-OCR's words, grouped into lines, through the rules.
func (p *PPOCR) Extract(ctx context.Context, page inference.Page) (inference.Result, error) {
	start := time.Now()
	if hasText(page) {
		tess, err := p.tesseract()
		if err != nil {
			// A text layer is read by the rules alone: no instance is
			// used, so a build without Tesseract reads it too.
			tess = &Tesseract{opt: p.opt}
		}
		return tess.extract(ctx, page)
	}
	defer trimCHeap() // Tesseract's readings of lines alone reserve nothing
	words, up, t, err := p.readWithin(ctx, page)
	if err != nil {
		if ctx.Err() != nil {
			return inference.Result{}, ctx.Err()
		}
		// PP-OCR failed on this page: Tesseract reads it instead.
		tess, terr := p.tesseract()
		if terr != nil {
			return inference.Result{}, fmt.Errorf("PP-OCR: %w; Tesseract: %w", err, terr)
		}
		res, terr := tess.Extract(ctx, page)
		if terr != nil {
			return res, fmt.Errorf("PP-OCR: %w; Tesseract: %w", err, terr)
		}
		res.Engine = "ocr (PP-OCR failed: " + err.Error() + ")"
		return res, nil
	}
	if !up.Moved() {
		return p.extractRead(ctx, page, words, t, start)
	}
	// The page lay on its side, upside down or at a slant, or its text
	// fills a small part of it: the rules and Tesseract read it as PP-OCR
	// did, and what they found goes back on the page
	// as given, where the review shows it.
	size := page.Image.Bounds().Size()
	page.Image = up.Page(toGray(page.Image))
	res, err := p.extractRead(ctx, page, words, t, start)
	turnBack := func(b *receipt.Box) { *b = up.PageBox(*b, size.X, size.Y) }
	for i := range res.Words {
		turnBack(&res.Words[i].Box)
	}
	receipt.EachBox(&res.Receipt, turnBack)
	if up.Turns != 0 {
		res.Receipt.PageTurns = map[int]int{page.Index: up.Turns}
	}
	return res, err
}

// extractRead finds the fields in PP-OCR's words of a page (upright), with
// Tesseract's second readings where they are doubtful.
func (p *PPOCR) extractRead(ctx context.Context, page inference.Page, words []inference.Word, t inference.Timings, start time.Time) (inference.Result, error) {
	res := inference.Result{Engine: "ppocr", Words: words, Timings: t}
	lines := fields.GroupLines(words)
	r := fields.ExtractFields(lines, p.opt.Locale, p.opt.Now())
	if p.both && maybeCyrillic(words, lines, r) {
		if res, ok := p.readInScript(ctx, page, lines, "Cyrl", unicode.Cyrillic); ok {
			res.Timings.OCR += t.OCR
			return res, nil
		}
	}
	var tess *Tesseract
	var again Rereader // Tesseract on the photo as it is
	m := mending{alternatives: true}
	if p.both {
		tess = p.tesseractFor(r.PrintedIn.Value)
		again = tess.rereaderOn(pageReading{gray: toGray(page.Image), factor: 1}, &res.Timings.Reread)
		if p.opt.RereadNameWords {
			m.doubtful = ppDoubtfulWordIn(r.PrintedIn.Value)
			m.better = func(printed fields.PageSpellings, pk *packs.Pack, first, second inference.Word) bool {
				return tesseractSurerOn(printed, pk, first, second, p.reader.Lacks)
			}
		}
	}
	rules := p.opt.rules(again)
	_, named := rules.mend(ctx, &r, lines, m)
	fields.Assess(&r, lines, p.opt.Locale, p.opt.Now())
	var others []fields.Reading
	// A date read once beside a total already trusted is first read again
	// on its own line, a twentieth of the cost of reading the page again:
	// where that agrees and the supplier's letters are backed, the page
	// needs no second reader. (Where they are not, the page's reading is
	// what backs them more often than the name's line read alone.)
	needPage := unsure(r)
	var dateLookedAt *receipt.Box // the date's box whose line was read alone
	if p.both && onlyTheDateReadOnce(r) {
		if looks := rules.dateLooks(ctx, r, lines); len(looks) > 0 {
			b := *r.Date.Box
			dateLookedAt = &b
			others = append(others, looks...)
			fields.Assess(&r, lines, p.opt.Locale, p.opt.Now(), others...)
			var backed bool
			others, backed = p.supplierBackedAlone(ctx, &r, lines, named, rules, others)
			needPage = unsure(r) || !backed
		}
	}
	pageRead := false
	if p.both && needPage {
		tres, err := tess.Extract(ctx, page)
		if err != nil && ctx.Err() != nil {
			return inference.Result{}, ctx.Err()
		}
		if err == nil {
			pageRead = true
			res.Engine = "ppocr+ocr"
			res.Timings.OCR += tres.Timings.OCR
			res.Timings.Preprocess += tres.Timings.Preprocess
			res.Timings.Reread += tres.Timings.Reread
			if fields.NoNameAt(lines, tres.Receipt.SupplierName.Box, r.PrintedIn.Value) {
				tres.Receipt.SupplierName = receipt.Text{}
			}
			// A date PP-OCR reads labelled as an offer's end or an expiry
			// is none of the sale's, whatever label Tesseract misread
			// beside it ("Bends 12/31/2017").
			if d := tres.Receipt.Date; d.Set && !d.Value.Equal(r.Date.Value) && fields.PrintedAsAnotherDate(lines, p.opt.Locale, p.opt.Now(), d.Value) {
				tres.Receipt.Date, tres.Receipt.Time = receipt.Field[time.Time]{}, receipt.Text{}
			}
			combine(&r, tres.Receipt)
			fields.ApplyCashRounding(&r) // one reader's rounding line, the other's total
			others = append(others, fields.Reading{Name: "Tesseract's reading of the page", Lines: fields.GroupLines(tres.Words)})
			fields.Assess(&r, lines, p.opt.Locale, p.opt.Now(), others...)
		}
	}
	// A photo Tesseract reads poorly as a page it may read well a line at
	// a time: the total's, the date's and the supplier's lines, cut out,
	// are its second look at a value still read once. The supplier's
	// alone never costs a whole page's reading.
	if p.both && valueReadOnce(r) {
		var looks []fields.Reading
		switch {
		case pageRead && dateLookedAt != nil && r.Date.Box != nil && *r.Date.Box == *dateLookedAt:
			looks = rules.totalLooks(ctx, r, lines) // the date's line was read alone already
		case pageRead:
			looks = rules.secondLooks(ctx, r, lines)
		}
		looks = append(looks, rules.supplierLook(ctx, r, named)...)
		if len(looks) > 0 {
			fields.Assess(&r, lines, p.opt.Locale, p.opt.Now(), append(others, looks...)...)
		}
	}
	res.Raw = linesText(lines)
	res.Receipt = r
	res.Timings.Total = time.Since(start)
	return res, nil
}

// A word of the supplier's name or address that PP-OCR read with less
// than ppDoubtfulConf is read again by Tesseract, alone and enlarged, and
// Tesseract's reading takes its place when Tesseract is at least
// tesseractSureConf sure of it.
const (
	ppDoubtfulConf    = 0.93
	tesseractSureConf = 0.9
	// tesseractRestoresConf is how sure Tesseract must be of a word whose
	// only change is a letter PP-OCR has none of given back ("Weiß" for
	// "WeiB", read at 0.65): PP-OCR's reading is no evidence against it,
	// and the rest of the word is both readers'.
	tesseractRestoresConf = 0.6
)

func ppDoubtfulWord(w inference.Word) bool { return w.Conf < ppDoubtfulConf }

// ppDoubtfulWordIn is ppDoubtfulWord on a page printed in country, whose
// languages may have letters PP-OCR has none of: a word holding the
// letter PP-OCR reads in their place ("Wroctaw" for Wrocław), or a letter
// the languages write with an accent PP-OCR leaves off ("Distribucion"),
// is doubtful however sure PP-OCR was (see tesseractSurer).
func ppDoubtfulWordIn(country string) func(inference.Word) bool {
	pk, _ := packs.Get(country)
	return func(w inference.Word) bool {
		return ppDoubtfulWord(w) || pk.HasStandIn(w.Text) || pk.MayHaveLostAccents(w.Text)
	}
}

// tesseractSurerOn is tesseractSurer on a page that prints the spellings
// printed counts: a word PP-OCR read as the page prints it twice or more
// is not taken for a spelling the page never prints ("SAM SAM TRADING":
// the first SAM, read again SAF).
func tesseractSurerOn(printed fields.PageSpellings, pk *packs.Pack, first, second inference.Word, lacks func(rune) bool) bool {
	if printed.Count(first.Text) >= 2 && printed.Count(second.Text) == 0 {
		return false
	}
	return tesseractSurer(first, second, pk, lacks)
}

// tesseractSurer says whether Tesseract's second reading of a word on a
// page of pack pk takes the place of PP-OCR's first; lacks says which
// letters PP-OCR's alphabet has none of (nil: none).
func tesseractSurer(first, second inference.Word, pk *packs.Pack, lacks func(rune) bool) bool {
	// Accents put back ("Distribucion" read again "Distribución", "Cafe"
	// "Café"): PP-OCR reads a European page's letters without them.
	if pk.RestoresAccents(first.Text, second.Text) {
		return second.Conf >= tesseractRestoresConf
	}
	// A word of our lexicon as it stands is no misread (ALAM read again
	// ALAN, Bukit again Buklt).
	if fields.KnownWord(first.Text, pk) && !fields.KnownWord(second.Text, pk) {
		return false
	}
	// The page's language's letter given back where PP-OCR read another
	// ("Wrocław" for "Wroctaw", "Hauptplatz" for "Hauptpiatz"), and no
	// other change: at Tesseract's usual sureness, or, for a letter
	// PP-OCR has none of (ł, ß), at tesseractRestoresConf.
	if pk.RestoresMisread(first.Text, second.Text) {
		return second.Conf >= tesseractSureConf || second.Conf >= tesseractRestoresConf && lacks != nil && onlyLacked(first.Text, second.Text, lacks)
	}
	if !ppDoubtfulWord(first) {
		return false // read again for a letter PP-OCR misreads, which it did not give
	}
	// PP-OCR reads digits better than Tesseract (a postcode's 55100 was
	// read again 55700, NO1 as NOL): only a digit between two letters
	// (RE8LITI) may go.
	if d := digits(second.Text); d != digits(first.Text) && d != digits(lettersBesideDigits.ReplaceAllString(first.Text, "$1$2")) {
		return false
	}
	return second.Conf >= tesseractSureConf && second.Text != first.Text
}

// onlyLacked says whether every letter second gives in place of first's
// is one lacks says PP-OCR has none of.
func onlyLacked(first, second string, lacks func(rune) bool) bool {
	a, b := []rune(first), []rune(second)
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] && !lacks(b[i]) {
			return false
		}
	}
	return true
}

// lettersBesideDigits is a run of digits between two letters.
var lettersBesideDigits = regexp.MustCompile(`(\pL)\d+(\pL)`)

func digits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// SecondReaderBelow is the confidence under which, with Both, Tesseract reads a page too when PP-OCR's
// total or date is missing or less sure than this (or not yet backed by
// two kinds of evidence; a date read once beside a trusted total is first
// read again on its own line, see extractRead).
const SecondReaderBelow = 0.7

// unsure says whether PP-OCR's total or date is missing or doubtful, or
// lacks the second kind of evidence that makes it ready to confirm: then
// Tesseract's reading of the page is that evidence, or speaks against it.
func unsure(r receipt.Receipt) bool {
	if !r.Total.Set || !r.Date.Set || r.Total.Confidence < SecondReaderBelow || r.Date.Confidence < SecondReaderBelow {
		return true
	}
	total, _ := receipt.Trusted(r.Total, "total")
	date, _ := receipt.Trusted(r.Date, "date")
	return !total || !date
}

// supplierBackedAlone says whether the supplier's name is trusted, or
// becomes so read again line by line (those readings then join r's
// evidence and others, which it returns); a look that does not back it is
// left out, and the page's reading is asked instead, as for any page
// whose total or date is read once.
func (p *PPOCR) supplierBackedAlone(ctx context.Context, r *receipt.Receipt, lines, named []fields.Line, rules pageRules, others []fields.Reading) ([]fields.Reading, bool) {
	if ok, _ := receipt.SupplierTrusted(r.SupplierName); ok {
		return others, true
	}
	looks := rules.supplierLook(ctx, *r, named)
	if len(looks) == 0 {
		return others, false
	}
	tried := *r
	with := append(slices.Clip(others), looks...)
	fields.Assess(&tried, lines, p.opt.Locale, p.opt.Now(), with...)
	if ok, _ := receipt.SupplierTrusted(tried.SupplierName); !ok {
		return others, false
	}
	*r = tried
	return with, true
}

// onlyTheDateReadOnce says whether the total is trusted and the date,
// read surely and undoubted, lacks only a second kind of evidence.
func onlyTheDateReadOnce(r receipt.Receipt) bool {
	total, _ := receipt.Trusted(r.Total, "total")
	date, _ := receipt.Trusted(r.Date, "date")
	return total && !date && r.Date.Set && r.Date.Doubt == "" && r.Date.Confidence >= SecondReaderBelow
}

// valueReadOnce says whether the total or the date is set but not yet
// trusted (one kind of evidence, or a doubt), or the supplier's name has
// nothing behind its letters.
func valueReadOnce(r receipt.Receipt) bool {
	total, _ := receipt.Trusted(r.Total, "total")
	date, _ := receipt.Trusted(r.Date, "date")
	return r.Total.Set && !total || r.Date.Set && !date || supplierLookBox(r) != nil
}

// cyrillicTell is how many Cyrillic letters in PP-OCR's reading of a page
// tell that it is printed in Cyrillic. PP-OCR's alphabet has a few of them
// (И, П, Я, З, Й) and reads the rest as Latin, Greek or Chinese lookalikes
// ("KAYAH 5bJFAPИA EOO" for КАУФЛАНД БЪЛГАРИЯ ЕООД): those few are what
// shows through.
const cyrillicTell = 2

// maybeCyrillic says whether PP-OCR's reading of a page may be of one
// printed in Cyrillic: cyrillicTell of its letters show through, or the
// rules found no sure total in it (none, or one guessed from the amounts
// alone) and it prints no label of any language.
// PP-OCR reads Cyrillic as Latin, Greek and Chinese lookalikes ("O5山A
// CYMA 13.28 nB" for ОБЩА СУМА 13.28 лв) and often shows none of its own
// Cyrillic letters; a Latin page without a total still prints CASH, TAX
// or DATE (every one of the dev sets' does).
func maybeCyrillic(words []inference.Word, lines []fields.Line, r receipt.Receipt) bool {
	if scriptLetters(words, unicode.Cyrillic) >= cyrillicTell {
		return true
	}
	if r.Total.Set && r.Total.Confidence >= receipt.LowConfidence {
		return false
	}
	texts := make([]string, len(lines))
	for i, l := range lines {
		texts[i] = l.Text
	}
	return !packs.PrintsALabel(texts)
}

// latinLookalikes are the Cyrillic letters a reader may put for Latin ones
// of the same shape: a Latin page read with Cyrillic trained data shows
// them, not the others.
const latinLookalikes = "АВЕКМНОРСТХУаеорсухіјѕ"

// inScript says whether a reading is in a script: most of its letters are,
// and a tenth of them are letters of it no Latin letter looks like
// (Б, Д, Ж, Л, Ф, Щ, Я…).
func inScript(words []inference.Word, script *unicode.RangeTable) bool {
	in, distinct, letters := 0, 0, 0
	for _, w := range words {
		for _, r := range w.Text {
			switch {
			case !unicode.IsLetter(r):
			case unicode.Is(script, r):
				in++
				if !strings.ContainsRune(latinLookalikes, r) {
					distinct++
				}
				letters++
			default:
				letters++
			}
		}
	}
	return letters > 0 && in*2 >= letters && distinct*10 >= letters
}

// scriptLetters counts the letters of a script in words.
func scriptLetters(words []inference.Word, script *unicode.RangeTable) int {
	n := 0
	for _, w := range words {
		for _, r := range w.Text {
			if unicode.Is(script, r) {
				n++
			}
		}
	}
	return n
}

// scriptProbeLines is how many of a page's longest lines are read in a
// script's languages to see whether the page is printed in it, before the
// whole page is.
const scriptProbeLines = 4

// readInScript reads a page PP-OCR has no letters for with Tesseract in
// the languages of that script the packs know (ISO 15924 code, and its
// Unicode table), and gives that reading, whose rules then find the
// country from its own words, when it is in the script (inScript): a
// Latin page that showed a stray Cyrillic letter, or had no total, stays
// PP-OCR's. The page's longest lines (as PP-OCR found them) are read
// first, alone: only where they are in the script is the whole page read.
// ok is false where no pack writes in the script or its trained data is
// not installed.
func (p *PPOCR) readInScript(ctx context.Context, page inference.Page, lines []fields.Line, code string, script *unicode.RangeTable) (inference.Result, bool) {
	langs := packs.ScriptTesseractLanguages(code)
	if len(langs) == 0 {
		return inference.Result{}, false
	}
	if _, err := p.tesseract(); err != nil {
		return inference.Result{}, false
	}
	t := p.tesseractWith(langs, true)
	if t == nil || t == p.tess {
		return inference.Result{}, false
	}
	var spent time.Duration
	probe := t.rereaderOn(pageReading{gray: toGray(page.Image), factor: 1}, &spent)
	longest := slices.Clone(lines)
	slices.SortStableFunc(longest, func(a, b fields.Line) int { return len(b.Text) - len(a.Text) })
	var probed []inference.Word
	for _, l := range longest[:min(len(longest), scriptProbeLines)] {
		if read, ok := probe.Line(ctx, l.Box, largerLookScale); ok {
			probed = append(probed, read.Words...)
		}
	}
	if !inScript(probed, script) {
		return inference.Result{}, false
	}
	res, err := t.Extract(ctx, page)
	if err != nil {
		return inference.Result{}, false
	}
	if !inScript(res.Words, script) {
		return inference.Result{}, false
	}
	res.Timings.Reread += spent // the probe's lines
	res.Engine = "ocr (Tesseract: a page in " + strings.Join(langs, "+") + ")"
	return res, true
}

// combine merges Tesseract's fields into PP-OCR's: each field from the
// reader surer of it, PP-OCR's on a tie; what PP-OCR lacks, Tesseract's,
// but for a name from below the heading PP-OCR read (belowTheHeading).
func combine(dst *receipt.Receipt, tess receipt.Receipt) {
	if belowTheHeading(tess.SupplierName.Box, dst) {
		tess.SupplierName = receipt.Text{}
	}
	for _, f := range receipt.Fields {
		tset, tconf, _, _, _ := receipt.Meta(&tess, f.Path)
		if !tset {
			continue
		}
		set, conf, _, _, _ := receipt.Meta(dst, f.Path)
		if set && f.Path == "currency" && conf >= receipt.LowConfidence {
			continue // PP-OCR's page told it; a mark only Tesseract saw (a € in a smudge) does not overrule it
		}
		if set {
			if better, ok := betterEvidence(dst, &tess, f.Path); ok {
				if better {
					receipt.CopyField(dst, &tess, f.Path)
					if f.Path == "total_tax" {
						dst.TaxLines = tess.TaxLines // the table that makes it
					}
				}
				continue
			}
		}
		if !set || tconf > conf && !sameTextMisread(dst, &tess, f.Path) && !(f.Path == "supplier_name" && tconf < conf+nameSurerBy && partOfTheName(dst.SupplierName, tess.SupplierName)) {
			receipt.CopyField(dst, &tess, f.Path)
		}
	}
	inference.FillGaps(dst, tess)
}

// nameSurerBy is how much surer Tesseract must be of a name that is part
// of PP-OCR's (partOfTheName) to replace it: PP-OCR's extra line may be a
// logo read as letters ("URAI BAR' FALMOUTH RAW BAR" at 0.52 against
// "FALMOUTH RAW BAR" at 0.67), where it is read far less surely.
const nameSurerBy = 0.02

// partOfTheName says whether Tesseract's name is some of the lines of
// PP-OCR's name and no more: the same words, fewer of them, from within
// its box. Tesseract passed over a line of the heading that PP-OCR read
// ("cristield seafood" in lower case over "Restaurant", where PP-OCR read
// "Crisfield Seafood" and "Restaurant", each name at 0.672): read as
// surely, it names less.
func partOfTheName(pp, tess receipt.Text) bool {
	if pp.Box == nil || tess.Box == nil || pp.Box.Page != tess.Box.Page {
		return false
	}
	mid := tess.Box.Y + tess.Box.H/2
	if mid < pp.Box.Y || mid > pp.Box.Y+pp.Box.H {
		return false
	}
	whole, part := packs.Words(pp.Value), packs.Words(tess.Value)
	if len(part) == 0 || len(part) >= len(whole) {
		return false
	}
	for i := 0; i+len(part) <= len(whole); i++ {
		if slices.Equal(whole[i:i+len(part)], part) {
			return true
		}
	}
	return false
}

// belowTheHeading says whether a name the second reader found lies below
// the sale's date or total as PP-OCR read them, and below PP-OCR's
// own name: a server's, an item's or a street's line that Tesseract took
// for the name where it missed the logo and the date above it ("Server:
// Megan", "WINGS (5)", "Plain Potato"). The name heads the receipt.
func belowTheHeading(name *receipt.Box, pp *receipt.Receipt) bool {
	if name == nil {
		return false
	}
	// Its middle: Tesseract's line may take in a piece of the date's
	// ("r; Megan 09/2 N").
	below := func(b *receipt.Box) bool { return b != nil && b.Page == name.Page && name.Y+name.H/2 >= b.Y+b.H }
	if !below(pp.Date.Box) && !below(pp.Total.Box) {
		return false
	}
	return !pp.SupplierName.Set || pp.SupplierName.Box == nil || below(pp.SupplierName.Box)
}

// totalAfterItsTip says whether a reader's total, read on a total's line,
// is the other's with the tip that reader read added.
func totalAfterItsTip(a, b *receipt.Receipt) bool {
	return a.Tip.Set && a.Tip.Value.IsPositive() && a.Total.Set && b.Total.Set && a.Total.Value.Equal(b.Total.Value.Add(a.Tip.Value)) &&
		!fields.PaidOrUnlabelled(a.Total) && !fields.NoTotalLineRead(a.Total)
}

// subtotalTakenForTotal says whether a's total is the subtotal both
// readers read, under b's larger total read on a total's line: undoubted,
// or doubted where a read no total line at all (b's sums may hold a
// surcharge or a tip the validator does not count).
func subtotalTakenForTotal(a, b *receipt.Receipt) bool {
	return a.Subtotal.Set && b.Subtotal.Set && a.Subtotal.Value.Equal(b.Subtotal.Value) && a.Total.Value.Equal(a.Subtotal.Value) &&
		b.Total.Value.GreaterThan(a.Total.Value) && !fields.PaidOrUnlabelled(b.Total) && !fields.NoTotalLineRead(b.Total) &&
		(b.Total.Doubt == "" || fields.NoTotalLineRead(a.Total))
}

// betterEvidence compares the two readers' total or date by their
// evidence before their confidence: a value the page's arithmetic or a
// second printing supports, with nothing against it, beats one without
// (Tesseract's "6.5" read at 0.9 had replaced PP-OCR's 56.58 that
// subtotal 51.90 + tax 4.68 confirms). ok is false for other fields, or
// when the evidence does not decide.
func betterEvidence(pp, tess *receipt.Receipt, path string) (tessBetter, ok bool) {
	weigh := func(sup []receipt.Support, doubt string) int {
		n := receipt.SupportKinds(sup)
		if doubt != "" {
			n -= 2
		}
		return n
	}
	var a, b int
	switch path {
	case "total":
		if ppSub, tessSub := totalOnSubtotalLine(pp), totalOnSubtotalLine(tess); ppSub != tessSub {
			// The total is never a subtotal when the page prints a larger
			// total line: one reader that found no total line and took
			// its subtotal's ("Bar Subtotal: 14.00") loses to the other's
			// larger total ("TOTAL: $56.38"), however much arithmetic
			// backs the subtotal.
			if ppSub && tess.Total.Value.GreaterThan(pp.Total.Value) {
				return true, true
			}
			if tessSub && pp.Total.Value.GreaterThan(tess.Total.Value) {
				return false, true
			}
		}
		// A card slip's total after the tip is the receipt's: the other
		// reader's is the bill before the tip ("Total CHF 177.40 /
		// Trinkgeld 2.60 / Belastet Total CHF 180.00"), however much
		// the items back it.
		if totalAfterItsTip(pp, tess) {
			return false, true
		}
		if totalAfterItsTip(tess, pp) {
			return true, true
		}
		// Both read one subtotal, and one took it for the total: the
		// other's larger labelled total stands ("Subtotal 88.50 / ... /
		// AMOUNT DUE $99.98 / Tip $17.70 / TOTAL $117.68").
		if subtotalTakenForTotal(pp, tess) {
			return true, true
		}
		if subtotalTakenForTotal(tess, pp) {
			return false, true
		}
		// A total guessed from the amount paid loses to the other
		// reader's undoubted labelled total it covers: "GEGEBEN BAR
		// 20.00" read as the total by one, "SUMME EUR 19.99" by the
		// other. Not where the page's sums make the amount paid ("Paid
		// RM7.00" over items of 7.00, against "Amount RM6.60" before tax).
		paidLoses := func(paid, labelled receipt.Amount) bool {
			return fields.PaidOrUnlabelled(paid) && !fields.PaidOrUnlabelled(labelled) && labelled.Doubt == "" &&
				paid.Value.GreaterThanOrEqual(labelled.Value) && !receipt.HasSupport(paid.Support, receipt.EvidenceArithmetic)
		}
		if paidLoses(tess.Total, pp.Total) {
			return false, true
		}
		if paidLoses(pp.Total, tess.Total) {
			return true, true
		}
		a, b = weigh(pp.Total.Support, pp.Total.Doubt), weigh(tess.Total.Support, tess.Total.Doubt)
	case "date":
		if pp.Date.Set && tess.Date.Set && !pp.Date.Value.Equal(tess.Date.Value) {
			// The sale is stamped with its time; a date in a sentence
			// ("Sweepstakes ends 12/31/2017") is not. Two readings of one
			// date a digit apart are a misreading, not two dates, unless
			// they were read on two lines ("14/03/2025 07:58" and a
			// lottery's "DRAW SAT 15/03/2025").
			misread := fields.OneDatePartApart(pp.Date.Value, tess.Date.Value) &&
				(pp.Date.Box == nil || tess.Date.Box == nil || fields.SameLine(*pp.Date.Box, *tess.Date.Box))
			if pp.Time.Set != tess.Time.Set && !misread {
				return tess.Time.Set, true
			}
			if longer, ok := oneDigitLost(pp.Date.Value, tess.Date.Value); ok {
				return !longer, true
			}
		}
		a, b = weigh(pp.Date.Support, pp.Date.Doubt), weigh(tess.Date.Support, tess.Date.Doubt)
	case "total_tax":
		// The tax a reader's own tax table adds up to, row by row, beats
		// a tax read alone that the other reader's table does not make
		// (Tesseract's "MwSt% 1.808,94", a gross amount a skewed photo's
		// row put beside the heading, over PP-OCR's 288,82 + 14,75).
		if a, b := taxTableMakes(pp), taxTableMakes(tess); a != b {
			return b, true
		}
		return false, false
	default:
		return false, false
	}
	if a == b {
		return false, false
	}
	return b > a, true
}

// taxTableMakes says whether a reading's tax lines add up to its total
// tax, to the cent.
func taxTableMakes(r *receipt.Receipt) bool {
	return r.TotalTax.Set && len(r.TaxLines) > 0 && receipt.TaxLinesTotal(r.TaxLines).Sub(r.TotalTax.Value).Abs().LessThanOrEqual(decimal.New(1, -2))
}

// oneDigitLost says whether two readings of a date differ in one part
// that one of them read with its first digit lost (12/17 and 2/17, 5/25
// and 5/5): a reader drops a thin digit far more often than it invents
// one, so the reading with the digit is taken. aLonger says it is a.
func oneDigitLost(a, b time.Time) (aLonger, ok bool) {
	lost := func(long, short int) bool { return long >= 10 && long%10 == short }
	switch {
	case a.Year() != b.Year():
		return false, false
	case a.Month() == b.Month():
		if lost(a.Day(), b.Day()) || lost(b.Day(), a.Day()) {
			return a.Day() > b.Day(), true
		}
	case a.Day() == b.Day():
		if lost(int(a.Month()), int(b.Month())) || lost(int(b.Month()), int(a.Month())) {
			return a.Month() > b.Month(), true
		}
	}
	return false, false
}

// totalOnSubtotalLine says whether a reading's total is the amount of its
// subtotal line: the page's total line was not found.
func totalOnSubtotalLine(r *receipt.Receipt) bool {
	return r.Total.Set && r.Subtotal.Set && r.Total.Box != nil && r.Subtotal.Box != nil &&
		*r.Total.Box == *r.Subtotal.Box && r.Total.Value.Equal(r.Subtotal.Value)
}

// sameTextMisread says whether both readers found the same supplier's name
// or address but for a letter or two: then PP-OCR's stands, as the reader
// of letters measured better, whichever is surer on its own scale
// (Tesseract's "MEL LET RESTAURANT" at 0.67 against PP-OCR's "MEI LET
// RESTAURANT" at 0.66).
func sameTextMisread(pp, tess *receipt.Receipt, path string) bool {
	var a, b string
	switch path {
	case "supplier_name":
		a, b = pp.SupplierName.Value, tess.SupplierName.Value
	case "supplier_address":
		a, b = pp.SupplierAddress.Value, tess.SupplierAddress.Value
	default:
		return false
	}
	fa, fb := receipt.Fold(a), receipt.Fold(b)
	return fa != "" && fields.EditDistance(fa, fb, 2) <= 2
}
