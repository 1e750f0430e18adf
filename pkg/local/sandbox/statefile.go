package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
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

// StateFile is the file a sandbox keeps its state in ("" for none: a test's sandbox, in
// memory only). Its methods are called with the sandbox's lock held.
type StateFile string

// Save writes the state state returns, unless there is no file; a failure is logged: the
// sandbox keeps serving from memory.
func (f StateFile) Save(state func() any) {
	if f == "" {
		return
	}
	if err := WriteState(string(f), state()); err != nil {
		slog.Warn("sandbox state not saved", "file", string(f), "error", err.Error())
	}
}

// keeper is what OpenState needs of a sandbox's Registry: its lock, its file and its state.
type keeper interface {
	sync.Locker
	keep(file StateFile) error
}

// keep makes file the registry's state file and writes the state there now (the lock held).
func (g *Registry[S]) keep(file StateFile) error {
	g.file = file
	return WriteState(string(file), g.state())
}

// OpenState starts srv as every sandbox of the local stack starts: it reads the state kept
// in file into a new T (a zero T when there is no file yet), restore takes what the sandbox
// keeps of it and returns the address srv had (empty the first time: a free loopback port),
// and srv starts there. Then, under the sandbox's lock, file becomes reg's state file and
// the state is written back at once, so a file the sandbox cannot write is an error now
// rather than a warning at its first change. An address another process took since is an
// error too: the channels connected to the sandbox keep its URL.
func OpenState[T any](srv *Server, reg keeper, file string, restore func(*T) (addr string)) error {
	var st T
	if err := ReadState(file, &st); err != nil {
		return err
	}
	if err := srv.StartAt(restore(&st)); err != nil {
		return fmt.Errorf("%w (the address of its state %s; delete the file for a new sandbox on a free port)", err, file)
	}
	reg.Lock()
	defer reg.Unlock()
	if err := reg.keep(StateFile(file)); err != nil {
		_ = srv.Close()
		return err
	}
	return nil
}
