package ocr

import (
	"context"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/fields"
	"github.com/shoebox-app/shoebox/inference/ocr/ppocr"
	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/internal/synth"
	"github.com/shoebox-app/shoebox/packs"
	"github.com/shoebox-app/shoebox/receipt"
)

// repoRoot is the folder holding go.mod.
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = up
	}
}

// ppocrDir is where `make deps` puts PP-OCR's parts; the test skips,
// saying so, when they are not there.
func ppocrDir(t testing.TB) string {
	t.Helper()
	d := os.Getenv(ppocr.EnvDir)
	if d == "" {
		d = filepath.Join(repoRoot(t), "build", "lib", "ppocr")
	}
	if m := ppocr.Missing(d); m != "" {
		t.Skipf("PP-OCR's files are not in %s (missing %s): run `make deps`", d, m)
	}
	return d
}

func newPPOCR(t *testing.T, both bool) *PPOCR {
	t.Helper()
	return newPPOCRIn(t, receipt.CountryMY, both)
}

// newPPOCRIn is newPPOCR in a library of country c.
func newPPOCRIn(t *testing.T, c receipt.Country, both bool) *PPOCR {
	t.Helper()
	opt := DefaultOptions(receipt.DefaultLocale(c))
	opt.Workers, opt.Deterministic = 1, true
	p, err := NewPPOCR(opt, PPOCROptions(ppocrDir(t)), both)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// extractDevReceipt reads sroie-dev's receipt name with p; the test is
// skipped where the SROIE receipts are not beside the repository.
func extractDevReceipt(t *testing.T, p *PPOCR, name string) inference.Result {
	t.Helper()
	path := filepath.Join(repoRoot(t), "..", "shared", "data", "sroie-dev", name)
	if _, err := os.Stat(path); err != nil {
		t.Skip("the SROIE receipts are not here:", err)
	}
	res, err := p.Extract(context.Background(), inference.Page{Image: loadImage(t, path)})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The PP-OCR engine reads a dev receipt with the real models and finds its
// labelled total and date, alone and with Tesseract beside it.
func TestPPOCRFindsTheTotal(t *testing.T) {
	for _, both := range []bool{false, true} {
		t.Run(map[bool]string{false: "ppocr", true: "both"}[both], func(t *testing.T) { findsTheTotal(t, both) })
	}
}

func findsTheTotal(t *testing.T, both bool) {
	res := extractDevReceipt(t, newPPOCR(t, both), "000.jpg")
	if !strings.HasPrefix(res.Engine, "ppocr") || len(res.Words) == 0 {
		t.Errorf("read by %q with %d words", res.Engine, len(res.Words))
	}
	if got := res.Receipt.Total.Value.StringFixed(2); !res.Receipt.Total.Set || got != "9.00" {
		t.Errorf("total %s, want 9.00\n%s", got, res.Raw)
	}
	if d := res.Receipt.Date; !d.Set || d.Value.Format("02/01/2006") != "25/12/2018" {
		t.Errorf("date %v, want 25/12/2018", d.Value)
	}
}

// PP-OCR reads SROIE 046's heading "PASAF MINI JIN SENG", with R its
// second choice for the F: the name is mended to PASAR, a lexicon word,
// with no second reader.
func TestPPOCRMendsTheNameByItsSecondChoices(t *testing.T) {
	res := extractDevReceipt(t, newPPOCR(t, false), "046.jpg")
	if got := res.Receipt.SupplierName.Value; got != "PASAR MINI JIN SENG" {
		t.Errorf("supplier %q, want PASAR MINI JIN SENG\n%s", got, res.Raw)
	}
}

// A page PP-OCR cannot read is read by Tesseract: nothing is lost.
func TestPPOCRFallsBackToTesseract(t *testing.T) {
	p := newPPOCR(t, false)
	img, err := synth.Render(synth.Receipt{
		Supplier: "HARBOUR HARDWARE PTY LTD", Address: []string{"12 GEORGE STREET", "SYDNEY NSW 2000"}, Date: "16/07/2025",
		Items: []synth.Item{{Desc: "HAMMER", Qty: 1, UnitCents: 2495}}, TaxLabel: "GST", TaxRate: 10, Inclusive: true, Currency: "$",
	})
	if err != nil {
		t.Fatal(err)
	}
	p.reader.Close() // every PP-OCR reading now fails
	res, err := p.Extract(context.Background(), inference.Page{Image: img})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Engine, "PP-OCR failed") || !res.Receipt.Total.Set || res.Receipt.Total.Value.StringFixed(2) != "24.95" {
		t.Errorf("engine %q, total %v", res.Engine, res.Receipt.Total.Value)
	}
}

// A damaged model is named when the engine starts, so the caller can read
// with Tesseract (pipeline.OpenReader does).
func TestPPOCRDamagedModel(t *testing.T) {
	src := ppocrDir(t)
	dir := t.TempDir()
	for _, n := range []string{ppocr.Library, ppocr.Keys, ppocr.DetModel} {
		if err := os.Symlink(filepath.Join(src, n), filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ppocr.RecModel), []byte("not a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := NewPPOCR(DefaultOptions(receipt.DefaultLocale(receipt.CountryMY)), PPOCROptions(dir), false)
	if err == nil || !strings.Contains(err.Error(), ppocr.RecModel) {
		t.Errorf("a damaged recogniser gave %v", err)
	}
}

func loadImage(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := ingest.Probe(context.Background(), path, ingest.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	pg, err := ingest.LoadPage(context.Background(), f, 0, ingest.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return pg.Image
}

// TestTesseractSurerKeepsDigitsAndKnownWords: Tesseract's second reading
// of a doubtful name or address word mends its letters, never its
// numbers, and never turns a lexicon word into another.
func TestTesseractSurerKeepsDigitsAndKnownWords(t *testing.T) {
	my, _ := packs.Get("MY") // ALAM is a Malaysian place word
	for _, c := range []struct {
		first, second string
		conf          float64
		take          bool
	}{
		{"TIHES", "TIMES", 0.95, true},
		{"LPOH", "IPOH", 0.95, true},
		{"RE8LITI", "REALITI", 0.95, true}, // a digit between letters is a misread
		{"TIHES", "TIMES", 0.8, false},     // Tesseract unsure too
		{"NO1", "NOL", 0.95, false},
		{"55100", "55700", 0.99, false},
		{"ALAM", "ALAN", 0.95, false},
		{"TIMES", "TIMES", 0.99, false},
	} {
		got := tesseractSurer(inference.Word{Text: c.first, Conf: 0.85}, inference.Word{Text: c.second, Conf: c.conf}, my, nil)
		if got != c.take {
			t.Errorf("%s read again %s at %.2f: taken %v, want %v", c.first, c.second, c.conf, got, c.take)
		}
	}
	// On a Polish page, a word PP-OCR read surely with the t it reads for ł
	// is doubtful, and Tesseract's ł is taken where nothing else changed.
	pl, _ := packs.Get("PL")
	de, _ := packs.Get("DE")
	if !ppDoubtfulWordIn("PL")(inference.Word{Text: "Wroctaw", Conf: 0.99}) || !pl.HasStandIn("Wroctaw") || pl.HasStandIn("Krakow") {
		t.Error("on a Polish page, a word with t is doubtful for its letters, one without is not")
	}
	if de.HasStandIn("Wroctaw") {
		t.Error("German has no letter PP-OCR reads as t")
	}
	for _, c := range []struct {
		second string
		take   bool
	}{{"Wrocław", true}, {"Wrocłam", false}, {"Wroctaw", false}, {"Wroclaw", false}} {
		got := tesseractSurer(inference.Word{Text: "Wroctaw", Conf: 0.99}, inference.Word{Text: c.second, Conf: 0.95}, pl, nil)
		if got != c.take {
			t.Errorf("Wroctaw read again %s: taken %v, want %v", c.second, got, c.take)
		}
	}
	// Every Latin language: l read as i in small print.
	ie, _ := packs.Get("IE")
	if !tesseractSurer(inference.Word{Text: "Waish", Conf: 0.99}, inference.Word{Text: "Walsh", Conf: 0.95}, ie, nil) {
		t.Error("Irish Waish read again Walsh was not taken")
	}
	// German: ß read as B or R, ü as i.
	de, _ = packs.Get("DE")
	for _, c := range []struct {
		first, second string
		take          bool
	}{{"WeiB", "Weiß", true}, {"WEIR", "WEIß", true}, {"Miller", "Müller", true}, {"Miller", "Müllex", false}, {"Miller", "Möller", false}} {
		if got := tesseractSurer(inference.Word{Text: c.first, Conf: 0.99}, inference.Word{Text: c.second, Conf: 0.95}, de, nil); got != c.take {
			t.Errorf("German %s read again %s: taken %v, want %v", c.first, c.second, got, c.take)
		}
	}
	// Accents the page reader leaves off: a word that could have lost one
	// is read again, and Tesseract's accents taken at 0.6 and over where
	// nothing else changed, case kept.
	es, _ := packs.Get("ES")
	if !ppDoubtfulWordIn("ES")(inference.Word{Text: "Malaga", Conf: 0.99}) || ppDoubtfulWordIn("ES")(inference.Word{Text: "Málaga", Conf: 0.99}) ||
		ppDoubtfulWordIn("US")(inference.Word{Text: "Malaga", Conf: 0.99}) {
		t.Error("on a Spanish page only a word without accents is read again for them; an English page's never")
	}
	for _, c := range []struct {
		pk            *packs.Pack
		first, second string
		conf          float64
		take          bool
	}{
		{es, "Distribucion", "Distribución", 0.7, true},
		{es, "DISTRIBUCION", "DISTRIBUCIÓN", 0.7, true},
		{es, "Distribucion", "Distribución", 0.5, false},  // Tesseract unsure
		{es, "Distribucion", "DISTRIBUCIÓN", 0.95, false}, // case changed
		{es, "Distribucion", "Distribucián", 0.95, false}, // another letter
		{es, "Cafe", "Café", 0.7, true},
		{de, "KORNMUHLE", "KORNMÜHLE", 0.7, true},
		{de, "Cafe", "Café", 0.7, false}, // é is no German letter
	} {
		if got := tesseractSurer(inference.Word{Text: c.first, Conf: 0.99}, inference.Word{Text: c.second, Conf: c.conf}, c.pk, nil); got != c.take {
			t.Errorf("%s %s read again %s at %.2f: taken %v, want %v", c.pk.Country, c.first, c.second, c.conf, got, c.take)
		}
	}
	// Tesseract less sure of the word than of a changed one: only the
	// letter given back, the rest both readers', at 0.6 or more.
	lacksSharpS := func(r rune) bool { return r == 'ß' }
	if !tesseractSurer(inference.Word{Text: "WeiB", Conf: 0.88}, inference.Word{Text: "Weiß", Conf: 0.65}, de, lacksSharpS) ||
		tesseractSurer(inference.Word{Text: "WeiB", Conf: 0.88}, inference.Word{Text: "Weiß", Conf: 0.5}, de, lacksSharpS) {
		t.Error("a letter PP-OCR lacks given back is taken at 0.6 and over, not under")
	}
	// A letter PP-OCR has (l, ü) needs Tesseract as sure as any change, a
	// lexicon word stays, and ß opens no word.
	my, _ = packs.Get("MY")
	for _, c := range []struct {
		pk            *packs.Pack
		first, second string
		conf          float64
	}{{de, "Mitte", "Mltte", 0.65}, {my, "Bukit", "Buklt", 0.95}, {de, "Berlin", "ßerlin", 0.95}} {
		if tesseractSurer(inference.Word{Text: c.first, Conf: 0.99}, inference.Word{Text: c.second, Conf: c.conf}, c.pk, lacksSharpS) {
			t.Errorf("%s read again %s at %.2f was taken", c.first, c.second, c.conf)
		}
	}
	// On a page that prints PP-OCR's spelling twice, a spelling it never
	// prints is not taken; one it prints is.
	printed := fields.PageSpellings{"SAM": 3, "SAF": 0, "TIMES": 1, "TIHES": 2}
	surer := func(first, second inference.Word) bool { return tesseractSurerOn(printed, my, first, second, nil) }
	if surer(inference.Word{Text: "SAM", Conf: 0.85}, inference.Word{Text: "SAF", Conf: 0.95}) {
		t.Error("SAM, printed thrice, was read again SAF")
	}
	if !surer(inference.Word{Text: "TIHES", Conf: 0.85}, inference.Word{Text: "TIMES", Conf: 0.95}) {
		t.Error("TIHES was not read again TIMES, which the page prints")
	}
}

// A card slip's total after the tip wins over the other reader's total
// before it, which the items back; a larger total read on its line wins
// over the subtotal both readers read, taken for the total by one.
func TestCombineKeepsTheTotalAfterTheTip(t *testing.T) {
	amount := func(v string, kinds ...receipt.Evidence) receipt.Amount {
		a := receipt.Amount{Value: decimal.RequireFromString(v), Set: true, Confidence: 0.9}
		for _, k := range kinds {
			a.Support = append(a.Support, receipt.Support{Kind: k})
		}
		return a
	}
	afterTip := receipt.Receipt{Total: amount("180.00", receipt.EvidenceReading), Tip: amount("2.60", receipt.EvidenceReading)}
	before := receipt.Receipt{Total: amount("177.40", receipt.EvidenceReading, receipt.EvidenceArithmetic, receipt.EvidencePrintedTwice)}
	// One reader took the subtotal both read for the total.
	withSub := func(r receipt.Receipt, sub string) receipt.Receipt {
		r.Subtotal = amount(sub, receipt.EvidenceReading)
		return r
	}
	subTaken := withSub(receipt.Receipt{Total: amount("88.50", receipt.EvidenceReading, receipt.EvidenceArithmetic, receipt.EvidencePrintedTwice)}, "88.50")
	subTaken.Total.Why = "no total printed: the subtotal, after the adjustments below it"
	labelled := withSub(receipt.Receipt{Total: amount("180.00", receipt.EvidenceReading)}, "88.50")
	labelled.Total.Doubt = "subtotal 88.50 + tax 7.94 = 96.44" // a surcharge and a tip the validator does not count
	for _, tc := range []struct {
		what     string
		pp, tess receipt.Receipt
	}{
		{"PP-OCR read the tip", afterTip, before},
		{"Tesseract read the tip", before, afterTip},
		{"Tesseract took the subtotal", labelled, subTaken},
		{"PP-OCR took the subtotal", subTaken, labelled},
	} {
		got := tc.pp
		combine(&got, tc.tess)
		if got.Total.Value.String() != "180" {
			t.Errorf("%s: total %s, want 180", tc.what, got.Total.Value)
		}
	}
}

// Where both readers found the supplier's name and address, a letter or
// two apart, PP-OCR's stand whichever reader is surer on its own scale;
// another name, or a field PP-OCR lacks, comes from the surer reader.
func TestCombineKeepsPPOCRsLettersOfOneName(t *testing.T) {
	text := func(v string, conf float64) receipt.Text { return receipt.Text{Value: v, Set: true, Confidence: conf} }
	pp := receipt.Receipt{SupplierName: text("MEI LET RESTAURANT", 0.66), SupplierAddress: text("NO 2, JALAN BESAR, 40000 SHAH ALAM", 0.7)}
	tess := receipt.Receipt{SupplierName: text("MEL LET RESTAURANT", 0.67), SupplierAddress: text("NO 2, JALAN BESAR, 40600 SHAH ALAM", 0.8), DocumentNumber: text("INV-12", 0.9)}
	got := pp
	combine(&got, tess)
	if got.SupplierName.Value != "MEI LET RESTAURANT" || got.SupplierAddress.Value != "NO 2, JALAN BESAR, 40000 SHAH ALAM" {
		t.Errorf("one name misread: got %q, %q; want PP-OCR's", got.SupplierName.Value, got.SupplierAddress.Value)
	}
	if got.DocumentNumber.Value != "INV-12" {
		t.Errorf("a field PP-OCR lacks: %q", got.DocumentNumber.Value)
	}
	tess.SupplierName = text("SUNRISE BAKERY", 0.9)
	got = pp
	combine(&got, tess)
	if got.SupplierName.Value != "SUNRISE BAKERY" {
		t.Errorf("another name, read surer: got %q", got.SupplierName.Value)
	}
}

// A name the second reader found that is one line of PP-OCR's two-line
// name, however sure, names less than PP-OCR's; a name of other words, or
// found outside PP-OCR's name, is weighed as any other.
func TestCombineKeepsTheWholeNameOverOneOfItsLines(t *testing.T) {
	text := func(v string, conf float64, y, h int) receipt.Text {
		return receipt.Text{Value: v, Set: true, Confidence: conf, Box: &receipt.Box{X: 190, Y: y, W: 330, H: h}}
	}
	pp := text("CRISFIELD SEAFOOD RESTAURANT", 0.6717, 65, 44)
	for _, tc := range []struct {
		what string
		tess receipt.Text
		want string
	}{
		{"its second line", text("RESTAURANT", 0.6718, 87, 20), "CRISFIELD SEAFOOD RESTAURANT"},
		{"its first line", text("CRISFIELD SEAFOOD", 0.68, 65, 20), "CRISFIELD SEAFOOD RESTAURANT"},
		{"its second line, read far surer", text("RESTAURANT", 0.75, 87, 20), "RESTAURANT"},
		{"another name on its lines", text("SEAFOOD PALACE", 0.68, 65, 20), "SEAFOOD PALACE"},
		{"its word on a line below", text("RESTAURANT", 0.68, 300, 20), "RESTAURANT"},
	} {
		got := receipt.Receipt{SupplierName: pp}
		combine(&got, receipt.Receipt{SupplierName: tc.tess})
		if got.SupplierName.Value != tc.want {
			t.Errorf("%s: got %q, want %q", tc.what, got.SupplierName.Value, tc.want)
		}
	}
}

// A name the second reader found below the date and total PP-OCR read,
// and below PP-OCR's own name, is a server's, an item's or a street's
// line, not the supplier's: it neither replaces PP-OCR's name nor fills
// its place. A name at the top does both.
func TestCombineTakesNoNameFromBelowTheHeading(t *testing.T) {
	text := func(v string, conf float64, y int) receipt.Text {
		return receipt.Text{Value: v, Set: true, Confidence: conf, Box: &receipt.Box{X: 10, Y: y, W: 200, H: 20}}
	}
	date := receipt.Field[time.Time]{Value: time.Date(2017, 9, 23, 0, 0, 0, 0, time.UTC), Set: true, Confidence: 0.9, Box: &receipt.Box{X: 10, Y: 120, W: 200, H: 20}}
	for _, tc := range []struct {
		what     string
		pp, tess receipt.Text
		want     string
	}{
		{"a logo read poorly, a server's name below the date", text("730TAVERNKITHEN&PATIO", 0.45, 10), text("MEGAN", 0.64, 180), "730TAVERNKITHEN&PATIO"},
		{"no name, an item below the date", receipt.Text{}, text("PLAIN POTATO 178", 0.56, 400), ""},
		{"no name, a name at the top", receipt.Text{}, text("WENDY'S RESTAURANT", 0.7, 30), "WENDY'S RESTAURANT"},
		{"a card slip's name under its date, another read surer on its line", text("PARIS", 0.5, 150), text("A. MIAM MIAM", 0.9, 151), "A. MIAM MIAM"},
	} {
		got := receipt.Receipt{SupplierName: tc.pp, Date: date}
		combine(&got, receipt.Receipt{SupplierName: tc.tess, Date: date})
		if got.SupplierName.Value != tc.want {
			t.Errorf("%s: got %q, want %q", tc.what, got.SupplierName.Value, tc.want)
		}
	}
}

// Where the readers disagree on the total or the date, what the page
// says of each outweighs how many kinds of evidence back it: a total read
// off the subtotal's line loses to a larger total, a date beside the
// sale's time beats one in a sentence, and a date part with its first
// digit beats the same part read without it.
func TestCombineTakesTheTotalLineTheTimeStampedDateAndTheLostDigit(t *testing.T) {
	line := &receipt.Box{X: 10, Y: 600, W: 300, H: 30}
	backed := []receipt.Support{{Kind: receipt.EvidenceReading}, {Kind: receipt.EvidenceArithmetic}}
	once := []receipt.Support{{Kind: receipt.EvidenceReading}}
	amount := func(v string, box *receipt.Box, sup []receipt.Support) receipt.Amount {
		return receipt.Amount{Value: decimal.RequireFromString(v), Set: true, Confidence: 0.9, Box: box, Support: sup}
	}
	day := func(s string, sup []receipt.Support) receipt.Field[time.Time] {
		d, _ := time.Parse("2006-01-02", s)
		return receipt.Field[time.Time]{Value: d, Set: true, Confidence: 0.9, Support: sup}
	}
	pp := receipt.Receipt{Total: amount("56.38", &receipt.Box{X: 10, Y: 900, W: 300, H: 30}, once)}
	tess := receipt.Receipt{Total: amount("14.00", line, backed), Subtotal: amount("14.00", line, once)}
	got := pp
	combine(&got, tess)
	if got.Total.Value.String() != "56.38" {
		t.Errorf("the subtotal's line taken for the total: %s", got.Total.Value)
	}

	// The amount paid taken for the total loses to the total it covers.
	pp = receipt.Receipt{Total: amount("19.99", line, once)}
	readTwice := []receipt.Support{{Kind: receipt.EvidenceReading}, {Kind: receipt.EvidenceSecondReader}}
	for _, paid := range []string{"20.00", "19.99"} {
		tess = receipt.Receipt{Total: amount(paid, &receipt.Box{X: 10, Y: 700, W: 300, H: 30}, readTwice)}
		tess.Total.Why = "no total label read: the amount paid, with no change given"
		got = pp
		combine(&got, tess)
		if got.Total.Value.String() != "19.99" || fields.PaidOrUnlabelled(got.Total) {
			t.Errorf("the amount paid %s taken for the total: %s (%s)", paid, got.Total.Value, got.Total.Why)
		}
	}
	// Not where the page's sums make the amount paid: "Amount RM6.60"
	// is the sale before its tax.
	tess = receipt.Receipt{Total: amount("7.00", &receipt.Box{X: 10, Y: 700, W: 300, H: 30}, backed)}
	tess.Total.Why = "no total label read: the amount paid, with no change given"
	got = receipt.Receipt{Total: amount("6.60", line, once)}
	combine(&got, tess)
	if got.Total.Value.String() != "7" {
		t.Errorf("the amount paid that the sums make lost to %s", got.Total.Value)
	}

	pp = receipt.Receipt{Date: day("2017-05-25", once), Time: receipt.Text{Value: "13:00", Set: true}}
	tess = receipt.Receipt{Date: day("2017-12-31", backed)}
	got = pp
	combine(&got, tess)
	if d := got.Date.Value.Format("2006-01-02"); d != "2017-05-25" {
		t.Errorf("a date in a sentence over the sale's: %s", d)
	}

	// A day apart on two lines: the sale's, stamped with its time, and a
	// lottery's draw the other reader took.
	pp = receipt.Receipt{Date: day("2025-03-14", once), Time: receipt.Text{Value: "07:58", Set: true}}
	pp.Date.Box = &receipt.Box{X: 104, Y: 210, W: 339, H: 16}
	tess = receipt.Receipt{Date: day("2025-03-15", backed)}
	tess.Date.Box = &receipt.Box{X: 115, Y: 353, W: 150, H: 14}
	got = pp
	combine(&got, tess)
	if d := got.Date.Value.Format("2006-01-02"); d != "2025-03-14" {
		t.Errorf("a draw's date a day after the sale's: %s", d)
	}

	pp = receipt.Receipt{Date: day("2017-12-17", once)}
	tess = receipt.Receipt{Date: day("2017-02-17", backed)}
	got = pp
	combine(&got, tess)
	if d := got.Date.Value.Format("2006-01-02"); d != "2017-12-17" {
		t.Errorf("12/17 read 2/17 by one reader: %s", d)
	}
	tess = receipt.Receipt{Date: day("2017-12-18", backed)}
	got = pp
	combine(&got, tess)
	if d := got.Date.Value.Format("2006-01-02"); d != "2017-12-18" {
		t.Errorf("no digit lost: the better backed date should stand, got %s", d)
	}
}

// The tax a reader's own tax table adds up to beats a surer tax read
// alone, and comes with its table; where neither or both tables make
// their tax, the surer reading stands as before.
func TestCombineTakesTheTaxItsTableMakes(t *testing.T) {
	amount := func(v string, conf float64) receipt.Amount {
		return receipt.Amount{Value: decimal.RequireFromString(v), Set: true, Confidence: conf}
	}
	row := func(rate, net, tax string) receipt.TaxLine {
		return receipt.TaxLine{Rate: amount(rate, 0.9), Net: amount(net, 0.9), Tax: amount(tax, 0.9)}
	}
	table := []receipt.TaxLine{row("19", "1520.12", "288.82"), row("7", "210.70", "14.75")}
	pp := receipt.Receipt{TotalTax: amount("303.57", 0.8), TaxLines: table}
	tess := receipt.Receipt{TotalTax: amount("1808.94", 0.95)}
	got := pp
	combine(&got, tess)
	if got.TotalTax.Value.String() != "303.57" || len(got.TaxLines) != 2 {
		t.Errorf("tax %s with %d rows, want PP-OCR's 303.57 its table makes", got.TotalTax.Value, len(got.TaxLines))
	}
	got = tess
	got.TaxLines = nil
	combine(&got, receipt.Receipt{TotalTax: amount("303.57", 0.8), TaxLines: table})
	if got.TotalTax.Value.String() != "303.57" || len(got.TaxLines) != 2 {
		t.Errorf("Tesseract's table: tax %s with %d rows, want 303.57 and its two rows", got.TotalTax.Value, len(got.TaxLines))
	}
	got = receipt.Receipt{TotalTax: amount("30.00", 0.8)}
	combine(&got, receipt.Receipt{TotalTax: amount("3.00", 0.95)})
	if got.TotalTax.Value.String() != "3" {
		t.Errorf("no table on either side: tax %s, want the surer 3.00", got.TotalTax.Value)
	}
}

// A receipt printed in Cyrillic, which PP-OCR has no letters for, is read
// by Tesseract in Bulgarian (make deps installs its trained data): its
// total, currency, date and supplier come from its own words, in an
// Australian client's library. A Latin page stays PP-OCR's reading.
func TestACyrillicPageIsReadInItsScript(t *testing.T) {
	if !TesseractBuilt {
		t.Skip("this build reads without Tesseract")
	}
	p := newPPOCRIn(t, receipt.CountryAU, true)
	r, err := synth.Generate(31, "BG")
	if err != nil {
		t.Fatal(err)
	}
	img, err := synth.Render(r)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Extract(context.Background(), inference.Page{Image: img})
	if err != nil {
		t.Fatal(err)
	}
	_, _, total := r.Totals()
	got := res.Receipt
	if !strings.Contains(res.Engine, "bul") {
		t.Fatalf("read by %s, not Tesseract in Bulgarian:\n%s", res.Engine, res.Raw)
	}
	if !got.Total.Value.Equal(centsToDecimal(total)) || got.Currency.Value != "BGN" || got.Date.Value.Format("2006-01-02") != r.ISODate {
		t.Errorf("total %s %s on %s, want %s BGN on %s\n%s", got.Total.Value, got.Currency.Value, got.Date.Value.Format("2006-01-02"), centsToDecimal(total), r.ISODate, res.Raw)
	}
	if got.SupplierName.Value != strings.ToUpper(r.Supplier) {
		t.Errorf("supplier %q, want %q", got.SupplierName.Value, strings.ToUpper(r.Supplier))
	}
	latin := []inference.Word{{Text: "TOTAL"}, {Text: "ТОТАL"}, {Text: "CASH"}, {Text: "МОНЕУ"}}
	if inScript(latin, unicode.Cyrillic) {
		t.Error("a Latin page read with Cyrillic lookalikes counts as Cyrillic")
	}
	if !inScript([]inference.Word{{Text: "ОБЩА"}, {Text: "СУМА"}, {Text: "13.28"}, {Text: "лв"}}, unicode.Cyrillic) {
		t.Error("Bulgarian words do not count as Cyrillic")
	}
}

// A page that lay on its side is read upright, and the fields' boxes come
// back on the page as given: where the upright reading's boxes lie once
// turned.
func TestASidewaysPageIsReadUpright(t *testing.T) {
	p := newPPOCRIn(t, receipt.CountryMY, true)
	path := filepath.Join(repoRoot(t), "..", "shared", "data", "sroie-dev", "000.jpg")
	if _, err := os.Stat(path); err != nil {
		t.Skip("the SROIE receipts are not here:", err)
	}
	upright := toGray(loadImage(t, path))
	want, err := p.Extract(context.Background(), inference.Page{Image: upright})
	if err != nil {
		t.Fatal(err)
	}
	sideways := ppocr.Upright{Turns: 3}.Page(upright) // lying on its left side: a quarter turn clockwise stands it up
	got, err := p.Extract(context.Background(), inference.Page{Image: sideways})
	if err != nil {
		t.Fatal(err)
	}
	w, r := want.Receipt, got.Receipt
	if !r.Total.Value.Equal(w.Total.Value) || !r.Date.Value.Equal(w.Date.Value) || r.SupplierName.Value != w.SupplierName.Value {
		t.Fatalf("read on its side: %s %s %q, upright: %s %s %q", r.Total.Value, r.Date.Value, r.SupplierName.Value, w.Total.Value, w.Date.Value, w.SupplierName.Value)
	}
	if r.Total.Box == nil || w.Total.Box == nil {
		t.Fatal("the total has no box")
	}
	// The upright box, turned as the page was (three quarter turns
	// clockwise: (x, y) goes to (y, width−x)).
	ub, width := *w.Total.Box, upright.Bounds().Dx()
	turned := receipt.Box{X: ub.Y, Y: width - ub.X - ub.W, W: ub.H, H: ub.W}
	gb := *r.Total.Box
	if abs(gb.X-turned.X) > 12 || abs(gb.Y-turned.Y) > 12 || abs(gb.W-turned.W) > 12 || abs(gb.H-turned.H) > 12 {
		t.Errorf("the total's box %+v on the page as given, want about %+v", gb, turned)
	}
	sw, sh := sideways.Bounds().Dx(), sideways.Bounds().Dy()
	for _, wd := range got.Words {
		if b := wd.Box; b.X < 0 || b.Y < 0 || b.X+b.W > sw+2 || b.Y+b.H > sh+2 {
			t.Errorf("word %q at %+v lies off the page (%v)", wd.Text, wd.Box, sideways.Bounds())
			break
		}
	}
	// At a slant of 20° the page is straightened for both readers: the
	// same fields, the total's box put back around its slanted line.
	slanted := ppocr.Upright{Tilt: -20 * math.Pi / 180}.Page(upright)
	got, err = p.Extract(context.Background(), inference.Page{Image: slanted})
	if err != nil {
		t.Fatal(err)
	}
	r = got.Receipt
	// Resampled, the name's letters may space a little differently.
	unspaced := func(s string) string { return strings.ReplaceAll(s, " ", "") }
	if !r.Total.Value.Equal(w.Total.Value) || !r.Date.Value.Equal(w.Date.Value) || unspaced(r.SupplierName.Value) != unspaced(w.SupplierName.Value) {
		t.Fatalf("read at a slant: %s %s %q, upright: %s %s %q", r.Total.Value, r.Date.Value, r.SupplierName.Value, w.Total.Value, w.Date.Value, w.SupplierName.Value)
	}
	if b := r.Total.Box; b == nil || b.H < ub.W/3 || b.X+b.W > slanted.Bounds().Dx() || b.Y+b.H > slanted.Bounds().Dy() {
		t.Errorf("the slanted total's box %+v, want one around its line, on the %v page", b, slanted.Bounds())
	}
}

// A page whose total is trusted and whose date was read once has the
// date's line read again alone, not the whole page: SROIE 000's date is
// confirmed that way, its supplier by its legal name or its line read
// alone, and Tesseract never reads the page.
func TestADateReadOnceIsReadAgainOnItsLineNotThePage(t *testing.T) {
	if !TesseractBuilt {
		t.Skip("this build reads without Tesseract")
	}
	p := newPPOCRIn(t, receipt.CountryMY, true)
	res := extractDevReceipt(t, p, "000.jpg")
	r := res.Receipt
	if res.Engine != "ppocr" {
		t.Errorf("read by %s: the page was read again", res.Engine)
	}
	if ok, why := receipt.Trusted(r.Date, "date"); !ok {
		t.Errorf("date %s not trusted: %s", r.Date.Value, why)
	}
	lineLook := false
	for _, s := range r.Date.Support {
		lineLook = lineLook || s.Kind == receipt.EvidenceSecondReader && strings.Contains(s.Why, "line read again alone")
	}
	if !lineLook {
		t.Errorf("the date's support %v lacks its line read again", r.Date.Support)
	}
	if why := receipt.Unready(r, nil); len(why) > 0 {
		t.Errorf("not ready: %v", why)
	}
}

// An instance reading Bulgarian writes back in Cyrillic the words it read
// in their Latin lookalikes ("PECTO" for РЕСТО); an English one leaves
// them, and amounts and Latin words stay as read.
func TestAReaderOfCyrillicWritesLookalikesBack(t *testing.T) {
	if !TesseractBuilt {
		t.Skip("this build reads without Tesseract")
	}
	read := func() []inference.Word {
		return []inference.Word{{Text: "PECTO"}, {Text: "16.99"}, {Text: "BGN"}, {Text: "LED"}}
	}
	for langs, want := range map[string]string{"bul eng": "РЕСТО 16.99 BGN LED", "eng": "PECTO 16.99 BGN LED"} {
		c, err := newClient(Options{Languages: strings.Fields(langs)}, 6)
		if err != nil {
			t.Skipf("%s: %v", langs, err)
		}
		var got []string
		for _, w := range lookalikesInScript(read(), clientScript(c)) {
			got = append(got, w.Text)
		}
		c.Close()
		if strings.Join(got, " ") != want {
			t.Errorf("%s: %q, want %q", langs, strings.Join(got, " "), want)
		}
	}
}
