package bank

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds damaged statements of every format to the readers: an
// error is fine, a panic or balances that do not add up are not.
// Run: go test -fuzz FuzzParse ./bank/
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("fuzz", data, Options{Currency: "AUD", DayFirst: true})
		if err != nil {
			return
		}
		for _, l := range s.Lines {
			if l.Date.IsZero() {
				t.Fatalf("a line without a date: %+v", l)
			}
		}
	})
}
