package library

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/receipt"
)

var ctx = context.Background()

const sroieDir = "../../shared/data/sroie-dev"

func openTemp(t testing.TB) *Library {
	t.Helper()
	l, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// uniquePNG writes a small PNG whose pixels encode n, so each n is a distinct file.
func uniquePNG(t testing.TB, dir string, n int) string {
	img := image.NewGray(image.Rect(0, 0, 64, 96))
	for i := range img.Pix {
		img.Pix[i] = byte(200 + i%50)
	}
	for b := 0; b < 32; b++ {
		if n>>b&1 == 1 {
			img.SetGray(b, 0, color.Gray{})
		}
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	p := filepath.Join(dir, fmt.Sprintf("r%05d.png", n))
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func amount(s string) receipt.Amount {
	return receipt.Of(decimal.RequireFromString(s), receipt.SourceModel, 0.95)
}

func extracted(supplier string, date time.Time, total string) receipt.Receipt {
	return receipt.Receipt{
		SupplierName: receipt.Of(supplier, receipt.SourceModel, 0.95),
		Date:         receipt.Of(date, receipt.SourceModel, 0.95),
		Total:        amount(total),
		Currency:     receipt.Of("AUD", receipt.SourceModel, 0.95),
	}
}

func importOne(t *testing.T, l *Library, n int) int64 {
	t.Helper()
	r := l.ImportFile(ctx, uniquePNG(t, t.TempDir(), n), ingest.DefaultLimits())
	if r.Outcome != Added {
		t.Fatalf("import: %+v", r)
	}
	return r.ID
}

func TestImportSROIETwice(t *testing.T) {
	if _, err := os.Stat(sroieDir); err != nil {
		t.Skip("shared SROIE receipts not present")
	}
	l := openTemp(t)
	first := l.Import(ctx, []string{sroieDir}, ingest.DefaultLimits(), nil)
	added := 0
	for _, r := range first {
		switch {
		case r.Outcome == Added:
			added++
		case strings.HasSuffix(r.Path, ".jpg"):
			t.Errorf("%s: %s %s", r.Path, r.Outcome, r.Reason)
		}
	}
	if added != 80 {
		t.Fatalf("added %d receipts, want 80", added)
	}
	// The .json and .box.csv label files beside them are refused with a reason.
	for _, r := range first {
		if strings.HasSuffix(r.Path, ".json") && (r.Outcome != Refused || !strings.Contains(r.Reason, "plain text")) {
			t.Errorf("%s: %+v", r.Path, r)
		}
	}
	again := l.Import(ctx, []string{sroieDir}, ingest.DefaultLimits(), nil)
	for _, r := range again {
		if r.Outcome == Added {
			t.Errorf("re-import added %s", r.Path)
		}
	}
	counts, _ := l.Counts()
	if counts[StatusNew] != 80 {
		t.Errorf("counts = %v", counts)
	}
	var firstID int64
	for _, r := range first {
		if r.Outcome == Added {
			firstID = r.ID
			break
		}
	}
	rec, err := l.Get(firstID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(l.OriginalPath(rec)); err != nil {
		t.Errorf("original not stored: %v", err)
	}
	if _, err := os.Stat(l.Thumbnail(rec)); err != nil {
		t.Errorf("thumbnail not written: %v", err)
	}
}

func TestBadFilesDoNotStopTheBatch(t *testing.T) {
	l := openTemp(t)
	dir := t.TempDir()
	good := uniquePNG(t, dir, 1)
	data, _ := os.ReadFile(good)
	os.WriteFile(filepath.Join(dir, "a-truncated.png"), data[:len(data)/2], 0o644)
	os.WriteFile(filepath.Join(dir, "b-letter.pdf"), []byte("Dear accountant, this is not a PDF at all.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "c-empty.jpg"), nil, 0o644)
	var bomb bytes.Buffer
	png.Encode(&bomb, image.NewGray(image.Rect(0, 0, 1, 1)))
	b := bomb.Bytes()
	// rewrite the IHDR size to 20000×20000, with its CRC, leaving a tiny body
	copy(b[16:24], []byte{0, 0, 0x4e, 0x20, 0, 0, 0x4e, 0x20})
	binary.BigEndian.PutUint32(b[29:33], crc32.ChecksumIEEE(b[12:29]))
	os.WriteFile(filepath.Join(dir, "d-huge.png"), b, 0o644)
	uniquePNG(t, dir, 2)

	res := l.Import(ctx, []string{dir}, ingest.DefaultLimits(), nil)
	want := map[string]string{
		"a-truncated.png": "damaged png image",
		"b-letter.pdf":    "not a receipt Shoebox can open",
		"c-empty.jpg":     "is empty",
		"d-huge.png":      "over the 80-megapixel limit",
	}
	added := 0
	for _, r := range res {
		name := filepath.Base(r.Path)
		if reason, bad := want[name]; bad {
			if r.Outcome != Refused || !strings.Contains(r.Reason, reason) {
				t.Errorf("%s: %s %q, want refused with %q", name, r.Outcome, r.Reason, reason)
			}
		} else if r.Outcome == Added {
			added++
		}
	}
	if added != 2 {
		t.Errorf("added %d, want the 2 good files", added)
	}
}

func TestLifecycleAndHistory(t *testing.T) {
	l := openTemp(t)
	id := importOne(t, l, 7)
	if err := l.SetStatus(ctx, id, StatusConfirmed, receipt.SourceUser, ""); err == nil {
		t.Fatal("a new receipt was confirmed before being read")
	}
	if n, err := l.Enqueue(ctx, []int64{id}, false); err != nil || n != 1 {
		t.Fatalf("enqueue: %d %v", n, err)
	}
	got, ok, err := l.NextQueued(ctx)
	if err != nil || !ok || got != id {
		t.Fatalf("NextQueued = %d %v %v", got, ok, err)
	}
	r := extracted("Officeworks", receipt.Date(2025, 7, 16), "110.00")
	r.SupplierName.Confidence = 0.3 // unsure: must go to review
	if err := l.SaveExtraction(ctx, id, r, "ocr", receipt.SourceOCR); err != nil {
		t.Fatal(err)
	}
	rec, _ := l.Get(id)
	if rec.Status != StatusNeedsReview {
		t.Fatalf("status = %s, want needs_review", rec.Status)
	}
	if err := l.EditField(ctx, id, "total", "$120.50"); err != nil {
		t.Fatal(err)
	}
	if err := l.EditField(ctx, id, "date", "31/02/2025"); err == nil || !strings.Contains(err.Error(), "date") {
		t.Fatalf("bad date accepted: %v", err)
	}
	if err := l.Confirm(ctx, id); err != nil {
		t.Fatal(err)
	}
	rec, _ = l.Get(id)
	if rec.Status != StatusConfirmed || rec.Receipt.Total.Value.String() != "120.5" || rec.Receipt.Total.Source != receipt.SourceUser {
		t.Fatalf("after edit+confirm: %s %+v", rec.Status, rec.Receipt.Total)
	}
	hist, _ := l.History(id)
	var lines []string
	for _, h := range hist {
		lines = append(lines, fmt.Sprintf("%s %s %s %s→%s", h.Who, h.Kind, h.Field, h.Old, h.New))
	}
	joined := strings.Join(lines, "\n")
	for _, want := range []string{
		"system status  →new", "user status  new→queued", "system status  queued→extracting",
		"ocr field supplier_name →Officeworks", "ocr field total →110", "system status  extracting→needs_review",
		"user field total 110→120.5", "user status  needs_review→confirmed",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("history lacks %q:\n%s", want, joined)
		}
	}
	// Editing a confirmed receipt sends it back to review; undo restores.
	if err := l.EditField(ctx, id, "total", "99"); err != nil {
		t.Fatal(err)
	}
	if f, err := l.Undo(ctx, id); err != nil || f != "total" {
		t.Fatalf("undo: %s %v", f, err)
	}
	rec, _ = l.Get(id)
	if rec.Status != StatusNeedsReview || rec.Receipt.Total.Value.String() != "120.5" {
		t.Fatalf("after undo: %s %s", rec.Status, rec.Receipt.Total.Value)
	}
}

// A receipt is ready to confirm only with evidence for total and date.
func TestCleanExtractionIsReadyToConfirm(t *testing.T) {
	l := openTemp(t)
	l.now = func() time.Time { return time.Date(2025, 9, 1, 0, 0, 0, 0, time.UTC) }
	id, once := importOne(t, l, 8), importOne(t, l, 9)
	if err := l.SaveExtraction(ctx, once, extracted("Bunnings", receipt.Date(2025, 7, 2), "12.00"), "vlm", receipt.SourceModel); err != nil {
		t.Fatal(err)
	}
	r := extracted("Bunnings", receipt.Date(2025, 7, 1), "10.00")
	two := []receipt.Support{{Kind: receipt.EvidenceReading}, {Kind: receipt.EvidenceSecondReader}}
	r.Total.Support, r.Date.Support = two, two
	if err := l.SaveExtraction(ctx, id, r, "vlm", receipt.SourceModel); err != nil {
		t.Fatal(err)
	}
	rec, _ := l.Get(id)
	if rec.Status != StatusExtracted || len(rec.Findings) != 0 {
		t.Fatalf("status %s findings %+v", rec.Status, rec.Findings)
	}
	// Read once, with nothing else to back total and date: to review.
	if rec, _ := l.Get(once); rec.Status != StatusNeedsReview {
		t.Errorf("a receipt whose total and date were read once: status %s", rec.Status)
	}
}

func TestProbableDuplicateIsFlaggedNotDropped(t *testing.T) {
	l := openTemp(t)
	a, b, c := importOne(t, l, 1), importOne(t, l, 2), importOne(t, l, 3)
	l.SaveExtraction(ctx, a, extracted("SOON HUAT SDN. BHD.", receipt.Date(2025, 7, 1), "327.00"), "ocr", receipt.SourceOCR)
	l.SaveExtraction(ctx, b, extracted("Soon Huat Sdn Bhd", receipt.Date(2025, 7, 1), "327.01"), "ocr", receipt.SourceOCR)
	l.SaveExtraction(ctx, c, extracted("Soon Huat Sdn Bhd", receipt.Date(2025, 7, 1), "327.02"), "ocr", receipt.SourceOCR)
	recB, _ := l.Get(b)
	recC, _ := l.Get(c)
	if recB.DuplicateOf != a || recB.Status != StatusNeedsReview {
		t.Errorf("b: duplicate_of %d status %s", recB.DuplicateOf, recB.Status)
	}
	found := false
	for _, f := range recB.Findings {
		found = found || (f.Code == FindDuplicate && strings.Contains(f.Message, fmt.Sprint(a)))
	}
	if !found {
		t.Errorf("b has no duplicate finding naming %d: %+v", a, recB.Findings)
	}
	if recC.DuplicateOf == a {
		t.Errorf("c is two cents off a but was linked to it")
	}
	if recC.DuplicateOf != b {
		t.Errorf("c is one cent off b: duplicate_of = %d", recC.DuplicateOf)
	}
	all, _ := l.List(Filter{})
	if len(all) != 3 {
		t.Errorf("duplicates were dropped: %d receipts", len(all))
	}
}

func TestSupplierMemory(t *testing.T) {
	l := openTemp(t)
	first, second := importOne(t, l, 1), importOne(t, l, 2)
	r := extracted("Bunnings Warehouse", receipt.Date(2025, 7, 1), "10.00")
	l.SaveExtraction(ctx, first, r, "ocr", receipt.SourceOCR)
	l.EditField(ctx, first, "category", "Hardware")
	l.EditField(ctx, first, "supplier_tax_id", "ABN 51 824 753 556")
	if err := l.Confirm(ctx, first); err != nil {
		t.Fatal(err)
	}
	l.SaveExtraction(ctx, second, extracted("BUNNINGS WAREHOUSE", receipt.Date(2025, 8, 1), "20.00"), "ocr", receipt.SourceOCR)
	rec, _ := l.Get(second)
	if rec.Receipt.Category.Value != "Hardware" || rec.Receipt.Category.Source != receipt.SourceRule {
		t.Errorf("category = %+v", rec.Receipt.Category)
	}
	if rec.Receipt.SupplierTaxID.Value.Value != "51824753556" || rec.Receipt.SupplierTaxID.Source != receipt.SourceRule {
		t.Errorf("tax id = %+v", rec.Receipt.SupplierTaxID)
	}
	hist, _ := l.History(second)
	ruled := false
	for _, h := range hist {
		ruled = ruled || (h.Who == receipt.SourceRule && h.Field == "category")
	}
	if !ruled {
		t.Error("history does not say the category came from a rule")
	}
}

// A supplier whose logo was misread is named as the client confirmed it
// before, when the page prints the tax ID confirmed for that supplier.
func TestTheConfirmedTaxIDNamesTheSupplier(t *testing.T) {
	l := openTemp(t)
	first, second := importOne(t, l, 1), importOne(t, l, 2)
	l.SaveExtraction(ctx, first, extracted("Bunnings Warehouse", receipt.Date(2025, 7, 1), "10.00"), "ocr", receipt.SourceOCR)
	l.EditField(ctx, first, "supplier_tax_id", "ABN 51 824 753 556")
	if err := l.Confirm(ctx, first); err != nil {
		t.Fatal(err)
	}
	garbled := extracted("BUNN1 NG5 WAREH", receipt.Date(2025, 8, 1), "20.00")
	garbled.SupplierTaxID = receipt.Of(receipt.TaxID{Scheme: receipt.SchemeABN, Value: "51824753556"}, receipt.SourceOCR, 0.9)
	l.SaveExtraction(ctx, second, garbled, "ocr", receipt.SourceOCR)
	rec, _ := l.Get(second)
	if got := rec.Receipt.SupplierName; got.Value != "Bunnings Warehouse" || len(got.Support) == 0 || got.Support[0].Kind != receipt.EvidenceMemory {
		t.Errorf("supplier = %+v, want the confirmed name backed by memory", got)
	}
	// A tax ID whose check digits fail names nobody.
	third := importOne(t, l, 3)
	wrong := extracted("SOMETHING ELSE", receipt.Date(2025, 8, 2), "5.00")
	wrong.SupplierTaxID = receipt.Of(receipt.TaxID{Scheme: receipt.SchemeABN, Value: "51824753557"}, receipt.SourceOCR, 0.9)
	l.SaveExtraction(ctx, third, wrong, "ocr", receipt.SourceOCR)
	if rec, _ := l.Get(third); rec.Receipt.SupplierName.Value != "SOMETHING ELSE" {
		t.Errorf("an invalid tax ID renamed the supplier: %q", rec.Receipt.SupplierName.Value)
	}
}

func TestQueries(t *testing.T) {
	l := openTemp(t)
	l.now = func() time.Time { return time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC) }
	rows := []struct {
		supplier, category string
		date               time.Time
	}{
		{"Officeworks", "Stationery", receipt.Date(2025, 6, 30)},
		{"Officeworks", "Stationery", receipt.Date(2025, 7, 1)},
		{"Bunnings", "Hardware", receipt.Date(2025, 9, 30)},
		{"Qantas", "Travel", receipt.Date(2025, 10, 1)},
	}
	for i, row := range rows {
		id := importOne(t, l, 100+i)
		r := extracted(row.supplier, row.date, fmt.Sprintf("%d.00", 10+i))
		r.Category = receipt.Of(row.category, receipt.SourceUser, 1)
		l.SaveExtraction(ctx, id, r, "ocr", receipt.SourceOCR)
	}
	importOne(t, l, 200) // unread, no date
	fy, _ := receipt.ParsePeriod("FY2026", time.July)
	q3, _ := receipt.ParsePeriod("2025-Q3", time.July)
	jun, _ := receipt.ParsePeriod("2025-06", time.July)
	tests := []struct {
		name string
		f    Filter
		want int
	}{
		{"all", Filter{}, 5},
		{"AU FY2026", Filter{Period: &fy}, 3},
		{"Q3", Filter{Period: &q3}, 2},
		{"June", Filter{Period: &jun}, 1},
		{"supplier substring", Filter{Supplier: "office"}, 2},
		{"category", Filter{Category: "Hardware"}, 1},
		{"status new", Filter{Statuses: []Status{StatusNew}}, 1},
		{"text total", Filter{Text: "13"}, 1},
		{"like wildcard is literal", Filter{Supplier: "%"}, 0},
		{"paging", Filter{Limit: 2, Offset: 4}, 1},
	}
	for _, tt := range tests {
		got, err := l.List(tt.f)
		if err != nil || len(got) != tt.want {
			t.Errorf("%s: %d rows (%v), want %d", tt.name, len(got), err, tt.want)
		}
	}
	counts, _ := l.Counts()
	if counts[StatusNew] != 1 || counts[StatusExtracted]+counts[StatusNeedsReview] != 4 || counts[StatusConfirmed] != 0 {
		t.Errorf("counts = %v", counts)
	}
}

func TestResumeInterrupted(t *testing.T) {
	l := openTemp(t)
	id := importOne(t, l, 1)
	l.Enqueue(ctx, []int64{id}, false)
	l.NextQueued(ctx)
	// This program is alive and reading it: nothing to take back.
	if n, err := l.ResumeInterrupted(ctx); err != nil || n != 0 {
		t.Fatalf("resume took a live claim: %d %v", n, err)
	}
	claimFor(t, l, id, deadOwner(t), time.Now().Add(time.Hour))
	if n, err := l.ResumeInterrupted(ctx); err != nil || n != 1 {
		t.Fatalf("resume: %d %v", n, err)
	}
	rec, _ := l.Get(id)
	if rec.Status != StatusQueued {
		t.Errorf("status = %s", rec.Status)
	}
}

func TestLibraryDirFromEnvironment(t *testing.T) {
	t.Setenv("SHOEBOX_HOME", "/tmp/portable")
	if d, _ := DefaultDir(); d != "/tmp/portable" {
		t.Errorf("SHOEBOX_HOME ignored: %s", d)
	}
	t.Setenv("SHOEBOX_HOME", "")
	t.Setenv("XDG_DATA_HOME", "/tmp/xdg")
	if d, _ := DefaultDir(); d != "/tmp/xdg/shoebox" {
		t.Errorf("XDG_DATA_HOME ignored: %s", d)
	}
}

func TestLocaleSetting(t *testing.T) {
	l := openTemp(t)
	if l.Locale().Country != receipt.CountryAU {
		t.Fatal("default is not AU")
	}
	uk := receipt.DefaultLocale(receipt.CountryUK)
	if err := l.SetLocale(uk); err != nil {
		t.Fatal(err)
	}
	if got := l.Locale(); got != uk {
		t.Errorf("locale = %+v", got)
	}
}

// A receipt that prints no tax ID (a US shop's), its name read unsurely,
// names its supplier as the client confirmed it before when it prints the
// phone number confirmed for that supplier, however written; a name read
// surely, a valid tax ID, or a number two suppliers share keep the page's.
func TestTheConfirmedPhoneNamesTheSupplier(t *testing.T) {
	l := openTemp(t)
	us := func(name, phone string, sure bool) receipt.Receipt {
		r := extracted(name, receipt.Date(2025, 8, 16), "54.46")
		r.PrintedIn = receipt.Of("US", receipt.SourceOCR, 0.7)
		r.SupplierPhone = receipt.Of(phone, receipt.SourceOCR, 0.7)
		if !sure {
			r.SupplierName.Doubt = "the name may be misread"
		}
		return r
	}
	page := 10
	read := func(r receipt.Receipt) string {
		page++
		id := importOne(t, l, page)
		l.SaveExtraction(ctx, id, r, "ocr", receipt.SourceOCR)
		rec, _ := l.Get(id)
		return rec.Receipt.SupplierName.Value
	}
	confirm := func(r receipt.Receipt, as string) {
		page++
		id := importOne(t, l, page)
		l.SaveExtraction(ctx, id, r, "ocr", receipt.SourceOCR)
		l.EditField(ctx, id, "supplier_name", as)
		if err := l.Confirm(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	confirm(us("DRIFTLESS ACRES", "(608) 555-0117", true), "Driftless Acres Farm")
	id := importOne(t, l, 2)
	l.SaveExtraction(ctx, id, us("DRIRTLESS ACRES", "608-555-0117", false), "ocr", receipt.SourceOCR)
	rec, _ := l.Get(id)
	if got := rec.Receipt.SupplierName; got.Value != "Driftless Acres Farm" || len(got.Support) == 0 || got.Support[0].Kind != receipt.EvidenceMemory {
		t.Errorf("supplier = %+v, want the confirmed name backed by memory", got)
	}
	if got := read(us("SPARKLE EXPRESS", "(713) 555-0148", false)); got != "SPARKLE EXPRESS" {
		t.Errorf("another phone number renamed the supplier: %q", got)
	}
	if got := read(us("FARMERS MARKET CAFE", "608-555-0117", true)); got != "FARMERS MARKET CAFE" {
		t.Errorf("a name read surely was renamed: %q", got)
	}
	withID := us("BUNN1NGS", "608-555-0117", false)
	withID.SupplierTaxID = receipt.Of(receipt.TaxID{Scheme: receipt.SchemeABN, Value: "51824753556"}, receipt.SourceOCR, 0.9)
	if got := read(withID); got != "BUNN1NGS" {
		t.Errorf("a page with a valid tax ID was named by its phone: %q", got)
	}
	confirm(us("MARKET HALL", "608-555-0117", true), "Market Hall")
	if got := read(us("DRIRTLESS ACRES", "608-555-0117", false)); got != "DRIRTLESS ACRES" {
		t.Errorf("a number two suppliers share named one: %q", got)
	}
}
