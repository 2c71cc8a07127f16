package cli

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// synth writes a labelled set that eval reads, scoring tax and line items
// beside SROIE's four fields; clean synthetic print reads right.
func TestSynthThenEval(t *testing.T) {
	dir := t.TempDir()
	if code, _, errb := run(t, "synth", "--out", dir, "--country", "UK", "-n", "3", "--seed", "7"); code != 0 {
		t.Fatalf("synth: exit %d: %s", code, errb)
	}
	f, err := os.Open(filepath.Join(dir, "labels.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(rows) != 4 || rows[0][5] != "tax" || rows[0][6] != "items" {
		t.Fatalf("labels.csv: %v %q", err, rows)
	}
	for _, r := range rows[1:] {
		if _, err := os.Stat(filepath.Join(dir, r[0])); err != nil {
			t.Errorf("image of row %q: %v", r, err)
		}
	}
	code, out, errb := run(t, "eval", "--labels", dir, "--country", "UK", "--json", "--deterministic")
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, errb)
	}
	var rep struct {
		Receipts int `json:"receipts"`
		Fields   map[string]struct {
			Exact float64 `json:"exact_match"`
		} `json:"fields"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Receipts != 3 {
		t.Errorf("%d receipts scored", rep.Receipts)
	}
	for _, field := range []string{"company", "date", "total", "tax", "items", "tax_id", "tax_rates"} {
		if got, ok := rep.Fields[field]; !ok || got.Exact < 1 {
			t.Errorf("%s: exact %.2f (scored: %v)\n%s", field, got.Exact, ok, out)
		}
	}
}

func TestSynthRefusesBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{"synth"},
		{"synth", "--out", t.TempDir(), "--photo", "sepia"},
		{"synth", "--out", t.TempDir(), "--country", "XX"},
	} {
		if code, _, _ := run(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}

// A receipt that cannot be read is listed as failed and counts against
// recall: it found none of its labelled fields.
func TestEvalCountsUnreadableReceiptsAgainstRecall(t *testing.T) {
	dir := t.TempDir()
	if code, _, errb := run(t, "synth", "--out", dir, "--country", "AU", "-n", "4", "--seed", "9"); code != 0 {
		t.Fatalf("synth: %s", errb)
	}
	if err := os.WriteFile(filepath.Join(dir, "001.png"), []byte("not an image"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errb := run(t, "eval", "--labels", dir, "--country", "AU", "--json", "--deterministic")
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, errb)
	}
	var rep struct {
		Fields map[string]struct {
			Recall    float64 `json:"recall"`
			Precision float64 `json:"precision"`
		} `json:"fields"`
		Failures []string `json:"failures"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Failures) != 1 || rep.Fields["total"].Recall != 0.75 || rep.Fields["total"].Precision != 1 {
		t.Errorf("failures %q, total %+v", rep.Failures, rep.Fields["total"])
	}
}

// A pack country's receipts are labelled with their currency, their tax
// lines per rate, and the tax ID as a reader gives it; eval is pointed at
// the country's jurisdiction.
func TestSynthPackCountry(t *testing.T) {
	dir := t.TempDir()
	code, out, errb := run(t, "synth", "--out", dir, "--country", "it", "-n", "3", "--seed", "4")
	if code != 0 {
		t.Fatalf("synth: exit %d: %s", code, errb)
	}
	if !strings.Contains(out, "--country EU") {
		t.Errorf("stdout %q", out)
	}
	f, err := os.Open(filepath.Join(dir, "labels.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(rows) != 4 || rows[0][10] != "currency" || rows[0][9] != "tax_rates" {
		t.Fatalf("labels.csv: %v %q", err, rows)
	}
	for _, r := range rows[1:] {
		if r[10] != "EUR" || !strings.HasPrefix(r[8], "IT") || !(strings.HasPrefix(r[9], "22:") || strings.HasPrefix(r[9], "10:")) {
			t.Errorf("row %q", r)
		}
	}
}
