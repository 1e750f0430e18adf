package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/multisell/multisell/pkg/local/emulators"
	"github.com/multisell/multisell/pkg/local/gateway"
)

func init() {
	register(command{
		name:    "docs",
		summary: "write the API reference page, one self-contained HTML file: docs --out FILE [--server URL]",
		run:     runDocs,
	})
}

// runDocs writes the page serve answers on /docs (docs/openapi.yaml and redoc's bundle
// inline: it loads nothing from the network) to a file, for hosting.
func runDocs(_ context.Context, args []string) error {
	fs := newFlagSet("docs", "--out FILE [--server URL]")
	out := fs.String("out", "", "the `file` to write (required)")
	server := fs.String("server", "", "the API's base `URL`, ending in the stage, as the page's servers entry (default: docs/openapi.yaml's)")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	if *out == "" {
		return usagef("--out FILE is required")
	}
	root, err := emulators.RepoRoot()
	if err != nil {
		return err
	}
	page, err := gateway.RenderReference(root, *server)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		return fmt.Errorf("docs: %w", err)
	}
	if err := os.WriteFile(*out, page, 0o644); err != nil {
		return fmt.Errorf("docs: %w", err)
	}
	return nil
}
