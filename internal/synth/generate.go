package synth

import (
	"fmt"
	"math/rand"
	"strings"
	"time"

	"github.com/shoebox-app/shoebox/receipt"
)

// Country presets: what a receipt from each place prints.
var countryPresets = map[string]struct {
	suffixes  []string
	taxLabel  string
	rates     []int
	inclusive bool
	currency  string
	comma     bool
	dateFmt   []string // Go layouts
	streets   []string
	cities    []string
}{
	"AU": {
		[]string{"PTY LTD", "PTY. LTD.", ""},
		"GST",
		[]int{10},
		true, "$", false,
		[]string{"02/01/2006", "2 Jan 2006", "02-01-2006"},
		[]string{"GEORGE STREET", "PITT STREET", "CHAPEL ROAD", "BEACH ROAD", "KING STREET"},
		[]string{"SYDNEY NSW 2000", "MELBOURNE VIC 3000", "BRISBANE QLD 4000", "PERTH WA 6000", "HOBART TAS 7000"},
	},
	"UK": {
		[]string{"LTD", "LIMITED", ""},
		"VAT",
		[]int{20},
		true, "£", false,
		[]string{"02/01/2006", "2 Jan 2006", "02/01/06"},
		[]string{"HIGH STREET", "STATION ROAD", "CHURCH LANE", "MILL ROAD", "LONDON ROAD"},
		[]string{"LEEDS LS1 4AB", "YORK YO1 7HH", "BATH BA1 1SU", "LEICESTER LE1 5YA", "DERBY DE1 2PQ"},
	},
	"US": {
		[]string{"INC", "LLC", ""},
		"SALES TAX",
		[]int{6, 7, 8},
		false, "$", false,
		[]string{"01/02/2006", "Jan 2, 2006", "01-02-2006"},
		[]string{"MAIN ST", "OAK AVE", "ELM ST", "PARK BLVD", "LAKE DR"},
		[]string{"AUSTIN TX 78701", "DENVER CO 80202", "SALEM OR 97301", "TOLEDO OH 43604", "RENO NV 89501"},
	},
	"EU": {
		[]string{"GMBH", "KG", ""},
		"MWST",
		[]int{19, 7},
		true, "EUR ", true,
		[]string{"02.01.2006", "02.01.06"},
		[]string{"HAUPTSTRASSE", "BAHNHOFSTRASSE", "GARTENWEG", "SCHULSTRASSE", "MARKTPLATZ"},
		[]string{"10115 BERLIN", "80331 MUENCHEN", "50667 KOELN", "04109 LEIPZIG", "28195 BREMEN"},
	},
}

var (
	namePrefixes = []string{
		"HARBOUR", "CORNER", "RIVERSIDE", "GREENFIELD", "OAKWOOD", "NORTHSIDE", "BAYVIEW",
		"MAIN STREET", "HILLTOP", "PARKSIDE", "STATION", "WESTGATE", "SUNRISE", "OLD MILL", "BLUE DOOR",
	}
	trades = []string{
		"HARDWARE", "STATIONERS", "CAFE", "BAKERY", "PHARMACY", "BOOKS", "ELECTRICAL", "GROCER",
		"GARDEN SUPPLIES", "OFFICE SUPPLIES", "TIMBER", "PRINTING",
	}
	itemNames = []string{
		"HAMMER", "NAILS 1KG", "PRINTER PAPER", "TONER", "A4 FOLDERS", "GEL PENS", "COFFEE",
		"SANDWICH", "BATTERIES AA", "EXTENSION LEAD", "PAINT BRUSH", "MASKING TAPE", "NOTEBOOK", "STAPLER",
		"SCREWS 50PK", "WOOD GLUE", "LIGHT BULB", "CABLE TIES", "DESK LAMP", "ENVELOPES",
	}
	totalLabels = []string{"TOTAL", "TOTAL DUE", "AMOUNT DUE", "BALANCE DUE", "GRAND TOTAL"}
)

// Countries are those Generate knows.
var Countries = []string{"AU", "UK", "US", "EU"}

