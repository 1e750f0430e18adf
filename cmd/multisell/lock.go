package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockFile is the file in a stack's folder that serve holds locked while it runs.
const lockFile = "serve.lock"

// lockStack takes the stack folder dir for one serve: it holds an exclusive lock on
// dir/serve.lock from before anything starts until release, which serve calls after every
// child (emulators, sandboxes, pollers) has exited. A second serve on the same folder, even
// while the first is still stopping, is refused, so it never starts a second local-kms on
// the first one's data.
func lockStack(dir string) (release func(), err error) {
	path := filepath.Join(dir, lockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("a local stack is already running or still stopping on %s (%s is locked)", dir, path)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { _ = f.Close() }, nil
}
