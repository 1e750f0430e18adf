package ebay_test

import (
	"path/filepath"
	"testing"

	"github.com/multisell/multisell/pkg/local/sandbox/ebay"
)

// TestStateKept: a sandbox opened again on its state file serves on the same address with
// the sellers and listings it had.
func TestStateKept(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "sandbox", "ebay.json")
	first, err := ebay.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	first.AddSeller("client-1", "secret", "refresh", "EBAY_US")
	first.AddListing("client-1", "SKU-1", 4)
	url := first.URL
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := ebay.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = again.Close() })
	q, ok := again.Quantity("client-1", "SKU-1")
	if got, want := [3]any{again.URL, q, ok}, [3]any{url, int64(4), true}; got != want {
		t.Errorf("reopened: url, quantity, listed = %v, want %v", got, want)
	}
}