// Generate makes a random receipt from a country ("AU", "UK", "US", "EU",
// or one of PackCountries) in one of the layouts: the same seed gives the
// same receipt.
func Generate(seed int64, country string) (Receipt, error) {
	if lp, ok := localPresets[country]; ok {
		return generateLocal(seed, country, lp)
	}
	p, ok := countryPresets[country]
	if !ok {
		return Receipt{}, fmt.Errorf("synth: no preset for country %q (have %s)", country, strings.Join(append(Countries[:len(Countries):len(Countries)], PackCountries...), ", "))
	}
	rng := rand.New(rand.NewSource(seed))
	pick := func(xs []string) string { return xs[rng.Intn(len(xs))] }
	name := pick(namePrefixes) + " " + pick(trades)
	if s := pick(p.suffixes); s != "" {
		name += " " + s
	}
	r := Receipt{
		Supplier:  name,
		Address:   []string{fmt.Sprintf("%d %s", 1+rng.Intn(240), pick(p.streets)), pick(p.cities)},
		TaxLabel:  p.taxLabel,
		TaxRate:   p.rates[rng.Intn(len(p.rates))],
		Inclusive: p.inclusive,
		Currency:  p.currency,
		Comma:     p.comma,
		Layout:    Layout(rng.Intn(int(layoutCount))),
		TotalWord: pick(totalLabels),
	}
	r.ISOCurrency = currencies[country]
	if country == "EU" {
		r.Address[0] = fmt.Sprintf("%s %d", pick(p.streets), 1+rng.Intn(120))
	}
	switch country {
	case "AU":
		r.TaxID = "ABN " + spaced(validABN(rng), 2, 3, 3, 3)
	case "UK":
		r.TaxID = "VAT No GB " + spaced(validUKVAT(rng), 3, 4, 2)
	case "US":
		r.TaxID = "" // US receipts seldom print a tax number
	case "EU":
		first := fmt.Sprintf("%08d", rng.Intn(1e8))
		r.TaxID = fmt.Sprintf("USt-IdNr DE%s%d", first, receipt.GermanVATCheckDigit(first))
	}
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, rng.Intn(700))
	r.Date = day.Format(pick(p.dateFmt))
	r.ISODate = day.Format("2006-01-02")
	r.Time = fmt.Sprintf("%02d:%02d", 8+rng.Intn(12), rng.Intn(60))
	used := map[string]bool{}
	for n := 1 + rng.Intn(6); len(r.Items) < n; {
		d := pick(itemNames)
		if used[d] {
			continue
		}
		used[d] = true
		qty := 1
		if rng.Intn(3) == 0 {
			qty = 2 + rng.Intn(4)
		}
		r.Items = append(r.Items, Item{Desc: d, Qty: qty, UnitCents: int64(99 + rng.Intn(6000))})
	}
	if rng.Intn(2) == 0 {
		_, _, total := r.Totals()
		r.CashCents = (total/1000 + 1 + int64(rng.Intn(3))) * 1000 // the next note or two up
	}
	return r, nil
}

// WithItems gives r n purchased lines (item names numbered once the
// list runs out), for measuring the engines on long receipts.
func WithItems(r Receipt, n int, seed int64) Receipt {
	if r.Local != nil {
		return withLocalItems(r, n, seed)
	}
	rng := rand.New(rand.NewSource(seed))
	r.Items = nil
	for i := 0; i < n; i++ {
		d := itemNames[i%len(itemNames)]
		if i >= len(itemNames) {
			d = fmt.Sprintf("%s %d", d, i/len(itemNames)+1)
		}
		qty := 1
		if rng.Intn(3) == 0 {
			qty = 2 + rng.Intn(4)
		}
		r.Items = append(r.Items, Item{Desc: d, Qty: qty, UnitCents: int64(99 + rng.Intn(6000))})
	}
	if r.CashCents > 0 {
		_, _, total := r.Totals()
		r.CashCents = (total/1000 + 1) * 1000
	}
	return r
}

// spaced groups digits as receipts print them: "51 824 753 556".
func spaced(digits string, groups ...int) string {
	var parts []string
	for _, g := range groups {
		parts = append(parts, digits[:g])
		digits = digits[g:]
	}
	return strings.Join(parts, " ")
}

// validABN draws an 11-digit ABN that passes the modulus-89 check.
func validABN(rng *rand.Rand) string {
	weights := [11]int{10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19}
	for {
		d := make([]int, 11)
		for i := range d {
			d[i] = rng.Intn(10)
		}
		d[0] = 1 + rng.Intn(9)
		sum := 0
		for i, x := range d {
			if i == 0 {
				x--
			}
			sum += x * weights[i]
		}
		if sum%89 == 0 {
			var b strings.Builder
			for _, x := range d {
				b.WriteByte(byte('0' + x))
			}
			return b.String()
		}
	}
}

// validUKVAT draws a 9-digit UK VAT number that passes HMRC's modulus-97 check.
func validUKVAT(rng *rand.Rand) string {
	for {
		d := make([]int, 7)
		sum := 0
		for i := range d {
			d[i] = rng.Intn(10)
			sum += d[i] * (8 - i)
		}
		check := (97 - sum%97) % 97
		if check < 100 {
			s := ""
			for _, x := range d {
				s += string(rune('0' + x))
			}
			return s + fmt.Sprintf("%02d", check)
		}
	}
}
