package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStatementCommands drives the three commands on a real library: a
// CSV statement imported with its detected mapping shown, a mapping
// changed by flag, the same file refused as already imported, a match run,
// the missing list written, and a hand match undone.
func TestStatementCommands(t *testing.T) {
	lib := t.TempDir()
	dir := t.TempDir()
	stmt := filepath.Join(dir, "card.csv")
	os.WriteFile(stmt, []byte("Date,Description,Amount\n03/07/2025,OFFICEWORKS 0423 SYDNEY,-42.50\n09/07/2025,NETFLIX.COM,-16.99\n"), 0o644)
	code, out, errOut := run(t, "statements", "import", stmt, "--account", "Card", "--library", lib)
	if code != 0 || !strings.Contains(out, "2 lines, all new") || !strings.Contains(out, "date: column 1 (Date) as DD/MM/YYYY") {
		t.Fatalf("import: %d\n%s%s", code, out, errOut)
	}
	code, out, _ = run(t, "statements", "import", stmt, "--account", "Card", "--library", lib)
	if code != 0 || !strings.Contains(out, "imported before; nothing added") {
		t.Fatalf("second import: %s", out)
	}
	other := filepath.Join(dir, "other.csv")
	os.WriteFile(other, []byte("Date,Description,Amount\n03/07/2025,COFFEE,4.50\n"), 0o644)
	code, out, errOut = run(t, "statements", "import", other, "--account", "Card", "--negate", "--date-form", "MM/DD/YYYY", "--library", lib)
	if code != 0 || !strings.Contains(out, "as MM/DD/YYYY") || !strings.Contains(out, "signs turned round") {
		t.Fatalf("import with a changed mapping: %d\n%s%s", code, out, errOut)
	}
	code, _, errOut = run(t, "statements", "import", filepath.Join(dir, "nothing.csv"), "--library", lib)
	if code != 1 || !strings.Contains(errOut, "cannot open") {
		t.Fatalf("missing file: %d %s", code, errOut)
	}
	code, out, _ = run(t, "match", "--period", "2025-Q3", "--library", lib)
	if code != 0 || !strings.Contains(out, "2 statement lines in 2025-Q3") || !strings.Contains(out, "2 money out with no receipt") {
		t.Fatalf("match: %d %s", code, out)
	}
	xlsx := filepath.Join(dir, "missing.xlsx")
	code, out, _ = run(t, "missing", "--period", "2025-Q3", "-o", xlsx, "--library", lib)
	if code != 0 || !strings.Contains(out, "2 statement lines in 2025-Q3 have no receipt") {
		t.Fatalf("missing: %d %s", code, out)
	}
	if st, err := os.Stat(xlsx); err != nil || st.Size() == 0 {
		t.Fatalf("workbook not written: %v", err)
	}
	code, _, errOut = run(t, "missing", "-o", filepath.Join(dir, "missing.pdf"), "--library", lib)
	if code != 1 || !strings.Contains(errOut, "write the list as .csv or .xlsx") {
		t.Fatalf("unsupported list format: %d %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing.pdf")); err == nil {
		t.Fatal("a refused list left a file")
	}
	code, out, _ = run(t, "match", "--undo", "--library", lib)
	if code != 0 || !strings.Contains(out, "nothing to undo") {
		t.Fatalf("undo with nothing done: %s", out)
	}
	code, out, _ = run(t, "statements", "accounts", "--library", lib)
	if code != 0 || !strings.Contains(out, "Card (AUD): 2 statements") || !strings.Contains(out, "[2] other.csv") {
		t.Fatalf("accounts: %s", out)
	}
	// other.csv was read month first by mistake: remove it, import it again.
	code, out, _ = run(t, "statements", "remove", "2", "--library", lib)
	if code != 0 || !strings.Contains(out, "removed other.csv from Card") {
		t.Fatalf("remove: %d %s", code, out)
	}
	code, out, _ = run(t, "statements", "import", other, "--account", "Card", "--negate", "--date-form", "DD/MM/YYYY", "--library", lib)
	if code != 0 || !strings.Contains(out, "1 line, all new") {
		t.Fatalf("import again: %d %s", code, out)
	}
	code, out, _ = run(t, "missing", "--period", "2025-Q3", "--library", lib)
	if code != 0 || !strings.Contains(out, "3 statement lines in 2025-Q3 have no receipt") {
		t.Fatalf("missing after the fix: %s", out)
	}
}
