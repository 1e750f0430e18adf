package functions

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// root is the repository root, seen from this package.
const root = "../../.."

// TestMainsMatchTable: every functions/<name>/main.go builds Deps and starts
// exactly the handler this package's table gives for name, so the local
// stack and the tests run what each Lambda runs. A main may first register
// the built-in connectors, and may pass NewLambda the optional clients its
// handler calls (pkg/app/sdkchain builds them all for the table).
func TestMainsMatchTable(t *testing.T) {
	want := tableExprs(t)
	paths, err := filepath.Glob(filepath.Join(root, "functions", "*", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	var mains []string
	for _, path := range paths {
		name := filepath.Base(filepath.Dir(path))
		mains = append(mains, name)
		t.Run(name, func(t *testing.T) {
			expr, ok := want[name]
			if !ok {
				t.Fatalf("%s has no entry in table.go", path)
			}
			wantBody := "{\n\td := app.NewLambda(app.ConfigFromEnv())\n\tlambda.Start(" + expr + ")\n}"
			got := strings.Replace(mainBody(t, path), "{\n\tbuiltin.Register()\n", "{\n", 1)
			if got = optionalClients.ReplaceAllString(got, "app.ConfigFromEnv())"); got != wantBody {
				t.Errorf("func main() %s\nwant func main() %s", got, wantBody)
			}
		})
	}
	if got, names := mains, Names(); !slices.Equal(got, names) {
		t.Errorf("folders with a main.go %v != table %v", got, names)
	}
}

// optionalClients matches the optional clients a main passes NewLambda.
var optionalClients = regexp.MustCompile(`app\.ConfigFromEnv\(\)(, [a-z]+\.[A-Z]\w*)+\)`)

// tableExprs returns, by function name, the source of the expression each
// entry of table.go returns.
func tableExprs(t *testing.T) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "table.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		kv, ok := n.(*ast.KeyValueExpr)
		if !ok {
			return true
		}
		key, _ := kv.Key.(*ast.BasicLit)
		fn, _ := kv.Value.(*ast.FuncLit)
		if key == nil || fn == nil || len(fn.Body.List) != 1 {
			t.Fatalf("table.go:%v: want \"name\": func(d *app.Deps) any { return handler }", fset.Position(kv.Pos()))
		}
		ret, ok := fn.Body.List[0].(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			t.Fatalf("table.go:%v: want one return of the handler", fset.Position(fn.Pos()))
		}
		name, _ := strconv.Unquote(key.Value)
		out[name] = source(t, fset, ret.Results[0])
		return false
	})
	if len(out) != len(table) {
		t.Fatalf("read %d entries in table.go, the table has %d", len(out), len(table))
	}
	return out
}

// mainBody returns the source of the body of func main in path.
func mainBody(t *testing.T, path string) string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, decl := range f.Decls {
		if fn, ok := decl.(*ast.FuncDecl); ok && fn.Name.Name == "main" && fn.Recv == nil {
			return source(t, fset, fn.Body)
		}
	}
	t.Fatalf("%s has no func main", path)
	return ""
}

// source prints node as gofmt would.
func source(t *testing.T, fset *token.FileSet, node ast.Node) string {
	t.Helper()
	var b bytes.Buffer
	if err := format.Node(&b, fset, node); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
