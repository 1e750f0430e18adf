package testenv

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/multisell/multisell/pkg/local/emulators"
)

// ChannelModel returns the path of a marketplace's official API definition (name relative
// to the channel-models folder, as "amazon/ordersV0.json") kept beside the repository in
// ../shared/channel-models, or skips the test with a message when it is not there (a clone
// of the repository alone has none; see docs/connectors.md).
func ChannelModel(t testing.TB, name string) string {
	t.Helper()
	root, err := emulators.RepoRoot()
	if err != nil {
		t.Fatalf("channel model %s: %v", name, err)
	}
	p := filepath.Join(filepath.Dir(root), "shared", "channel-models", filepath.FromSlash(name))
	if _, err := os.Stat(p); err != nil {
		t.Skipf("the official API model %s is not beside the repository (%v): the requests are not checked against it", name, err)
	}
	return p
}
