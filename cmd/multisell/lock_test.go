package main

import (
	"strings"
	"testing"
)

// TestLockStack: a second serve on a stack folder is refused while the first holds it, and
// takes it once the first released it.
func TestLockStack(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	release, err := lockStack(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockStack(dir); err == nil || !strings.Contains(err.Error(), "already running or still stopping") {
		t.Errorf("second lock: %v, want refused", err)
	}
	release()
	again, err := lockStack(dir)
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	again()
}
