package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// modulePath is the import path of the module's root.
const modulePath = "github.com/multisell/multisell"

// funcKey names a function of the module: its package's folder (relative to the root)
// and its name, "Type.Name" for a method.
type funcKey struct{ dir, name string }

// funcInfo is what the short-mode rule needs of one function: whether its own body skips
// in short mode, starts an emulator or a process, and the module's functions it calls.
type funcInfo struct {
	test    bool // declared in a _test.go file
	skips   bool
	starts  string // the first start in its body, "" when none
	callees []funcKey
}

// moduleFuncs parses every Go file of the module (not emulators/'s node_modules, nor
// .local/) and returns its functions by key, with the Test and Fuzz functions of the
// test files and their TestMain functions.
func moduleFuncs(t *testing.T) (funcs map[funcKey]*funcInfo, tests, mains []funcKey) {
	t.Helper()
	funcs = map[funcKey]*funcInfo{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && (e.Name() == "node_modules" || e.Name() == "testdata" || strings.HasPrefix(e.Name(), ".") && path != root) {
			return filepath.SkipDir
		}
		if e.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir, _ := filepath.Rel(root, filepath.Dir(path))
		dir = filepath.ToSlash(dir)
		isTest := strings.HasSuffix(path, "_test.go")
		imports := importDirs(f)
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			key := funcKey{dir, funcName(fd)}
			info := inspectFunc(fd.Body, dir, imports)
			info.test = isTest
			funcs[key] = info
			switch {
			case !isTest || fd.Recv != nil:
			case fd.Name.Name == "TestMain":
				mains = append(mains, key)
			case strings.HasPrefix(fd.Name.Name, "Test") || strings.HasPrefix(fd.Name.Name, "Fuzz"):
				tests = append(tests, key)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return funcs, tests, mains
}

// funcName is fd's name, "Type.Name" for a method.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if idx, ok := typ.(*ast.IndexExpr); ok {
		typ = idx.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// importDirs maps the names a file imports the module's packages under to their
// folders, and every other import's name to "" (os/exec: "exec" -> "").
func importDirs(f *ast.File) map[string]string {
	dirs := map[string]string{}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		dirs[name] = ""
		if rel, ok := strings.CutPrefix(path, modulePath+"/"); ok {
			dirs[name] = rel
		}
	}
	return dirs
}

// inspectFunc reads a function's body (its function literals included): whether it
// skips in short mode itself (testing.Short()), what it starts (startOf), and the
// module's functions it calls (plain calls in its own folder, pkg.Func of the module's
// packages, and x.Method(), taken as any method of that name in its own folder).
func inspectFunc(body *ast.BlockStmt, dir string, imports map[string]string) *funcInfo {
	info := &funcInfo{}
	ast.Inspect(body, func(n ast.Node) bool {
		if what := startOf(n, imports); what != "" && info.starts == "" {
			info.starts = what
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		switch fn := call.Fun.(type) {
		case *ast.Ident:
			info.callees = append(info.callees, funcKey{dir, fn.Name})
		case *ast.SelectorExpr:
			pkg, isIdent := fn.X.(*ast.Ident)
			target, isImport := "", false
			if isIdent {
				target, isImport = imports[pkg.Name]
			}
			switch {
			case isImport && pkg.Name == "testing" && fn.Sel.Name == "Short":
				info.skips = true
			case isImport && target != "":
				info.callees = append(info.callees, funcKey{target, fn.Sel.Name})
			case !isImport:
				info.callees = append(info.callees, funcKey{dir, "*." + fn.Sel.Name})
			}
		}
		return true
	})
	return info
}

// startOf says what n starts, "" when nothing: a call of a Start function of
// pkg/local/emulators, a child process (os/exec's Command or CommandContext; not `go
// list`, a query of the build cache that starts nothing that stays), or the CLI's serve
// command (a []string{"serve", ...} argument list: `multisell serve` starts the emulators;
// not `serve -h`, which prints its usage only).
func startOf(n ast.Node, imports map[string]string) string {
	switch n := n.(type) {
	case *ast.CallExpr:
		sel, ok := n.Fun.(*ast.SelectorExpr)
		if !ok {
			return ""
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok {
			return ""
		}
		dir, imported := imports[pkg.Name]
		switch {
		case imported && dir == "pkg/local/emulators" && strings.HasPrefix(sel.Sel.Name, "Start"):
			return "emulators." + sel.Sel.Name
		case imported && pkg.Name == "exec" && (sel.Sel.Name == "Command" || sel.Sel.Name == "CommandContext"):
			args := n.Args
			if sel.Sel.Name == "CommandContext" && len(args) > 0 {
				args = args[1:]
			}
			if len(args) >= 2 && stringLit(args[0]) == "go" && stringLit(args[1]) == "list" {
				return ""
			}
			return "exec." + sel.Sel.Name
		}
	case *ast.CompositeLit:
		if len(n.Elts) > 0 && stringLit(n.Elts[0]) == "serve" && !slices.ContainsFunc(n.Elts, isHelpFlag) {
			return `the CLI's "serve"`
		}
	}
	return ""
}

// isHelpFlag reports whether e is the literal -h or --help.
func isHelpFlag(e ast.Expr) bool {
	s := stringLit(e)
	return s == "-h" || s == "--help"
}

// stringLit is the value of a string literal, "" for anything else.
func stringLit(e ast.Expr) string {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return ""
	}
	s, _ := strconv.Unquote(lit.Value)
	return s
}

// shortModeRule decides, over funcs, which functions skip in short mode (their body or
// a function they call does) and which start something unguarded: their body does, or
// a helper of the test files they call does without skipping first.
type shortModeRule struct {
	funcs         map[funcKey]*funcInfo
	skips, starts memo
}

// memo holds a closure's values by function, and the functions being computed.
type memo struct{ done, visiting map[funcKey]string }

func newShortModeRule(funcs map[funcKey]*funcInfo) *shortModeRule {
	newMemo := func() memo { return memo{map[funcKey]string{}, map[funcKey]string{}} }
	return &shortModeRule{funcs: funcs, skips: newMemo(), starts: newMemo()}
}

// closure is, memoised in m, own of k's info or else the first non-empty step of a
// function k calls; a function met again while it is computed (recursion) gives "".
func (r *shortModeRule) closure(k funcKey, m memo, own func(*funcInfo) string, step func(funcKey) string) string {
	if v, ok := m.done[k]; ok {
		return v
	}
	if _, ok := m.visiting[k]; ok {
		return ""
	}
	m.visiting[k] = ""
	defer delete(m.visiting, k)
	got := own(r.funcs[k])
	for _, c := range r.funcs[k].callees {
		for _, ck := range r.resolve(c) {
			if got == "" {
				got = step(ck)
			}
		}
	}
	m.done[k] = got
	return got
}

// resolve finds the functions k may name: itself, or for "*.Method" every method of
// that name in the folder.
func (r *shortModeRule) resolve(k funcKey) []funcKey {
	if name, ok := strings.CutPrefix(k.name, "*."); ok {
		var ks []funcKey
		for fk := range r.funcs {
			if fk.dir == k.dir && strings.HasSuffix(fk.name, "."+name) {
				ks = append(ks, fk)
			}
		}
		return ks
	}
	if _, ok := r.funcs[k]; ok {
		return []funcKey{k}
	}
	return nil
}

// skipsShort reports whether k, or a function it calls, skips in short mode.
func (r *shortModeRule) skipsShort(k funcKey) bool {
	own := func(info *funcInfo) string { return map[bool]string{true: "skips"}[info.skips] }
	step := func(ck funcKey) string { return map[bool]string{true: "skips"}[r.skipsShort(ck)] }
	return r.closure(k, r.skips, own, step) != ""
}

// unguardedStart is what k starts without skipping in short mode: its own start or an
// unguarded start of a test-file helper it calls; "" when none, or when k skips.
func (r *shortModeRule) unguardedStart(k funcKey) string {
	if r.skipsShort(k) {
		return ""
	}
	own := func(info *funcInfo) string { return info.starts }
	step := func(ck funcKey) string {
		if !r.funcs[ck].test {
			return ""
		}
		if s := r.unguardedStart(ck); s != "" {
			return s + " (in " + ck.name + ")"
		}
		return ""
	}
	return r.closure(k, r.starts, own, step)
}

// TestShortModeStartsNothing: the fast loop (make unit: go test -short) starts no
// emulator and no process. Every Test and Fuzz function that starts one (a Start
// function of pkg/local/emulators, an os/exec command other than `go list`, or the
// CLI's serve) in its body or in a helper of the test files it calls, must skip in
// short mode first: call testenv.SkipShort or testenv.Get (or a function that does,
// or testing.Short() itself), or sit in a package whose TestMain skips in short mode.
// docs/local-stack.md, "The fast loop", states the rule.
func TestShortModeStartsNothing(t *testing.T) {
	t.Parallel()
	funcs, tests, mains := moduleFuncs(t)
	rule := newShortModeRule(funcs)
	shortMains := map[string]bool{} // folders whose TestMain skips in short mode
	for _, m := range mains {
		shortMains[m.dir] = rule.skipsShort(m)
	}
	slices.SortFunc(tests, func(a, b funcKey) int { return strings.Compare(a.dir+"."+a.name, b.dir+"."+b.name) })
	checked := 0
	for _, k := range tests {
		if shortMains[k.dir] {
			continue
		}
		checked++
		if what := rule.unguardedStart(k); what != "" {
			t.Errorf("%s: %s starts %s without skipping in short mode: call testenv.SkipShort(t) (or testenv.Get) first", k.dir, k.name, what)
		}
	}
	if checked < 100 {
		t.Errorf("checked %d tests, want the module's (hundreds): is the walk broken?", checked)
	}
}

// TestShortModeRule: the rule flags a planted test that starts an emulator, a process
// or serve itself or through a helper, and passes one that skips first (itself, in the
// helper, or through testenv).
func TestShortModeRule(t *testing.T) {
	t.Parallel()
	const src = `package x

import (
	"os/exec"
	"testing"

	"github.com/multisell/multisell/pkg/local/emulators"
	"github.com/multisell/multisell/pkg/testenv"
)

func startHelper() { _, _ = emulators.StartFauxqs(nil) }

func guardedHelper(t *testing.T) {
	if testing.Short() {
		t.Skip()
	}
	startHelper()
}

func TestDirect(t *testing.T)      { emulators.StartDynoxide(nil, emulators.DynoxideOptions{}) }
func TestProcess(t *testing.T)     { _ = exec.Command("node", "x.js").Run() }
func TestServe(t *testing.T)       { run([]string{"serve", "--port", "0"}) }
func TestViaHelper(t *testing.T)   { startHelper() }
func TestGoList(t *testing.T)      { _ = exec.Command("go", "list", "std").Run() }
func TestSkipped(t *testing.T)     { testenv.SkipShort(t); startHelper() }
func TestGet(t *testing.T)         { _ = testenv.Get(t); _ = exec.Command("bash").Run() }
func TestGuardedHelper(t *testing.T) { guardedHelper(t) }
func TestNothing(t *testing.T)     {}
`
	f, err := parser.ParseFile(token.NewFileSet(), "x_test.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	funcs := map[funcKey]*funcInfo{
		{"pkg/testenv", "SkipShort"}: {skips: true},
		{"pkg/testenv", "Get"}:       {callees: []funcKey{{"pkg/testenv", "SkipShort"}}},
	}
	imports := importDirs(f)
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			info := inspectFunc(fd.Body, "x", imports)
			info.test = true
			funcs[funcKey{"x", funcName(fd)}] = info
		}
	}
	rule := newShortModeRule(funcs)
	for _, tc := range []struct {
		test, want string
	}{
		{"TestDirect", "emulators.StartDynoxide"},
		{"TestProcess", "exec.Command"},
		{"TestServe", `the CLI's "serve"`},
		{"TestViaHelper", "emulators.StartFauxqs (in startHelper)"},
		{"TestGoList", ""},
		{"TestSkipped", ""},
		{"TestGet", ""},
		{"TestGuardedHelper", ""},
		{"TestNothing", ""},
	} {
		t.Run(tc.test, func(t *testing.T) { // not parallel: rule memoises in plain maps
			if got := rule.unguardedStart(funcKey{"x", tc.test}); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
