package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shoebox-app/shoebox/einvoice"
	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/server"
	"github.com/shoebox-app/shoebox/ingest"
	"github.com/shoebox-app/shoebox/library"
)

// A server that lists its models to anyone but refuses the key for pages
// (llama-server and vLLM behind some proxies do): no receipt is the page's
// fault, none fails, the batch stops at once and says that the server
// refused the key.
func TestARefusedKeyLeavesReceiptsQueuedAndSaysSo(t *testing.T) {
	fastChecks(t)
	var pages atomic.Int32
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if r.URL.Path == "/v1/models" {
			io.WriteString(w, `{"data":[{"id":"m"}]}`)
			return
		}
		pages.Add(1)
		http.Error(w, `{"error":{"message":"invalid api key"}}`, http.StatusUnauthorized)
	}))
	defer s.Close()
	eng, err := server.New(server.Options{URL: s.URL, Model: "m", API: server.APIOpenAI, APIKey: "sk-wrong", Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	l, _ := setup(t, 4)
	r := &Runner{Lib: l, Engine: eng, Workers: 2}
	done := make(chan error, 1)
	go func() { done <- r.Run(context.Background()) }()
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the batch did not stop on a refused key")
	}
	if err == nil || !strings.Contains(err.Error(), "refused the key") || !errors.Is(err, inference.ErrUnavailable) {
		t.Errorf("Run: %v", err)
	}
	c, _ := l.Counts()
	if c[library.StatusFailed] != 0 || c[library.StatusQueued] != 4 {
		t.Errorf("counts %v", c)
	}
	if n := pages.Load(); n > 2 {
		t.Errorf("%d pages were sent after the key was refused", n)
	}
}

// onePagePDF is a PDF with one printed page and, when attach is set, an
// attachment named factur-x.xml holding it as a FlateDecode stream.
func onePagePDF(attach []byte) []byte {
	var b bytes.Buffer
	off := []int{}
	obj := func(s string) {
		off = append(off, b.Len())
		b.WriteString(s)
	}
	b.WriteString("%PDF-1.7\n")
	names := ""
	if attach != nil {
		names = " /Names << /EmbeddedFiles << /Names [(factur-x.xml) 6 0 R] >> >>"
	}
	obj("1 0 obj\n<< /Type /Catalog /Pages 2 0 R" + names + " >>\nendobj\n")
	obj("2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n")
	obj("3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>\nendobj\n")
	content := "BT /F1 14 Tf 20 150 Td (ACME GmbH  Rechnung 7) Tj 0 -30 Td (Total EUR 119.00) Tj ET"
	obj(fmt.Sprintf("4 0 obj\n<< /Length %d >>\nstream\n%s\nendstream\nendobj\n", len(content), content))
	obj("5 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\nendobj\n")
	n := 6
	if attach != nil {
		obj("6 0 obj\n<< /Type /Filespec /F (factur-x.xml) /UF (factur-x.xml) /AFRelationship /Alternative /EF << /F 7 0 R >> >>\nendobj\n")
		obj(fmt.Sprintf("7 0 obj\n<< /Type /EmbeddedFile /Subtype /text#2Fxml /Filter /FlateDecode /Length %d >>\nstream\n", len(attach)))
		b.Write(attach)
		b.WriteString("\nendstream\nendobj\n")
		n = 8
	}
	x := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", n)
	for _, o := range off {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", n, x)
	return b.Bytes()
}

// A PDF whose Factur-X attachment is damaged is read from its print, and
// the reading carries a finding that says so, for the reviewer to see.
func TestADamagedEInvoiceIsReadFromThePrintWithAFinding(t *testing.T) {
	l, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	p := filepath.Join(t.TempDir(), "rechnung.pdf")
	os.WriteFile(p, onePagePDF([]byte("x\x9c not deflate at all")), 0o600)
	imp := l.ImportFile(context.Background(), p, ingest.DefaultLimits())
	if imp.ID == 0 {
		t.Fatalf("not imported: %+v", imp)
	}
	if _, err := l.Enqueue(context.Background(), []int64{imp.ID}, false); err != nil {
		t.Fatal(err)
	}
	eng := &fakeEngine{}
	if err := (&Runner{Lib: l, Engine: eng, Workers: 1}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	rec, err := l.Get(imp.ID)
	if err != nil {
		t.Fatal(err)
	}
	if eng.calls.Load() != 1 || rec.Status == library.StatusFailed {
		t.Fatalf("the print was not read: %d pages, status %s", eng.calls.Load(), rec.Status)
	}
	var found string
	for _, f := range rec.Findings {
		if f.Code == einvoice.FindDamaged {
			found = f.Message
		}
	}
	if !strings.Contains(found, "carries an e-invoice that cannot be read") || !strings.Contains(found, "print") {
		t.Fatalf("findings %+v", rec.Findings)
	}
	if rec.Status != library.StatusNeedsReview {
		t.Errorf("status %s: a damaged e-invoice's reading wants review", rec.Status)
	}
	// A person's edit recomputes the findings: the damaged e-invoice stays.
	if err := l.EditField(context.Background(), imp.ID, "notes", "checked the total"); err != nil {
		t.Fatal(err)
	}
	rec, _ = l.Get(imp.ID)
	kept := false
	for _, f := range rec.Findings {
		kept = kept || f.Code == einvoice.FindDamaged
	}
	if !kept {
		t.Errorf("an edit dropped the finding: %+v", rec.Findings)
	}
}
