package shipments_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/multisell/multisell/pkg/shipments"
	"github.com/multisell/multisell/pkg/store"
)

// TestRecount: Recount puts the counts of GET /shipments, all and per sync
// status, back to the lists' sizes after they were deleted or put off, so
// that Total-Pages is exact; a shipment without a sync_status (written
// before there was one) is counted in all, and in none of the statuses,
// and confirmed afterwards moves to synced without leaving all.
func TestRecount(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tr := newTracked(t)
	a := tr.order(tr.Channel, "R-A")
	var synced []string
	for i := range 3 {
		synced = append(synced, tr.ship(map[string]any{"sb_order_seq": a, "carrier_name": "UPS", "tracking_number": fmt.Sprint("RC-", i), "items": []any{item("S", 1)}}))
	}
	for _, id := range synced {
		tr.waitStatus(a, id, shipments.StatusSynced)
	}
	tr.Env.RefusePushes(t, tr.Acct.ID)
	tr.waitStatus(a, tr.ship(map[string]any{"sb_order_seq": a, "carrier_name": "UPS", "tracking_number": "RC-F", "items": []any{item("T", 1)}}), shipments.StatusFailed)
	legacy := store.Update{Remove: []string{"sync_status"}}
	if err := tr.Env.Deps.Table.Commit(ctx, []store.Write{legacy.Write(store.Key(store.PK(tr.Acct.ID, "SHP"), synced[0]))}); err != nil {
		t.Fatal(err)
	}
	svc := tr.Env.Deps.Shipments()
	count := func(status string) store.CountName {
		return store.CountName{List: "shipments", Value: store.CountAll, Attr: status}
	}
	check := func(t *testing.T, want map[string]int) {
		t.Helper()
		for query, n := range want {
			for _, limit := range []int{1, 3} {
				tr.C.CheckTotalPages(t, "/shipments?"+query, n, limit)
			}
		}
	}
	skew := store.Counts{count(""): 2, count(shipments.StatusSynced): 1, count(shipments.StatusPending): 4}
	tr.Env.CheckRecount(t, tr.Acct.ID, skew, svc.Recount, func(t *testing.T) {
		check(t, map[string]int{"": 4, "sync_status=synced": 2, "sync_status=failed": 1, "sync_status=pending": 0})
	})
	t.Run("the shipment without a status confirmed", func(t *testing.T) {
		if err := svc.Confirm(ctx, tr.Acct.ID, shipments.Result{ChannelUUID: tr.Channel, ShipmentID: synced[0], OK: true}); err != nil {
			t.Fatal(err)
		}
		check(t, map[string]int{"": 4, "sync_status=synced": 3, "sync_status=failed": 1, "sync_status=pending": 0})
	})
}
