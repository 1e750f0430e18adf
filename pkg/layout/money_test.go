package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// moneyFiles are the packages whose fields carry money: the orders domain and
// the import document (pkg/wire's order.go).
var moneyFiles = []string{"pkg/orders/*.go", "pkg/wire/order.go"}

// TestNoFloatMoney: no struct field of the orders domain or of the import
// document is a float64 (or a pointer to or slice of one): money is exact
// (pkg/money, wire.Amount), and quantities are integers.
func TestNoFloatMoney(t *testing.T) {
	t.Parallel()
	seen := 0
	for _, glob := range moneyFiles {
		paths, err := filepath.Glob(filepath.Join(root, glob))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range paths {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			seen++
			for _, got := range floatFields(t, path) {
				t.Errorf("%s: field %s is a float64; money must be exact (pkg/money)", filepath.Base(path), got)
			}
		}
	}
	if seen < 10 {
		t.Fatalf("found %d files of %v; the globs must find the orders domain", seen, moneyFiles)
	}
}

// floatFields returns the struct fields of the file whose type names float64.
func floatFields(t *testing.T, path string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		st, ok := n.(*ast.StructType)
		if !ok {
			return true
		}
		for _, fld := range st.Fields.List {
			floaty := false
			ast.Inspect(fld.Type, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && (id.Name == "float64" || id.Name == "float32") {
					floaty = true
				}
				return true
			})
			if floaty {
				for _, name := range fld.Names {
					out = append(out, name.Name)
				}
			}
		}
		return true
	})
	return out
}
