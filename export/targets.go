package export

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

// Target is what one preset's importer takes, as its program's published
// specification says (targets/targets.json, each entry with its source):
// its columns, field lengths, file limits, how it reads amounts, refunds
// and foreign currency, and the client countries the program serves.
type Target struct {
	Program         string         `json:"program"` // xero, myob, qbo: whose tax names apply
	Sources         []string       `json:"sources"`
	Columns         []string       `json:"columns"`
	MaxBills        int            `json:"max_bills,omitempty"`
	MaxRows         int            `json:"max_rows,omitempty"`
	MaxBytes        int            `json:"max_bytes,omitempty"`
	FieldMax        map[string]int `json:"field_max"`
	Amounts         string         `json:"amounts"`
	Refunds         string         `json:"refunds"`
	ForeignCurrency string         `json:"foreign_currency"`
	Countries       []string       `json:"countries"`
}

// TaxNames are the tax rate names a program takes in one country, with
// where that list comes from.
type TaxNames struct {
	Source string   `json:"source"`
	Names  []string `json:"names"`
}

type targetTable struct {
	Presets  map[Preset]Target              `json:"presets"`
	TaxNames map[string]map[string]TaxNames `json:"tax_names"` // program → country → names
}

//go:embed targets/targets.json
var targetsJSON []byte

var targets = func() targetTable {
	var t targetTable
	if err := json.Unmarshal(targetsJSON, &t); err != nil {
		panic(fmt.Sprintf("export/targets/targets.json: %v", err))
	}
	return t
}()

// TargetOf returns what preset p's importer takes.
func TargetOf(p Preset) Target { return targets.Presets[p] }

// ProgramTaxNames returns the tax names program takes in a client country,
// false when the table lists none for it.
func ProgramTaxNames(program, country string) (TaxNames, bool) {
	n, ok := targets.TaxNames[program][country]
	return n, ok
}

// serves says whether the preset's program is sold for the client's country.
func (t Target) serves(country string) bool {
	for _, c := range t.Countries {
		if c == country {
			return true
		}
	}
	return false
}
