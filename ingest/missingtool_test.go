package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Without poppler's tools a PDF is refused for what this computer lacks,
// not called damaged (the Windows build has no poppler yet).
func TestPDFWithoutPopplerIsNotCalledDamaged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "invoice.pdf")
	if err := os.WriteFile(path, []byte("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", t.TempDir()) // no pdfinfo anywhere
	_, err := Probe(context.Background(), path, DefaultLimits())
	var r *Refusal
	if !errors.As(err, &r) {
		t.Fatalf("got %v, want a refusal", err)
	}
	if strings.Contains(r.Reason, "damaged") || !strings.Contains(r.Reason, "pdfinfo") {
		t.Errorf("reason %q", r.Reason)
	}
}
