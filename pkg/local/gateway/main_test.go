package gateway

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/multisell/multisell/pkg/local/emulators"
)

// dynamoBackends are the DynamoDB emulators the stream tests run on: Dynoxide, which the
// local stack uses, and AWS's DynamoDB Local, for fidelity.
var dynamoBackends = []string{"dynoxide", "dynamodb-local"}

// emulator processes shared by this package's tests, started on first use.
var (
	emuMu    sync.Mutex
	emuProcs = map[string]*emulators.Process{}
)

func emulator(t *testing.T, name string) *emulators.Process {
	t.Helper()
	if testing.Short() {
		t.Skip("needs the emulators: skipped with -short (make unit); make test runs it")
	}
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
	case "local-kms":
		p, err = emulators.StartLocalKMS(context.Background(), emulators.KMSOptions{})
	case "dynoxide":
		p, err = emulators.StartDynoxide(context.Background(), emulators.DynoxideOptions{})
	case "dynamodb-local":
		if !emulators.JavaAvailable() {
			if os.Getenv("CI") != "" {
				t.Fatal("java is not installed; CI must run the DynamoDB Local checks (make deps installs it)")
			}
			t.Skip("java is not installed; DynamoDB Local needs it (make deps installs it)")
		}
		p, err = emulators.StartDynamoDBLocal(context.Background())
	default:
		t.Fatalf("no emulator %s", name)
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
