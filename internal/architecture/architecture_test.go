package architecture

import (
	"bufio"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/shoebox-app/shoebox"

var root = filepath.Join("..", "..")

// rule is one row of the document's package table.
type rule struct {
	allowed map[string]bool
	anyBut  map[string]bool // "any package of ours but …"
}

func (r rule) allows(pkg string) bool {
	if r.anyBut != nil {
		return !r.anyBut[pkg]
	}
	return r.allowed[pkg]
}

var (
	reRow  = regexp.MustCompile("^\\| `([^`]+)`[^|]*\\|.*\\| ([^|]+) \\|\\s*$")
	reName = regexp.MustCompile("[a-z][a-z0-9/]*")
)

func readTable(t *testing.T) map[string]rule {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rules := map[string]rule{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := reRow.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		pkg, may := m[1], strings.TrimSpace(m[2])
		if pkg == "." {
			pkg = ""
		}
		r := rule{allowed: map[string]bool{}}
		if rest, ok := strings.CutPrefix(may, "any package of ours but "); ok {
			r.anyBut = map[string]bool{}
			for _, n := range reName.FindAllString(rest, -1) {
				r.anyBut[n] = true
			}
		} else if may != "—" {
			for _, n := range strings.Split(may, ",") {
				r.allowed[strings.TrimSpace(n)] = true
			}
		}
		rules[pkg] = r
	}
	if len(rules) == 0 {
		t.Fatal("docs/architecture.md has no package table")
	}
	return rules
}

// packages maps each package folder of the module (relative, "" for the
// root) to the packages of ours its non-test files import.
func packages(t *testing.T) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			rel = ""
		}
		if d.IsDir() {
			base := d.Name()
			if rel != "" && (strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") || base == "testdata" || base == "build" || base == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(rel))
		if dir == "." {
			dir = ""
		}
		if out[dir] == nil {
			out[dir] = map[string]bool{}
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == module {
				out[dir][""] = true
			} else if s, ok := strings.CutPrefix(p, module+"/"); ok {
				out[dir][s] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func show(p string) string {
	if p == "" {
		return ". (main)"
	}
	return p
}

func TestEveryPackageIsInTheDocument(t *testing.T) {
	rules := readTable(t)
	pkgs := packages(t)
	for p := range pkgs {
		if _, ok := rules[p]; !ok {
			t.Errorf("package %s is not in docs/architecture.md's package table", show(p))
		}
	}
	for p := range rules {
		if _, ok := pkgs[p]; !ok {
			t.Errorf("docs/architecture.md lists %s, which is no package of the module", show(p))
		}
	}
}

func TestImportsAreTheOnesTheDocumentAllows(t *testing.T) {
	rules := readTable(t)
	for p, imports := range packages(t) {
		r, ok := rules[p]
		if !ok {
			continue // reported by TestEveryPackageIsInTheDocument
		}
		var bad []string
		for imp := range imports {
			if !r.allows(imp) {
				bad = append(bad, show(imp))
			}
		}
		sort.Strings(bad)
		if len(bad) > 0 {
			t.Errorf("%s imports %s, which docs/architecture.md does not allow it: change the code or, if the design changed, the document", show(p), strings.Join(bad, ", "))
		}
	}
}
