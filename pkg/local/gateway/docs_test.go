package gateway

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/multisell/multisell/pkg/local/emulators"
)

// TestReferencePage fetches /docs from a gateway serving the reference page and finds
// every path of docs/openapi.yaml in it: built when missing, built again when older than
// the document, served as kept when newer.
func TestReferencePage(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the Redocly CLI (node): skipped with -short (make unit); make test runs it")
	}
	root, err := emulators.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	paths := documentPaths(t, filepath.Join(root, "docs", "openapi.yaml"))
	const kept = "<html>the page as kept</html>"
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, tc := range []struct {
		name string
		// age is the age of a page already in the file (0: no file).
		age       time.Duration
		wantKept  bool
		wantPaths bool
	}{
		{name: "missing", wantPaths: true},
		{name: "older than the document", age: 24 * 365 * 30 * time.Hour, wantPaths: true},
		{name: "newer than the document", age: -time.Hour, wantKept: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			file := filepath.Join(t.TempDir(), "docs", "index.html")
			if tc.age != 0 {
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, []byte(kept), 0o644); err != nil {
					t.Fatal(err)
				}
				at := time.Now().Add(-tc.age)
				if err := os.Chtimes(file, at, at); err != nil {
					t.Fatal(err)
				}
			}
			srv, _ := newTestGatewayWith(t, Options{Docs: &ReferencePage{Root: root, File: file, Logger: quiet}})
			r := call(t, srv, "GET", DocsPath, "", "", nil)
			if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
				t.Fatalf("GET /docs: %d %s %.300s", r.status, r.header.Get("Content-Type"), r.body)
			}
			if got := r.body == kept; got != tc.wantKept {
				t.Errorf("served the kept page: %v, want %v", got, tc.wantKept)
			}
			if tc.wantPaths {
				for _, p := range paths {
					if !strings.Contains(r.body, p) {
						t.Errorf("the page does not name the path %s", p)
					}
				}
			}
		})
	}
	t.Run("other methods", func(t *testing.T) {
		t.Parallel()
		srv, _ := newTestGatewayWith(t, Options{Docs: &ReferencePage{Root: root, File: filepath.Join(t.TempDir(), "index.html"), Logger: quiet}})
		if r := call(t, srv, "POST", DocsPath, "", "", nil); r.status != 405 {
			t.Errorf("POST /docs: %d, want 405", r.status)
		}
	})
}

// documentPaths returns the paths of an OpenAPI document.
func documentPaths(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]any `yaml:"paths"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Paths) == 0 {
		t.Fatalf("%s has no paths", file)
	}
	out := make([]string, 0, len(doc.Paths))
	for p := range doc.Paths {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
