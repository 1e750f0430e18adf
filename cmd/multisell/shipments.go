package main

import (
	"context"
	"strconv"

	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/shipments"
)

func init() {
	register(command{name: "shipments", summary: "shipments", subs: []subcommand{
		{name: "list", use: shipmentsListUse, run: listShipments},
	}})
}

// shipmentsListUse is the arguments of shipments list.
const shipmentsListUse = "--account TOKEN [--order SEQ --status S]"

// listShipments lists the account's shipments (as GET /v1/shipments does,
// every page), oldest first, with the sync state of their tracking.
func listShipments(ctx context.Context, args []string) error {
	fs, token := accountCommand("shipments", "list", shipmentsListUse)
	var order int64
	var status string
	fs.Int64Var(&order, "order", 0, "only this order's shipments (its sb_order_seq)")
	fs.StringVar(&status, "status", "", "only shipments with this sync_status (pending, synced, failed)")
	if err := parseFlags(fs, args[1:], false); err != nil {
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
