package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// root is the repository root, seen from this package.
const root = "../.."

const module = "github.com/multisell/multisell/"

// wantDomains are domain packages the rules must find, so that a renamed
// file cannot make them pass by finding nothing.
var wantDomains = []string{"catalog", "channels", "inventory", "orders", "shipments", "warehouses"}

// goFile is one non-test Go file of a package: its name and import paths.
type goFile struct {
	name    string
	imports []string
}

// packageFiles parses the imports of the non-test Go files in dir.
func packageFiles(t *testing.T, dir string) []goFile {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []goFile
	for _, path := range names {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		gf := goFile{name: filepath.Base(path)}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			gf.imports = append(gf.imports, p)
		}
		out = append(out, gf)
	}
	return out
}

// domains returns the domain packages: the folders of pkg/ with a
// handlers.go.
func domains(t *testing.T) []string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(root, "pkg", "*", "handlers.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range matches {
		out = append(out, filepath.Base(filepath.Dir(m)))
	}
	for _, d := range wantDomains {
		if !slices.Contains(out, d) {
			t.Fatalf("domain %s has no handlers.go", d)
		}
	}
	return out
}

// role is what a file of a domain package may do, by its name.
func role(name string) string {
	switch {
	case name == "handlers.go" || strings.HasPrefix(name, "handlers_"):
		return "edge"
	case name == "store.go" || strings.HasPrefix(name, "store_"):
		return "storage"
	}
	return "rules"
}

// The imports each role is alone in making.
var (
	edgeOnly = []string{module + "pkg/api", "github.com/aws/aws-lambda-go/events"}
	sdkOnly  = []string{
		"github.com/aws/aws-sdk-go-v2/service/dynamodb",
		"github.com/aws/aws-sdk-go-v2/service/dynamodb/types",
		"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue",
		"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression",
	}
)

// httpClients are the domains whose job is calling HTTP APIs (the connectors call the
// marketplaces): their rule files may use net/http's client, and read the statuses the
// channels answer; they map no error to a status either.
var httpClients = map[string]bool{"connectors": true}

// TestDomainShape: in every domain package only the handlers files see a
// request (the HTTP envelope, Lambda events), only the storage files touch
// the DynamoDB SDK (so no SDK type can appear in any other file's API), and
// no file knows HTTP status codes.
func TestDomainShape(t *testing.T) {
	t.Parallel()
	for _, d := range domains(t) {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			for _, f := range packageFiles(t, filepath.Join(root, "pkg", d)) {
				r := role(f.name)
				for _, imp := range f.imports {
					var got string
					switch {
					case imp == "net/http" && !httpClients[d]:
						got = "names HTTP statuses (net/http): only pkg/api maps errors to statuses"
					case slices.Contains(edgeOnly, imp) && r != "edge":
						got = "imports " + imp + ", which only handlers.go may"
					case slices.Contains(sdkOnly, imp) && r != "storage":
						got = "imports " + imp + ", which only store.go may"
					}
					if got != "" {
						t.Errorf("%s/%s %s", d, f.name, got)
					}
				}
			}
		})
	}
}

// TestNoSDKInDomainAPIs: no exported function or method of a domain
// package, storage files included, takes or returns a DynamoDB SDK type;
// domains hand each other domain values and store.Write.
func TestNoSDKInDomainAPIs(t *testing.T) {
	t.Parallel()
	for _, d := range domains(t) {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			paths, err := filepath.Glob(filepath.Join(root, "pkg", d, "*.go"))
			if err != nil {
				t.Fatal(err)
			}
			for _, path := range paths {
				if strings.HasSuffix(path, "_test.go") {
					continue
				}
				for _, got := range sdkInSignatures(t, path) {
					t.Errorf("%s/%s: %s", d, filepath.Base(path), got)
				}
			}
		})
	}
}

// sdkInSignatures returns the exported functions of the file whose
// parameters or results name a package of sdkOnly.
func sdkInSignatures(t *testing.T, path string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	sdk := map[string]bool{} // the file's names of the SDK packages
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if !slices.Contains(sdkOnly, p) {
			continue
		}
		name := filepath.Base(p)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		sdk[name] = true
	}
	var out []string
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || !fn.Name.IsExported() {
			continue
		}
		ast.Inspect(fn.Type, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && sdk[x.Name] {
					out = append(out, fn.Name.Name+" names "+x.Name+"."+sel.Sel.Name)
				}
			}
			return true
		})
	}
	return out
}

// TestLocalApart: no package outside the local stack and the test harness
// imports them; the domains and the platform run the same in AWS.
func TestLocalApart(t *testing.T) {
	t.Parallel()
	local := []string{module + "pkg/local/", module + "pkg/testenv"}
	err := filepath.WalkDir(filepath.Join(root, "pkg"), func(path string, e os.DirEntry, err error) error {
		if err != nil || !e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join(root, "pkg"), path)
		if rel == "local" || strings.HasPrefix(rel, "local/") || rel == "testenv" || strings.HasPrefix(rel, "testenv/") || strings.Contains(rel, "testdata") {
			return nil
		}
		for _, f := range packageFiles(t, path) {
			for _, imp := range f.imports {
				for _, l := range local {
					if strings.HasPrefix(imp, l) {
						t.Errorf("pkg/%s/%s imports %s", rel, f.name, imp)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// docRef is a reference to a repository file in prose or a comment:
// a Markdown link target or a docs/... path.
var (
	markdownLink = regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)
	docsPath     = regexp.MustCompile(`\bdocs/[A-Za-z0-9_.-]+\.(?:md|yaml)`)
)

// TestReferencesResolve: every relative link in the Markdown files and
// every docs/... path named in a comment or a doc exists, and nothing
// points at files outside the repository (a design file or numbered spec
// sections that a clone does not have).
func TestReferencesResolve(t *testing.T) {
	t.Parallel()
	outside := regexp.MustCompile(`DESIGN\.md|\bspec (?:section )?\d+\.\d+`)
	err := filepath.WalkDir(root, func(path string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			switch e.Name() {
			case ".git", "node_modules", ".local", ".aws-sam", "bin":
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(path)
		if ext != ".go" && ext != ".md" && ext != ".yaml" && e.Name() != "Makefile" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(b)
		rel, _ := filepath.Rel(root, path)
		if rel == "pkg/layout/layout_test.go" {
			return nil // this file names the patterns it looks for
		}
		if m := outside.FindString(text); m != "" {
			t.Errorf("%s points outside the repository: %q", rel, m)
		}
		for _, m := range docsPath.FindAllString(text, -1) {
			if _, err := os.Stat(filepath.Join(root, m)); err != nil {
				t.Errorf("%s names %s, which does not exist", rel, m)
			}
		}
		if ext == ".md" {
			for _, m := range markdownLink.FindAllStringSubmatch(text, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				if _, err := os.Stat(filepath.Join(filepath.Dir(path), target)); err != nil {
					t.Errorf("%s links to %s, which does not exist", rel, target)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
