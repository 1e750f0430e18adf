package layout

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The Go symbols the docs name. A backquoted span of docs/*.md is a symbol
// when it begins with the name of a Go package of the module (pkg/... or
// cmd/..., by its package clause), then an exported name and maybe a
// member: `store.Table.Page`, `[]store.Write`, `api.OK(order)`,
// `errs.Invalid(...)` (what follows the name in call or literal syntax is
// left alone). Anything else is not Go and is not checked: file names
// (`store.go`: a lower-case second segment), event and message types
// (`listing.quantity`, `order.created`: `listing` and `order` are no
// package, and `inventory.updated` is lower case too), JSON fields,
// hosts, and spans that merely contain a symbol (`d.HTTP(orders.Handlers{...})`).
// A package the module shares its name with (pkg/events and aws-lambda-go's
// events) resolves a name in either (externalPackages).

// externalPackages are packages outside the module whose names the module's
// own packages also have, with their import paths: the docs name both.
var externalPackages = map[string]string{
	"events": "github.com/aws/aws-lambda-go/events",
}

// symbolSpan is a backquoted span that begins with pkg.Name: its package,
// the dotted names after it, and whatever follows them.
var symbolSpan = regexp.MustCompile(`^(?:\[\]|\*|&)*([a-z][a-z0-9]*)((?:\.[A-Za-z_][A-Za-z0-9_]*)+)(.*)$`)

// codeSpan is an inline code span of Markdown; fencedBlock a fenced block.
var (
	codeSpan    = regexp.MustCompile("`([^`\n]+)`")
	fencedBlock = regexp.MustCompile("(?ms)^```.*?^```")
)

// goPackage is what one package declares: its top-level names, and per
// type its members (methods, fields, interface methods) and the types it
// embeds (as "pkg.Type" for another package's, else "Type").
type goPackage struct {
	names   map[string]bool
	members map[string]map[string]bool
	embeds  map[string][]string
}

// symbolIndex is the packages by name (more than one may share a name).
type symbolIndex map[string][]*goPackage

var (
	indexOnce sync.Once
	index     symbolIndex
	indexErr  error
)

// moduleSymbols indexes the non-test Go files of pkg/ and cmd/ and the
// externalPackages, once per test binary.
func moduleSymbols(t *testing.T) symbolIndex {
	t.Helper()
	indexOnce.Do(func() { index, indexErr = buildIndex() })
	if indexErr != nil {
		t.Fatal(indexErr)
	}
	return index
}

func buildIndex() (symbolIndex, error) {
	idx := symbolIndex{}
	dirs := map[string]bool{}
	for _, top := range []string{"pkg", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, e os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
				dirs[filepath.Dir(path)] = true
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	for _, path := range externalPackages {
		out, err := exec.Command("go", "list", "-f", "{{.Dir}}", path).Output()
		if err != nil {
			return nil, fmt.Errorf("go list %s: %w", path, err)
		}
		dirs[strings.TrimSpace(string(out))] = true
	}
	for dir := range dirs {
		name, p, err := parsePackage(dir)
		if err != nil {
			return nil, err
		}
		if name == "main" {
			name = filepath.Base(dir) // cmd/multisell: multisell
		}
		idx[name] = append(idx[name], p)
	}
	return idx, nil
}

// parsePackage reads the declarations of the non-test Go files in dir.
func parsePackage(dir string) (string, *goPackage, error) {
	p := &goPackage{names: map[string]bool{}, members: map[string]map[string]bool{}, embeds: map[string][]string{}}
	member := func(typ, name string) {
		if p.members[typ] == nil {
			p.members[typ] = map[string]bool{}
		}
		p.members[typ][name] = true
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return "", nil, err
	}
	var name string
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return "", nil, err
		}
		name = f.Name.Name
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					p.names[d.Name.Name] = true
				} else {
					member(receiverType(d.Recv.List[0].Type), d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.ValueSpec:
						for _, n := range s.Names {
							p.names[n.Name] = true
						}
					case *ast.TypeSpec:
						p.names[s.Name.Name] = true
						member(s.Name.Name, "") // a type without members still has an entry
						for _, f := range typeMembers(s.Type) {
							if len(f.Names) == 0 {
								embedded := typeName(f.Type)
								p.embeds[s.Name.Name] = append(p.embeds[s.Name.Name], embedded)
								member(s.Name.Name, embedded[strings.LastIndex(embedded, ".")+1:]) // its field
							}
							for _, n := range f.Names {
								member(s.Name.Name, n.Name)
							}
						}
					}
				}
			}
		}
	}
	return name, p, nil
}

// typeMembers are the fields of a struct type, or the methods of an
// interface type.
func typeMembers(e ast.Expr) []*ast.Field {
	switch e := e.(type) {
	case *ast.StructType:
		return e.Fields.List
	case *ast.InterfaceType:
		return e.Methods.List
	}
	return nil
}

// receiverType is the name of a method's receiver type.
func receiverType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// typeName is an embedded type's name: "Type", or "pkg.Type".
func typeName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return typeName(x.X)
	case *ast.IndexExpr:
		return typeName(x.X)
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return typeName(x.X) + "." + x.Sel.Name
	}
	return ""
}

// resolve reports what of the names (the segments after the package) the
// package pkg lacks ("" when it has them all): a top-level name, then a
// member of that type, promoted ones included. Segments past a member are
// not followed.
func (idx symbolIndex) resolve(pkg string, names []string) string {
	var missing string
	for _, p := range idx[pkg] {
		switch {
		case !p.names[names[0]]:
			missing = fmt.Sprintf("package %s has no %s", pkg, names[0])
		case len(names) > 1 && !idx.hasMember(pkg, p, names[0], names[1], 0):
			missing = fmt.Sprintf("%s.%s has no member %s", pkg, names[0], names[1])
		default:
			return ""
		}
	}
	return missing
}

// hasMember reports whether type typ of package p (named pkg) has the
// member, declared or promoted from an embedded type.
func (idx symbolIndex) hasMember(pkg string, p *goPackage, typ, member string, depth int) bool {
	if p.members[typ][member] {
		return true
	}
	if depth > 5 {
		return false
	}
	for _, e := range p.embeds[typ] {
		inPkg, inP, name := pkg, []*goPackage{p}, e
		if i := strings.LastIndex(e, "."); i >= 0 {
			inPkg, name = e[:i], e[i+1:]
			inP = idx[inPkg]
		}
		for _, q := range inP {
			if idx.hasMember(inPkg, q, name, member, depth+1) {
				return true
			}
		}
	}
	return false
}

// docSymbolErrors checks the Go symbols the Markdown text of doc names:
// one message per span whose package lacks a name it gives, with the span's
// line.
func (idx symbolIndex) docSymbolErrors(doc, text string) []string {
	var out []string
	// Fenced blocks are blanked, not removed, so that lines keep their numbers.
	text = fencedBlock.ReplaceAllStringFunc(text, func(b string) string { return strings.Repeat("\n", strings.Count(b, "\n")) })
	for _, loc := range codeSpan.FindAllStringSubmatchIndex(text, -1) {
		span := text[loc[2]:loc[3]]
		s := symbolSpan.FindStringSubmatch(span)
		if s == nil || idx[s[1]] == nil {
			continue // not pkg.Name, or no package of that name
		}
		names := strings.Split(s[2], ".")[1:]
		rest := s[3]
		if !ast.IsExported(names[0]) || rest != "" && !strings.ContainsAny(rest[:1], "({[") {
			continue // a file name, an event type, a JSON field, prose
		}
		if missing := idx.resolve(s[1], names); missing != "" {
			line := 1 + strings.Count(text[:loc[0]], "\n")
			out = append(out, fmt.Sprintf("%s:%d names `%s`: %s", doc, line, span, missing))
		}
	}
	return out
}

// TestDocSymbolsExist: every Go symbol docs/*.md names in backquotes as
// pkg.Name or pkg.Type.Member exists in the module (see symbolSpan), so a
// renamed or moved symbol cannot leave the docs pointing at nothing.
func TestDocSymbolsExist(t *testing.T) {
	t.Parallel()
	idx := moduleSymbols(t)
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, path := range docs {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, path)
		for _, e := range idx.docSymbolErrors(filepath.ToSlash(rel), string(b)) {
			t.Error(e)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no docs/*.md found")
	}
}

// TestDocSymbolsChecker: the check reports planted names that do not exist
// (a function, a method, a member of an embedded type) and passes what
// exists or is not Go.
func TestDocSymbolsChecker(t *testing.T) {
	t.Parallel()
	idx := moduleSymbols(t)
	for _, tt := range []struct {
		span string
		want string // the message's end; "" for none
	}{
		{"store.NoSuchFunc(ctx)", "package store has no NoSuchFunc"},
		{"orders.Handlers.NoSuchMethod", "orders.Handlers has no member NoSuchMethod"},
		{"[]store.Writes", "package store has no Writes"},
		{"events.NoSuchEvent", "package events has no NoSuchEvent"},
		{"store.Table.Page", ""},
		{"store.PK(account, kind)", ""},
		{"errs.Invalid(...)", ""},
		{"[]store.Write", ""},
		{"orders.Handlers.Service", ""},        // an embedded field
		{"inventory.Handlers.ListPage", ""},    // promoted from the embedded Service
		{"events.DynamoDBEvent", ""},           // aws-lambda-go's events
		{"events.Source", ""},                  // pkg/events
		{"listing.quantity", ""},               // a message type: no package listing
		{"order.created", ""},                  // an event type
		{"inventory.updated", ""},              // an event type of a package's name
		{"store.go", ""},                       // a file
		{"store.Table is the table", ""},       // prose after a name
		{"d.HTTP(orders.Handlers{}.Nope)", ""}, // a span that only contains a symbol
	} {
		t.Run(tt.span, func(t *testing.T) {
			t.Parallel()
			got := idx.docSymbolErrors("planted.md", "```go\n`store.Fenced()`\n```\ntext `"+tt.span+"` and")
			var want []string
			if tt.want != "" {
				want = []string{"planted.md:4 names `" + tt.span + "`: " + tt.want}
			}
			if !slices.Equal(got, want) {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}
