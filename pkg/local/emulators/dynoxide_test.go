package emulators

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDynoxideStreamIndexes checks that the lookups Dynoxide makes on every
// write and every GetRecords (the statements in its binary, with literal
// arguments) are index seeks on the database StartDynoxide made, and that a
// temporary database is gone after Stop.
func TestDynoxideStreamIndexes(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the emulators: skipped with -short (make unit); make test runs it")
	}
	t.Parallel()
	p, err := StartDynoxide(context.Background(), DynoxideOptions{})
	if err != nil {
		t.Fatal(err)
	}
	db := dbPathOf(t, p)
	queries := map[string]string{
		"next sequence number": `SELECT COALESCE(MAX(CAST(sequence_number AS INTEGER)), 0) + 1 FROM _stream_records WHERE table_name = 'Table'`,
		"records of a shard": `SELECT event_name FROM _stream_records WHERE table_name = 'Table' AND shard_id = 'shard' AND CAST(sequence_number AS INTEGER) > 7
			ORDER BY CAST(sequence_number AS INTEGER) ASC LIMIT 100`,
	}
	for name, q := range queries {
		out, err := exec.Command("sqlite3", "-batch", db, "EXPLAIN QUERY PLAN "+q).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v: %s", name, err, out)
		}
		plan := string(out)
		if got := strings.Contains(plan, "USING INDEX multisell_stream_") && !strings.Contains(plan, "TEMP B-TREE"); !got {
			t.Errorf("%s: plan %q, want an index seek without a sort", name, plan)
		}
	}
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(db)); !os.IsNotExist(err) {
		t.Errorf("temporary database %s after Stop: %v, want it removed", db, err)
	}
}

// dbPathOf returns the --db-path argument p was started with.
func dbPathOf(t *testing.T, p *Process) string {
	t.Helper()
	args := p.cmd.Args
	for i, a := range args[:len(args)-1] {
		if a == "--db-path" {
			return args[i+1]
		}
	}
	t.Fatalf("dynoxide started without --db-path: %v", args)
	return ""
}
