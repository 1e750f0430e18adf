package emulators

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// RepoRoot returns the repository root: the nearest directory at or above the working
// directory that holds go.mod.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find repository root: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("find repository root: no go.mod at or above the working directory")
		}
		dir = parent
	}
}

// modulesDir returns emulators/node_modules under the repository root.
func modulesDir() (string, error) {
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, "emulators", "node_modules")
	if _, err := os.Stat(dir); err != nil {
		return "", fmt.Errorf("emulators are not installed (run `make deps`): %w", err)
	}
	return dir, nil
}

// dataDir returns the folder an emulator keeps its data in: dir, created when missing, or,
// when dir is "", a new temporary folder (named after pattern, as os.MkdirTemp does); remove
// removes a temporary folder and does nothing to dir.
func dataDir(dir, pattern string) (_ string, remove func(), err error) {
	if dir == "" {
		tmp, err := os.MkdirTemp("", pattern)
		if err != nil {
			return "", nil, err
		}
		return tmp, func() { _ = os.RemoveAll(tmp) }, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", nil, err
	}
	return dir, func() {}, nil
}
