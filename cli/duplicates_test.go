package cli

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/library"
	"github.com/shoebox-app/shoebox/receipt"
)

// A receipt marked as a copy is listed as one and left out of `export`,
// which says so.
func TestExportSaysWhichCopiesItLeftOut(t *testing.T) {
	dir := t.TempDir()
	l, err := library.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var ids []int64
	for i := range 2 {
		p := filepath.Join(t.TempDir(), fmt.Sprintf("r%d.png", i))
		f, _ := os.Create(p)
		png.Encode(f, image.NewGray(image.Rect(0, 0, 40+i, 60)))
		f.Close()
		res := l.ImportFile(ctx, p, ingest.DefaultLimits())
		if res.Outcome != library.Added {
			t.Fatalf("import: %+v", res)
		}
		var r receipt.Receipt
		receipt.Set(&r, "supplier_name", "SOON HUAT", receipt.SourceOCR, l.Locale())
		receipt.Set(&r, "date", "11/01/2019", receipt.SourceOCR, l.Locale())
		receipt.Set(&r, "total", "327.00", receipt.SourceOCR, l.Locale())
		receipt.Set(&r, "currency", "MYR", receipt.SourceOCR, l.Locale())
		if err := l.SaveExtraction(ctx, res.ID, r, "ocr", receipt.SourceOCR); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.ID)
	}
	if err := l.Confirm(ctx, ids[0]); err != nil {
		t.Fatal(err)
	}
	if err := l.MarkDuplicate(ctx, ids[1], ids[0]); err != nil {
		t.Fatal(err)
	}
	l.Close()

	code, out, _ := run(t, "list", "--library", dir)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("copy of #%d, left out of exports", ids[0])) || !strings.Contains(out, "1 duplicate") {
		t.Fatalf("list: %d\n%s", code, out)
	}
	for _, args := range [][]string{{"-o", "tax.xlsx"}, {"--all", "-o", "all.csv"}} {
		args[len(args)-1] = filepath.Join(t.TempDir(), args[len(args)-1])
		code, out, errOut := run(t, append([]string{"export", "--library", dir}, args...)...)
		if code != 0 || !strings.Contains(out, "1 receipts, 0 line items") ||
			!strings.Contains(out, fmt.Sprintf("1 receipt marked as a duplicate was left out (#%d)", ids[1])) {
			t.Errorf("export %v: %d\n%s%s", args, code, out, errOut)
		}
	}
}
