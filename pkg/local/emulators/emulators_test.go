package emulators

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRepoRoot(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(wd, "..", "..", ".."); root != filepath.Clean(want) {
		t.Errorf("RepoRoot() = %q, want %q", root, want)
	}
}

func TestEmulatorsStartAndStop(t *testing.T) {
	t.Parallel()
	starters := map[string]func(context.Context) (*Process, error){
		"dynoxide": func(ctx context.Context) (*Process, error) { return StartDynoxide(ctx, DynoxideOptions{}) },
		"dynoxide-file": func(ctx context.Context) (*Process, error) {
			return StartDynoxide(ctx, DynoxideOptions{DBPath: filepath.Join(t.TempDir(), "sub", "db.sqlite")})
		},
		"fauxqs":         StartFauxqs,
		"dynamodb-local": StartDynamoDBLocal,
	}
	for name, startFn := range starters {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if name == "dynamodb-local" && !JavaAvailable() {
				t.Skip("java is not installed")
			}
			start := time.Now()
			p, err := startFn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s ready on %s in %v", name, p.Endpoint, time.Since(start))
			resp, err := http.Post(p.Endpoint+"/", "application/x-amz-json-1.0", strings.NewReader("{}"))
			if err != nil {
				t.Fatalf("not answering: %v", err)
			}
			_ = resp.Body.Close()
			pid := p.cmd.Process.Pid
			if err := p.Stop(); err != nil {
				t.Fatal(err)
			}
			select {
			case <-p.Done():
			default:
				t.Fatal("process still running after Stop")
			}
			if err := syscall.Kill(-pid, 0); err == nil {
				t.Errorf("process group %d still has members", pid)
			}
			_ = p.Stop() // idempotent
		})
	}
}
