package connectorsim

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// lockName is the file in the state directory that holds the pid of the sim using it.
const lockName = "sim.pid"

// lockDir claims the state directory for this process, so two sims (make run's and one
// started by hand) never write the same channel files. A lock whose process is gone is
// taken over. The returned function releases it.
func lockDir(dir string) (func(), error) {
	path := filepath.Join(dir, lockName)
	for range 3 {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			_, werr := fmt.Fprintf(f, "%d\n", os.Getpid())
			if err := errors.Join(werr, f.Close()); err != nil {
				_ = os.Remove(path)
				return nil, fmt.Errorf("connector sim: lock %s: %w", path, err)
			}
			return func() { _ = os.Remove(path) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("connector sim: lock %s: %w", path, err)
		}
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue // released meanwhile
		}
		if err != nil {
			return nil, fmt.Errorf("connector sim: lock %s: %w", path, err)
		}
		if pid, _ := strconv.Atoi(strings.TrimSpace(string(data))); pid > 0 && processAlive(pid) {
			return nil, fmt.Errorf("connector sim: another sim (pid %d) uses %s: stop it (`make run` starts one unless MULTISELL_SIM=off) or use another directory", pid, dir)
		}
		_ = os.Remove(path) // its process is gone
	}
	return nil, fmt.Errorf("connector sim: could not lock %s", path)
}
