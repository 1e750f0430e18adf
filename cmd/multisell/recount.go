package main

import (
	"context"
	"encoding/json"
	"fmt"
)

func init() {
	register(command{name: "recount", summary: "set the list counts of an account written before them: recount --account TOKEN", run: runRecount})
}

// runRecount brings an account whose data was written before the lists'
// counts up to date (docs/operations.md): the orders' Reindex, then the
// recounts of the catalog, the inventory, the shipments and the listings,
// printing one JSON line per domain once it is done. Run it while the
// account's writes are paused; running it again is harmless.
func runRecount(ctx context.Context, args []string) error {
	fs, token := accountFlags("recount", "--account TOKEN")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	d, account, err := openAccount(ctx, *token)
	if err != nil {
		return err
	}
	domains := []struct {
		name    string
		recount func(context.Context, string) error
	}{
		{"orders", d.Orders().Reindex},
		{"catalog", d.Catalog().Recount},
		{"inventory", d.Inventory().Recount},
		{"shipments", d.Shipments().Recount},
		{"listings", d.Listings().Recount},
	}
	out := json.NewEncoder(stdout)
	for _, dom := range domains {
		if err := dom.recount(ctx, account); err != nil {
			return fmt.Errorf("%s: %w", dom.name, err)
		}
		if err := out.Encode(map[string]any{"account_id": account, "domain": dom.name, "recounted": true}); err != nil {
			return fmt.Errorf("write JSON: %w", err)
		}
	}
	return nil
}
