package faults

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/multisell/multisell/pkg/local/emulators"
)

// binary is the multisell command the tests run, built once by TestMain; root is the
// repository root it runs in (template.yaml, the emulators).
var binary, root string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	flag.Parse()
	if testing.Short() {
		fmt.Println("faults: skipped with -short (make unit): they run the local stack; make test runs them")
		return 0
	}
	var err error
	if root, err = emulators.RepoRoot(); err != nil {
		fmt.Fprintln(os.Stderr, "faults:", err)
		return 1
	}
	dir, err := os.MkdirTemp("", "multisell-faults-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "faults:", err)
		return 1
	}
	defer func() { _ = os.RemoveAll(dir) }()
	binary = filepath.Join(dir, "multisell")
	build := exec.Command("go", "build", "-o", binary, "./cmd/multisell")
	build.Dir, build.Stdout, build.Stderr = root, os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "faults: build multisell:", err)
		return 1
	}
	return m.Run()
}
