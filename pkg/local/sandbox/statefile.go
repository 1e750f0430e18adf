package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ReadState reads a sandbox's state file (JSON) into v; a file that does not exist leaves v
// as it is.
func ReadState(file string, v any) error {
	data, err := os.ReadFile(file)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("sandbox: read its state: %w", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("sandbox: read its state %s: %w", file, err)
	}
	return nil
}

// WriteState writes v to a sandbox's state file atomically, readable by the owner only,
// making its folder if needed.
func WriteState(file string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("sandbox: write its state: %w", err)
	}
	if err := os.Rename(tmp, file); err != nil {
		return fmt.Errorf("sandbox: write its state: %w", err)
	}
	return nil
}
