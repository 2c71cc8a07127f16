package receipt

import (
	"testing"
)

func TestSetAndGet(t *testing.T) {
	loc := DefaultLocale(CountryAU)
	tests := []struct {
		path, in, want string
		wantErr        bool
	}{
		{"supplier_name", "  Bunnings  ", "Bunnings", false},
		{"total", "$1,530.00", "1530", false},
		{"total", "abc", "", true},
		{"date", "05/08/2025", "2025-08-05", false},
		{"date", "31/02/2025", "", true},
		{"tax_inclusive", "yes", "true", false},
		{"tax_inclusive", "maybe", "", true},
		{"supplier_tax_id", "ABN 51 824 753 556", "AU_ABN:51824753556", false},
		{"supplier_tax_id", "UK_VAT:GB 980 7806 84", "UK_VAT:GB980780684", false},
		{"currency", "gbp", "GBP", false},
		{"currency", "pounds", "", true},
		{"doc_type", "tax_invoice", "tax_invoice", false},
		{"doc_type", "memo", "", true},
		{"line_items[0].line_total", "9,90", "9.9", false},
		{"line_items[3].line_total", "1", "", true},
		{"tax_lines[0].rate", "10", "10", false},
		{"nonsense", "1", "", true},
		{"total", "", "", false}, // clearing
	}
	for _, tt := range tests {
		t.Run(tt.path+"="+tt.in, func(t *testing.T) {
			r := Receipt{LineItems: make([]LineItem, 1), TaxLines: make([]TaxLine, 1)}
			err := Set(&r, tt.path, tt.in, SourceUser, loc)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Set error = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			got, err := Get(&r, tt.path)
			if err != nil || got != tt.want {
				t.Fatalf("Get = %q, %v; want %q", got, err, tt.want)
			}
			set, conf, src, _, _ := Meta(&r, tt.path)
			if set != (tt.in != "") || (set && (src != SourceUser || conf != 1)) {
				t.Errorf("meta = set %v conf %v src %s", set, conf, src)
			}
		})
	}
}

func TestSetKeepsBox(t *testing.T) {
	r := Receipt{Total: Amount{Set: true, Box: &Box{X: 1, Y: 2, W: 3, H: 4}}}
	if err := Set(&r, "total", "5", SourceUser, DefaultLocale(CountryAU)); err != nil {
		t.Fatal(err)
	}
	if r.Total.Box == nil || r.Total.Box.W != 3 {
		t.Fatalf("box lost: %+v", r.Total)
	}
}

func TestEveryFieldSpecResolves(t *testing.T) {
	var r Receipt
	for _, f := range Fields {
		if _, err := Get(&r, f.Path); err != nil {
			t.Errorf("%s: %v", f.Path, err)
		}
	}
}
