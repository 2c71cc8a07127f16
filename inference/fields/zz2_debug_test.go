package fields

import (
	"fmt"
	"os"
	"testing"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/receipt"
)

func TestZZSteps(t *testing.T) {
	f, err := os.Open(os.Getenv("ZZ_LINES"))
	if err != nil {
		t.Skip()
	}
	words, _ := inference.ReadWords(f)
	lines := GroupLines(words)
	loc := receipt.DefaultLocale(receipt.Country(os.Getenv("ZZ_COUNTRY")))
	r := ExtractFields(lines, loc, testNow)
	fmt.Printf("%q %s\n", r.SupplierName.Value, r.SupplierName.Why)
}
