package emulators

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// DynoxideOptions configures StartDynoxide.
type DynoxideOptions struct {
	// DBPath is the SQLite file to keep the data in; "" keeps it in memory.
	DBPath string
}

// StartDynoxide starts Dynoxide (a DynamoDB emulator backed by SQLite) on a free loopback
// port and waits until it answers.
func StartDynoxide(ctx context.Context, opts DynoxideOptions) (*Process, error) {
	mods, err := modulesDir()
	if err != nil {
		return nil, fmt.Errorf("start dynoxide: %w: %w", errNotInstalled, err)
	}
	bin := filepath.Join(mods, "@dynoxide", "linux-x64", "dynoxide")
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("start dynoxide: %w: %w (run `make deps`)", errNotInstalled, err)
	}
	if opts.DBPath != "" {
		if err := os.MkdirAll(filepath.Dir(opts.DBPath), 0o755); err != nil {
			return nil, fmt.Errorf("start dynoxide: %w", err)
		}
	}
	return startOnFreePort(ctx, "dynoxide", 15*time.Second, func(port int) (*Process, error) {
		args := []string{bin, "serve", "--host", "127.0.0.1", "--port", strconv.Itoa(port)}
		if opts.DBPath != "" {
			args = append(args, "--db-path", opts.DBPath)
		}
		return start("dynoxide", mods, os.Environ(), nil, args...)
	})
}
