package fields

import (
	"os"
	"testing"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/receipt"
)

func TestZZDebug(t *testing.T) {
	f, err := os.Open(os.Getenv("ZZ_LINES"))
	if err != nil {
		t.Skip()
	}
	words, _ := inference.ReadWords(f)
	lines := GroupLines(words)
	loc := receipt.DefaultLocale(receipt.Country(os.Getenv("ZZ_COUNTRY")))
	r := ExtractFields(lines, loc, testNow)
	t.Logf("total %v %q sub %v tax %v", r.Total.Value, r.Total.Why, r.Subtotal.Value, r.TotalTax.Value)
	ml := mendLineText(trimEdgeSpecks(lines))
	up := make([]string, len(ml))
	for i, l := range ml {
		up[i] = moneyKeywords(l, nil)
	}
	t.Logf("unread %v", unreadSumsAfterSubtotal(ml, up))
	_, det := PageLocale(ml, loc)
	t.Logf("det %s %v %q", det.Pack.Country, det.Sure, det.Why)
}
