package gateway

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/multisell/multisell/pkg/local/emulators"
)

// emulator processes shared by this package's tests, started on first use.
var (
	emuMu    sync.Mutex
	emuProcs = map[string]*emulators.Process{}
)

func emulator(t *testing.T, name string) *emulators.Process {
	t.Helper()
	emuMu.Lock()
	defer emuMu.Unlock()
	if p, ok := emuProcs[name]; ok {
		return p
	}
	var (
		p   *emulators.Process
		err error
	)
	switch name {
	case "fauxqs":
		p, err = emulators.StartFauxqs(context.Background())
	case "dynoxide":
		p, err = emulators.StartDynoxide(context.Background(), emulators.DynoxideOptions{})
	}
	if err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	emuProcs[name] = p
	return p
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, p := range emuProcs {
		_ = p.Stop()
	}
	os.Exit(code)
}
