package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// foreignServices returns the composite literals of another package's
// Service type in the file ("orders.Service{...}"), as "line: name": a
// domain reaches another through a field that pkg/app sets
// (docs/architecture.md, "Adding a domain"), never by building it inline
// with some of its dependencies left empty.
func foreignServices(fset *token.FileSet, f *ast.File) []string {
	imported := map[string]bool{}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		name := path.Base(p)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		imported[name] = true
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		sel, ok := lit.Type.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Service" {
			return true
		}
		if pkg, ok := sel.X.(*ast.Ident); ok && imported[pkg.Name] {
			out = append(out, strconv.Itoa(fset.Position(lit.Pos()).Line)+": "+pkg.Name+".Service")
		}
		return true
	})
	return out
}

// TestForeignServicesCheck runs the check of TestNoInlineServices over
// planted sources, so that it cannot pass by finding nothing.
func TestForeignServicesCheck(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, src string
		want      []string
	}{
		{"another package's", `package demo
import "github.com/multisell/multisell/pkg/orders"
func f() { _ = orders.Service{} }`, []string{"3: orders.Service"}},
		{"renamed import, pointer", `package demo
import o "github.com/multisell/multisell/pkg/orders"
func f() { _ = &o.Service{Table: nil} }`, []string{"3: o.Service"}},
		{"its own", `package demo
type Service struct{}
func f() { _ = Service{} }`, nil},
		{"a field named Service", `package demo
import "github.com/multisell/multisell/pkg/orders"
type h struct{ Service orders.Service }
func f(s orders.Service) { _ = h{Service: s} }`, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "planted.go", tc.src, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := foreignServices(fset, f); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestNoInlineServices holds every non-test Go file of pkg/ and cmd/
// outside pkg/app to building no other package's Service: the services
// are built by pkg/app's constructors (app.Deps.Orders, ...), which set
// every dependency.
func TestNoInlineServices(t *testing.T) {
	t.Parallel()
	files := 0
	for _, top := range []string{"pkg", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if rel == "pkg/app" || d.Name() == "testdata" || d.Name() == "node_modules" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
				return nil
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, p, nil, 0)
			if err != nil {
				return err
			}
			files++
			for _, v := range foreignServices(fset, f) {
				t.Errorf("%s:%s{...}: use the field pkg/app sets (docs/architecture.md)", rel, v)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 100 {
		t.Fatalf("checked %d files, want the whole tree", files)
	}
}
