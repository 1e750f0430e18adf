package gateway

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

// DocsPath is where the local gateway serves the API reference page (Options.Docs), beside
// the stage: http://127.0.0.1:3000/docs.
const DocsPath = "/docs"

// ReferencePage is the API reference page: docs/openapi.yaml rendered by the Redocly CLI
// pinned in emulators/package.json (`redocly build-docs`, one self-contained HTML file).
// The page is built on first use and kept in File, and built again when the document or
// redocly.yaml is newer than it, so an edit shows on the next reload. It is safe for
// concurrent use; `make docs` builds the same page for hosting (docs/local-stack.md).
type ReferencePage struct {
	// Root is the repository root: docs/openapi.yaml, redocly.yaml and
	// emulators/node_modules/.bin/redocly are under it.
	Root string
	// File is where the built page is kept (serve: .local/docs/index.html).
	File string
	// Logger receives a line per build; default slog.Default().
	Logger *slog.Logger

	mu sync.Mutex
}

// buildTimeout bounds one run of the Redocly CLI (about a second).
const buildTimeout = 2 * time.Minute

// Build builds the page into File unless File is newer than the document and redocly.yaml.
func (p *ReferencePage) Build(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	spec := filepath.Join(p.Root, "docs", "openapi.yaml")
	if current, err := p.current(spec, filepath.Join(p.Root, "redocly.yaml")); err != nil || current {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p.File), 0o755); err != nil {
		return fmt.Errorf("reference page: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, buildTimeout)
	defer cancel()
	start := time.Now()
	tmp := p.File + ".tmp.html"
	cmd := exec.CommandContext(ctx, filepath.Join(p.Root, "emulators", "node_modules", ".bin", "redocly"),
		"build-docs", spec, "--output", tmp)
	cmd.Dir = p.Root // where redocly.yaml is found
	cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true")
	if out, err := cmd.CombinedOutput(); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("reference page: redocly build-docs (make deps installs the Redocly CLI): %w\n%s", err, out)
	}
	if err := os.Rename(tmp, p.File); err != nil {
		return fmt.Errorf("reference page: %w", err)
	}
	p.logger().Info("reference page built", "file", p.File, "duration_ms", time.Since(start).Milliseconds())
	return nil
}

// current reports whether File exists and is newer than every source.
func (p *ReferencePage) current(sources ...string) (bool, error) {
	page, err := os.Stat(p.File)
	if os.IsNotExist(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reference page: %w", err)
	}
	for _, src := range sources {
		fi, err := os.Stat(src)
		if os.IsNotExist(err) {
			continue // redocly.yaml is optional
		}
		if err != nil {
			return false, fmt.Errorf("reference page: %w", err)
		}
		if fi.ModTime().After(page.ModTime()) {
			return false, nil
		}
	}
	return true, nil
}

// ServeHTTP answers GET and HEAD with the page, built first when it is missing or stale;
// a page that cannot be built is a 503 that says why.
func (p *ReferencePage) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if err := p.Build(r.Context()); err != nil {
		p.logger().Error("reference page", "error", err.Error())
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	f, err := os.Open(p.File)
	if err != nil {
		http.Error(w, "reference page: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	defer func() { _ = f.Close() }()
	fi, err := f.Stat()
	if err != nil {
		http.Error(w, "reference page: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, "index.html", fi.ModTime(), f)
}

func (p *ReferencePage) logger() *slog.Logger {
	if p.Logger != nil {
		return p.Logger
	}
	return slog.Default()
}
