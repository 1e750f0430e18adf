package emulators

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// DynoxideOptions configures StartDynoxide.
type DynoxideOptions struct {
	// DBPath is the SQLite file to keep the data in; "" keeps it in a
	// temporary file removed when the process is stopped.
	DBPath string
}

// StartDynoxide starts Dynoxide (a DynamoDB emulator backed by SQLite) on a free loopback
// port, waits until it answers and indexes its stream records (streamIndexes). Restart
// runs it again on the same port and database.
func StartDynoxide(ctx context.Context, opts DynoxideOptions) (*Process, error) {
	mods, err := modulesDir()
	if err != nil {
		return nil, fmt.Errorf("start dynoxide: %w: %w", errNotInstalled, err)
	}
	bin := filepath.Join(mods, "@dynoxide", "linux-x64", "dynoxide")
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("start dynoxide: %w: %w (run `make deps`)", errNotInstalled, err)
	}
	sqlite, err := exec.LookPath("sqlite3")
	if err != nil {
		return nil, fmt.Errorf("start dynoxide: %w: the sqlite3 command: %w (run `make deps`)", errNotInstalled, err)
	}
	dbPath := opts.DBPath
	dir := ""
	if dbPath != "" {
		dir = filepath.Dir(dbPath)
	}
	dir, removeDB, err := dataDir(dir, "dynoxide-")
	if err != nil {
		return nil, fmt.Errorf("start dynoxide: %w", err)
	}
	if dbPath == "" {
		dbPath = filepath.Join(dir, "db.sqlite")
	}
	serve := listenOn(15*time.Second, func(port int) (*Process, error) {
		return start("dynoxide", mods, os.Environ(), nil, bin, "serve", "--host", "127.0.0.1", "--port", strconv.Itoa(port), "--db-path", dbPath)
	})
	p, err := startOnFreePort(ctx, "dynoxide", func(ctx context.Context, port int) (*Process, error) {
		p, err := serve(ctx, port)
		if err != nil {
			return nil, err
		}
		if err := indexStream(ctx, sqlite, dbPath); err != nil {
			_ = p.Stop()
			return nil, err
		}
		return p, nil
	})
	if err != nil {
		removeDB()
		return nil, err
	}
	p.afterStop = removeDB
	return p, nil
}

// streamIndexes are the indexes StartDynoxide adds to Dynoxide's own table
// of stream records. Dynoxide (1.2.1) finds a table's next stream sequence
// number with MAX(CAST(sequence_number AS INTEGER)) over that table's records
// and reads a shard by the same expression, and keeps every record: without
// an index each write scans every record written so far, so writes slow down
// as the stream grows (from thousands of items a second to under a hundred
// after 30,000 writes). With them the two lookups are index seeks.
var streamIndexes = []string{
	`CREATE INDEX IF NOT EXISTS multisell_stream_next ON _stream_records (table_name, CAST(sequence_number AS INTEGER))`,
	`CREATE INDEX IF NOT EXISTS multisell_stream_shard ON _stream_records (table_name, shard_id, CAST(sequence_number AS INTEGER))`,
}

// indexStream adds streamIndexes to the database at dbPath with the sqlite3
// command, waiting up to 10 s for Dynoxide's lock.
func indexStream(ctx context.Context, sqlite, dbPath string) error {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	sql := strings.Join(streamIndexes, ";\n") + ";"
	out, err := exec.CommandContext(ctx, sqlite, "-batch", "-cmd", ".timeout 10000", dbPath, sql).CombinedOutput()
	if err != nil {
		return errors.Join(fmt.Errorf("index the stream records: %w", err), errors.New(strings.TrimSpace(string(out))))
	}
	return nil
}
