package gateway

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"
)

// DocsPath is where the local gateway serves the API reference page (Options.Docs), beside
// the stage: http://127.0.0.1:3000/docs.
const DocsPath = "/docs"

// RedocBundle is the renderer of the reference page under the repository root: redoc's
// standalone bundle, pinned in emulators/package.json and installed by make deps.
const RedocBundle = "emulators/node_modules/redoc/bundles/redoc.standalone.js"

// serverPlaceholder stands for the servers entry in a rendered page until it is served.
const serverPlaceholder = "multisell-server-url-placeholder"

// ReferencePage is the API reference page: docs/openapi.yaml and redoc's standalone bundle
// (RedocBundle) inlined in one HTML file, so the page loads nothing from the network. Its
// servers entry names the stack that serves it (the URL the request reached, with Stage).
// The page is rendered on first use and again when the document or the bundle is newer than
// the rendering, so an edit shows on the next reload. It is safe for concurrent use;
// `multisell docs` (make docs) writes the same page for hosting (docs/local-stack.md).
type ReferencePage struct {
	// Root is the repository root: docs/openapi.yaml and RedocBundle are under it.
	Root string
	// Stage is the API's stage, the last segment of the servers entry (the gateway's).
	Stage string
	// Logger receives a line per rendering; default slog.Default().
	Logger *slog.Logger

	mu       sync.Mutex
	page     []byte
	rendered time.Time
}

// Build renders the page unless a rendering is newer than the document and the bundle.
func (p *ReferencePage) Build() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	spec, bundle := filepath.Join(p.Root, "docs", "openapi.yaml"), filepath.Join(p.Root, RedocBundle)
	if p.page != nil && !newer(p.rendered, spec, bundle) {
		return nil
	}
	start := time.Now()
	page, err := RenderReference(p.Root, serverPlaceholder)
	if err != nil {
		return err
	}
	p.page, p.rendered = page, start
	p.logger().Info("reference page rendered", "bytes", len(page), "duration_ms", time.Since(start).Milliseconds())
	return nil
}

// newer reports whether a file of files was changed after t (or cannot be read).
func newer(t time.Time, files ...string) bool {
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || fi.ModTime().After(t) {
			return true
		}
	}
	return false
}

// RenderReference renders the reference page of docs/openapi.yaml under root with server
// as its one servers entry ("" keeps the document's): the document as JSON and RedocBundle,
// both inline, and the call that renders one with the other.
func RenderReference(root, server string) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(root, "docs", "openapi.yaml"))
	if err != nil {
		return nil, fmt.Errorf("reference page: %w", err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("reference page: docs/openapi.yaml: %w", err)
	}
	if server != "" {
		doc["servers"] = []map[string]string{{"url": server}}
	}
	spec, err := json.Marshal(doc) // escapes <, > and &: nothing in it ends the script
	if err != nil {
		return nil, fmt.Errorf("reference page: docs/openapi.yaml as JSON: %w", err)
	}
	bundle, err := os.ReadFile(filepath.Join(root, RedocBundle))
	if err != nil {
		return nil, fmt.Errorf("reference page: %w (make deps installs redoc)", err)
	}
	if bytes.Contains(bytes.ToLower(bundle), []byte("</script")) {
		return nil, fmt.Errorf("reference page: %s holds </script and cannot be inlined", RedocBundle)
	}
	title, _ := doc["info"].(map[string]any)["title"].(string)
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
	b.WriteString(htmlText(title))
	b.WriteString("</title>\n<style>body { margin: 0; padding: 0; }</style>\n</head>\n<body>\n<div id=\"redoc\"></div>\n<script>\n")
	b.Write(bundle)
	b.WriteString("\n</script>\n<script>\nRedoc.init(")
	b.Write(spec)
	b.WriteString(", {}, document.getElementById(\"redoc\"));\n</script>\n</body>\n</html>\n")
	return b.Bytes(), nil
}

// htmlText escapes s for HTML text.
func htmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// ServeHTTP answers GET and HEAD with the page, rendered first when it is missing or stale,
// its servers entry the URL the request reached; a page that cannot be rendered is a 503
// that says why.
func (p *ReferencePage) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if err := p.Build(); err != nil {
		p.logger().Error("reference page", "error", err.Error())
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	p.mu.Lock()
	page, rendered := p.page, p.rendered
	p.mu.Unlock()
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	server, _ := json.Marshal(scheme + "://" + r.Host + "/" + p.Stage)
	page = bytes.Replace(page, []byte(`"`+serverPlaceholder+`"`), server, 1)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, "index.html", rendered, bytes.NewReader(page))
}

func (p *ReferencePage) logger() *slog.Logger {
	if p.Logger != nil {
		return p.Logger
	}
	return slog.Default()
}
