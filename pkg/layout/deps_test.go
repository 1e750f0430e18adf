package layout

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// connectorForbidden are the packages the connector runtime and the connectors must not
// depend on, even through another: the domains and the API edge. The runtime sits below the
// domains it serves; what it shares with them is pkg/wire and pkg/carriers.
var connectorForbidden = []string{"listings", "shipments", "orders", "catalog", "inventory", "api", "channels",
	"warehouses", "events", "webhooks", "accounts"}

// leaves are the small packages every layer shares (docs/architecture.md), which import
// nothing of the module's.
var leaves = []string{"errs", "lenient", "sku", "isotime", "paging", "logctx"}

// TestConnectorDeps: `go list -deps` of every package under pkg/connectors names no domain
// package, and the wire contract and the carrier rules depend on leaves only.
func TestConnectorDeps(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`,
		"./pkg/connectors/...", "./pkg/wire", "./pkg/carriers")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 3 {
		t.Fatalf("go list named %d packages, want pkg/connectors/..., pkg/wire and pkg/carriers", len(lines))
	}
	for _, line := range lines {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		for _, dep := range fields[1:] {
			internal, ok := strings.CutPrefix(dep, module+"pkg/")
			if !ok {
				continue
			}
			top, _, _ := strings.Cut(internal, "/")
			switch {
			case strings.HasPrefix(pkg, "pkg/connectors") && slices.Contains(connectorForbidden, top):
				t.Errorf("%s depends on the domain package %s", pkg, dep)
			case (pkg == "pkg/wire" || pkg == "pkg/carriers") && !slices.Contains(leaves, internal):
				t.Errorf("%s depends on %s, which is no leaf", pkg, dep)
			}
		}
	}
}
