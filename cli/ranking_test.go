package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/receipt"
)

// writeDump writes a receipt's lines as `eval --dump` writes its words:
// one word a row, each line's words on one row of the page.
func writeDump(t *testing.T, dir, stem string, lines ...string) {
	t.Helper()
	var words []inference.Word
	for n, l := range lines {
		x := 40
		for _, w := range strings.Fields(l) {
			words = append(words, inference.Word{Text: w, Conf: 0.97, Line: n, Box: receipt.Box{X: x, Y: 30 + 30*n, W: 12 * len(w), H: 18}})
			x += 12*len(w) + 12
		}
	}
	f, err := os.Create(filepath.Join(dir, stem+".lines"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := inference.WriteWords(f, words); err != nil {
		t.Fatal(err)
	}
}

func TestRankingFitsAndComparesOnDumpedReadings(t *testing.T) {
	labels, dump := t.TempDir(), t.TempDir()
	csv := "file,company,date,address,total\n"
	names := []string{"LUCKY STAR DINER", "BLUE OX GRILL", "CORNER BAKERY CAFE", "MAPLE LEAF TAVERN"}
	for i, name := range names {
		stem := string(rune('a' + i))
		csv += stem + ".jpg," + name + ",2019-08-09,,12.50\n"
		writeDump(t, dump, stem, "WELCOME", name, "123 MAIN ST", "SPRINGFIELD, IL 62701", "08/09/19 4:28 PM", "BURGER 12.50", "TOTAL 12.50")
	}
	writeDump(t, dump, "e", "RECEIPT", "08/09/19", "TOTAL 3.00") // no line holds its name
	csv += "e.jpg,Uncle Julio,2019-08-09,,3.00\n"
	if err := os.WriteFile(filepath.Join(labels, "labels.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	set := "US," + labels + "," + dump
	out := filepath.Join(t.TempDir(), "supplier.json")
	code, stdout, stderr := run(t, "ranking", "fit", "--out", out, set)
	if code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "a legal form") {
		t.Errorf("fit printed no weights:\n%s", stdout)
	}
	code, stdout, stderr = run(t, "ranking", "compare", "--model", out, "--show", set)
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, stderr)
	}
	// Five receipts, four with the name's line known, the rules and the
	// fitted ranking both choosing it on all four.
	if !regexp.MustCompile(`: 5, 4; rules 4, ranking 4;`).MatchString(stdout) {
		t.Errorf("compare:\n%s", stdout)
	}
	if code, _, _ := run(t, "ranking", "compare", set+"-missing"); code == 0 {
		t.Error("a set whose labels are missing was compared")
	}
	if code, _, _ := run(t, "ranking", "fit", set); code != 2 {
		t.Error("fit without --out did not refuse")
	}
	if code, _, _ := run(t, "ranking", "compare", "--cross", set); code != 2 {
		t.Error("--cross with one set did not refuse")
	}
	// A reading whose confidence was written as NaN fits finite weights.
	f, err := os.OpenFile(filepath.Join(dump, "a.lines"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("9\t0\t40\t300\t50\t18\tNaN\tSTRAY\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if code, _, stderr := run(t, "ranking", "fit", "--out", out, set); code != 0 {
		t.Fatalf("fit on a NaN confidence: exit %d: %s", code, stderr)
	}
	if data, err := os.ReadFile(out); err != nil || !strings.Contains(string(data), `"weights"`) {
		t.Errorf("the ranking written on a NaN confidence: %q, %v", data, err)
	}
}
