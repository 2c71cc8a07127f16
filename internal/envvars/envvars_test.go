package envvars

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Every environment variable the product reads is read through this
// package: no other non-test file calls os.Getenv or os.LookupEnv, or
// names a SHOEBOX_ variable that is not declared here.
func TestVariablesAreReadOnlyThroughThisPackage(t *testing.T) {
	root := filepath.Join("..", "..")
	declared := map[string]bool{}
	for _, n := range Names() {
		declared[n] = true
	}
	fset := token.NewFileSet()
	ours := regexp.MustCompile(`SHOEBOX_[A-Z0-9_]+`)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch rel {
			case "build", ".git", "internal/envvars", "internal/testollama", "scripts":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && x.Name == "os" && (n.Sel.Name == "Getenv" || n.Sel.Name == "LookupEnv") {
					t.Errorf("%s: os.%s: read environment variables through internal/envvars", fset.Position(n.Pos()), n.Sel.Name)
				}
			case *ast.BasicLit:
				if n.Kind == token.STRING {
					s, _ := strconv.Unquote(n.Value)
					for _, name := range ours.FindAllString(s, -1) {
						if !declared[name] && !strings.HasSuffix(name, "_") {
							t.Errorf("%s: %s is not declared in internal/envvars", fset.Position(n.Pos()), name)
						}
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Every variable says what it means; a secret's value is never printed.
func TestPrintShowsMeaningsAndHidesSecrets(t *testing.T) {
	t.Setenv(ServerKey.Name, "sk-very-secret")
	t.Setenv(Home.Name, "/srv/books")
	var b bytes.Buffer
	Print(&b, false)
	out := b.String()
	if strings.Contains(out, "sk-very-secret") {
		t.Errorf("the server key was printed:\n%s", out)
	}
	if !strings.Contains(out, `"/srv/books"`) {
		t.Errorf("SHOEBOX_HOME's value is not shown:\n%s", out)
	}
	for _, v := range All() {
		if v.Meaning == "" {
			t.Errorf("%s has no meaning", v.Name)
		}
		if v.TestOnly == strings.Contains(out, v.Name+" ") {
			t.Errorf("%s: test-only %v, printed %v", v.Name, v.TestOnly, !v.TestOnly)
		}
	}
	if _, err := os.Stat(filepath.Join("..", "..", "go.mod")); err != nil {
		t.Fatal("the repository root is not two folders up:", err)
	}
}

func TestGetenvRefusesAnUndeclaredName(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Getenv of an undeclared name did not panic")
		}
	}()
	Getenv("SHOEBOX_NOT_A_THING")
}
