package conformance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// TestGeneratedGoClient generates the Go client of docs/openapi.yaml with the pinned
// oapi-codegen (testdata/goclient/go.mod), compiles it with testdata/goclient/main.go and
// runs that program against the local stack: it lists the orders, sets a quantity and
// ships an order through the generated methods and types (docs/clients.md).
func TestGeneratedGoClient(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	wh := f.Warehouse("A")
	f.Product("GC-1")
	f.Stock("GC-1", wh, 5)
	seq := f.ImportOne(f.Doc("GC-R1", "2024-01-02", orderstest.Line("1", "GC-1", 2)))

	// Generating (25k lines) and compiling take tens of seconds on a loaded machine the
	// first time, seconds once the build cache has the generator and the runtime.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin := buildGoClient(ctx, t, f.Env.Root)

	cmd := exec.CommandContext(ctx, bin, "-order", strconv.FormatInt(seq, 10), "-sku", "GC-1", "-warehouse", wh, "-on-hand", "7")
	cmd.Env = append(os.Environ(), "MULTISELL_API_URL="+f.Env.URL, "MULTISELL_TOKEN="+f.Acct.Token, "MULTISELL_SECRET="+f.Acct.Secret)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the generated client's calls: %v\n%s", err, stderr.String())
	}
	var got struct {
		OrderSeqs  []int64 `json:"order_seqs"`
		RequestID  string  `json:"request_id"`
		ShipmentID string  `json:"shipment_id"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("goclient printed %q: %v", out, err)
	}

	t.Run("list orders", func(t *testing.T) {
		if !slices.Contains(got.OrderSeqs, seq) {
			t.Errorf("listed orders %v, want %d among them", got.OrderSeqs, seq)
		}
	})
	t.Run("PUT inventory", func(t *testing.T) {
		f := f.In(t)
		f.Env.Drain(t)
		var adj struct {
			Status string `json:"status"`
		}
		r := f.C.Do("GET", "/inventory/adjustments/"+got.RequestID, nil)
		r.JSON(t, &adj)
		if r.Status != http.StatusOK || adj.Status != "applied" {
			t.Errorf("adjustment %q: %d %s, want applied", got.RequestID, r.Status, r)
		}
	})
	t.Run("POST shipment", func(t *testing.T) {
		f := f.In(t)
		o := f.Order(seq)
		if got.ShipmentID == "" || o.Items[0].QuantityFulfilled != 1 || o.ShippedAt == nil {
			t.Errorf("shipment %q: order %d fulfilled %d (shipped at %v), want 1", got.ShipmentID, seq, o.Items[0].QuantityFulfilled, o.ShippedAt)
		}
	})
}

// buildGoClient copies testdata/goclient to a temporary module, generates the client
// into its multisell/ with the generator its go.mod pins, and builds the program; it
// returns the binary's path.
func buildGoClient(ctx context.Context, t *testing.T, root string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "go.sum", "main.go"} {
		data, err := os.ReadFile(filepath.Join("testdata", "goclient", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "multisell"), 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "goclient")
	for _, args := range [][]string{
		{"tool", "oapi-codegen", "-generate", "types,client", "-package", "multisell",
			"-o", filepath.Join("multisell", "client.gen.go"), filepath.Join(root, "docs", "openapi.yaml")},
		{"build", "-o", bin, "."},
	} {
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", args[0], err, out)
		}
	}
	return bin
}
