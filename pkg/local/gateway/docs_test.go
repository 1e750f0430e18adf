package gateway

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/multisell/multisell/pkg/local/emulators"
)

// referenceRoot is the repository root, the test skipped with -short (it reads redoc's
// bundle from emulators/node_modules, which make deps installs).
func referenceRoot(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("reads redoc's bundle from emulators/node_modules (make deps): skipped with -short (make unit); make test runs it")
	}
	root, err := emulators.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestReferencePage fetches /docs from a gateway serving the reference page: every path of
// docs/openapi.yaml in it, its servers entry the gateway's own URL, and nothing loaded
// from elsewhere (no script or style by URL).
func TestReferencePage(t *testing.T) {
	t.Parallel()
	root := referenceRoot(t)
	paths, _ := documentPaths(t, filepath.Join(root, "docs", "openapi.yaml"))
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, _ := newTestGatewayWith(t, Options{Docs: &ReferencePage{Root: root, Stage: "v1", Logger: quiet}})
	r := call(t, srv, "GET", DocsPath, "", "", nil)
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /docs: %d %s %.300s", r.status, r.header.Get("Content-Type"), r.body)
	}
	for _, p := range paths {
		if !strings.Contains(r.body, `"`+p+`"`) {
			t.Errorf("the page does not name the path %s", p)
		}
	}
	server, _ := json.Marshal([]map[string]string{{"url": srv.URL + "/v1"}})
	if want := `"servers":` + string(server); !strings.Contains(r.body, want) {
		t.Errorf("the page does not hold %s", want)
	}
	for _, remote := range []string{"<script src", "<link", "@import"} {
		if strings.Contains(r.body, remote) {
			t.Errorf("the page loads something by URL: %q", remote)
		}
	}
	if r := call(t, srv, "POST", DocsPath, "", "", nil); r.status != 405 {
		t.Errorf("POST /docs: %d, want 405", r.status)
	}
}

// TestReferencePageOffline renders the page make docs writes in headless Chromium with
// every network request sent to a proxy that is not there, and finds every operation's
// summary in what it drew. Chromium comes from Debian's packages (chromium); without it the
// test is skipped.
func TestReferencePageOffline(t *testing.T) {
	t.Parallel()
	root := referenceRoot(t)
	var browser string
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		t.Skip("no chromium or chromium-browser on PATH (Debian: apt-get install chromium): the offline rendering is not checked")
	}
	_, summaries := documentPaths(t, filepath.Join(root, "docs", "openapi.yaml"))
	page, err := RenderReference(root, "http://127.0.0.1:3000/v1")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "index.html")
	if err := os.WriteFile(file, page, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu",
		"--no-first-run", "--user-data-dir="+t.TempDir(),
		"--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>", // the network is off
		"--virtual-time-budget=30000", "--dump-dom", "file://"+file).Output()
	if err != nil {
		t.Fatalf("%s: %v", browser, err)
	}
	dom := string(out)
	if !strings.Contains(dom, `id="redoc"`) {
		t.Fatalf("no redoc element in the rendered page: %.500s", dom)
	}
	for _, s := range summaries {
		if !strings.Contains(dom, htmlText(s)) {
			t.Errorf("the rendered page does not show the operation %q", s)
		}
	}
}

// documentPaths returns the paths of an OpenAPI document and the summaries of its
// operations.
func documentPaths(t *testing.T, file string) (paths, summaries []string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]any `yaml:"paths"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Paths) == 0 {
		t.Fatalf("%s has no paths", file)
	}
	for p, ops := range doc.Paths {
		paths = append(paths, p)
		for _, op := range ops {
			if op, ok := op.(map[string]any); ok {
				if s, ok := op["summary"].(string); ok {
					summaries = append(summaries, s)
				}
			}
		}
	}
	sort.Strings(paths)
	return paths, summaries
}
