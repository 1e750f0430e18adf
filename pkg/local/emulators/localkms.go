package emulators

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// KMSOptions configures StartLocalKMS.
type KMSOptions struct {
	// DataDir is the folder local-kms keeps its keys in (a LevelDB database);
	// "" keeps them in a temporary folder removed when the process is stopped.
	DataDir string
}

// KMS account and region: local-kms puts them in its keys' ARNs, so they are
// those of the local stack (pkg/local/gateway's defaults).
const (
	kmsAccountID = "000000000000"
	kmsRegion    = "us-east-1"
)

// StartLocalKMS starts local-kms (the KMS emulator, a Go module pinned by the tool
// directive of go.mod) on a free port and waits until it answers. local-kms takes only a
// port and so listens on every interface; its clients use the loopback address. Restart
// runs it again on the same port and data folder, so its keys survive.
func StartLocalKMS(ctx context.Context, opts KMSOptions) (*Process, error) {
	bin, err := localKMSBinary(ctx)
	if err != nil {
		return nil, fmt.Errorf("start local-kms: %w: %w", errNotInstalled, err)
	}
	dir, removeData, err := dataDir(opts.DataDir, "local-kms-")
	if err != nil {
		return nil, fmt.Errorf("start local-kms: %w", err)
	}
	p, err := startOnFreePort(ctx, "local-kms", listenOn(15*time.Second, func(port int) (*Process, error) {
		env := append(os.Environ(), "PORT="+strconv.Itoa(port), "KMS_DATA_PATH="+dir,
			"KMS_ACCOUNT_ID="+kmsAccountID, "KMS_REGION="+kmsRegion,
			// No seed file: the local stack creates its keys from template.yaml.
			"KMS_SEED_PATH="+filepath.Join(dir, "no-seed.yaml"))
		return start("local-kms", dir, env, nil, bin)
	}))
	if err != nil {
		removeData()
		return nil, err
	}
	p.afterStop = removeData
	return p, nil
}

var (
	kmsBinaryOnce sync.Once
	kmsBinary     string
	kmsBinaryErr  error
)

// localKMSBinary returns the path of the local-kms executable: `go tool -n local-kms`
// at the repository root builds it into the Go build cache on first use (from the
// module cache, which `make deps` fills) and prints where it is.
func localKMSBinary(ctx context.Context) (string, error) {
	kmsBinaryOnce.Do(func() {
		root, err := RepoRoot()
		if err != nil {
			kmsBinaryErr = err
			return
		}
		goCmd, err := exec.LookPath("go")
		if err != nil {
			kmsBinaryErr = err
			return
		}
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, goCmd, "tool", "-n", "local-kms")
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			var stderr string
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = strings.TrimSpace(string(ee.Stderr))
			}
			kmsBinaryErr = fmt.Errorf("go tool -n local-kms: %w: %s", err, stderr)
			return
		}
		kmsBinary = strings.TrimSpace(string(out))
	})
	return kmsBinary, kmsBinaryErr
}
