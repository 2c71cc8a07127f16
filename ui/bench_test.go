package ui

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/software"
	"fyne.io/fyne/v2/test"

	"github.com/shoebox-app/shoebox/library"
)

// tenThousand makes a library of 10,000 read receipts by writing rows
// straight into its database: importing real files would take minutes.
func tenThousand(b *testing.B) string {
	dir := b.TempDir()
	l, err := library.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	l.Close()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "library.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	tx, _ := db.Begin()
	stmt, err := tx.Prepare(`INSERT INTO receipts (sha256, original_name, source_path, stored_path, kind, size, pages, status, imported_at, updated_at,
		data, supplier, supplier_key, date, total, currency, warnings) VALUES (?, ?, ?, ?, 'image/jpeg', 1000, 1, ?, ?, ?, ?, ?, ?, ?, ?, 'AUD', ?)`)
	if err != nil {
		b.Fatal(err)
	}
	now := time.Now().UTC().Format(time.RFC3339Nano)
	statuses := []string{"extracted", "needs_review", "confirmed"}
	for i := 0; i < 10000; i++ {
		sha := fmt.Sprintf("%064x", i)
		supplier := fmt.Sprintf("Supplier %d Pty Ltd", i%500)
		data := fmt.Sprintf(`{"supplier_name":{"value":%q,"set":true,"confidence":0.9,"source":"ocr"},"total":{"value":"%d.50","set":true,"confidence":0.9,"source":"ocr"}}`, supplier, i%300)
		if _, err := stmt.Exec(sha, fmt.Sprintf("r%05d.jpg", i), "/x", "originals/x.jpg", statuses[i%3], now, now, data, supplier,
			fmt.Sprintf("supplier%dptyltd", i%500), fmt.Sprintf("2025-%02d-%02d", 1+i%12, 1+i%28), fmt.Sprintf("%d.50", i%300), i%7/6); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkOpenWindow10k measures opening the main window on a library of
// 10,000 receipts: reading the list and counts, building every panel and
// drawing the first frame. Run: go test -tags migrated_fynedo -run '^$' -bench OpenWindow10k ./ui
func BenchmarkOpenWindow10k(b *testing.B) {
	dir := tenThousand(b)
	a := test.NewTempApp(b)
	lib, err := library.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer lib.Close()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		w := a.NewWindow("bench")
		w.Resize(fyne.NewSize(1280, 800))
		u := New(a, w, Services{Lib: lib, Engine: &fakeEngine{}, EngineLabel: "bench"})
		w.Show()
		w.Canvas().(software.WindowlessCanvas).Capture() // the first frame
		if u.list.Len() != 10000 {
			b.Fatalf("list has %d rows", u.list.Len())
		}
		b.StopTimer()
		// Scrolling: jump through the list a page at a time.
		start := time.Now()
		for i := 0; i < 10000; i += 500 {
			u.list.widget.ScrollTo(i)
			w.Canvas().(software.WindowlessCanvas).Capture()
		}
		b.ReportMetric(float64(time.Since(start).Milliseconds())/20, "ms/scroll-frame")
		w.Close()
		b.StartTimer()
	}
}
