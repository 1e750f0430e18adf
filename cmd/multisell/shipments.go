package main

import (
	"context"
	"errors"
	"strconv"

	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/shipments"
)

func init() {
	register(command{name: "shipments", summary: "shipments: shipments list --account TOKEN [--order SEQ --status S]", run: runShipments})
}

// runShipments lists the account's shipments (as GET /v1/shipments does,
// every page), oldest first, with the sync state of their tracking.
func runShipments(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "list" {
		return errors.New("usage: multisell shipments list --account TOKEN [--order SEQ --status S]")
	}
	fs, token, err := accountCommand("shipments", "list", "--account TOKEN [--order SEQ --status S]", args)
	if err != nil {
		return err
	}
	var order int64
	var status string
	fs.Int64Var(&order, "order", 0, "only this order's shipments (its sb_order_seq)")
	fs.StringVar(&status, "status", "", "only shipments with this sync_status (pending, synced, failed)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	seq := ""
	if order != 0 {
		seq = strconv.FormatInt(order, 10)
	}
	f, err := shipments.ParseFilter(seq, status)
	if err != nil {
		return err
	}
	d, account, err := openAccount(ctx, *token)
	if err != nil {
		return err
	}
	all, err := allPages(func(p paging.Page) (paging.Listing[shipments.View], error) {
		return d.Shipments().List(ctx, account, f, p)
	})
	if err != nil {
		return err
	}
	return printJSON(all)
}
