package shipments_test

import (
	"fmt"
	"testing"

	"github.com/multisell/multisell/pkg/shipments"
)

// TestTotalPages: GET /shipments sends Total-Pages = ceil(count / limit)
// on the first and the last page, without a filter and with each (exact
// counts of all shipments and of each sync status, kept with every
// shipment's creation and change of status; a bounded count of one
// order's), after shipments are created, refused by the channel (failed),
// confirmed on retry (synced), and created again.
func TestTotalPages(t *testing.T) {
	t.Parallel()
	tr := newTracked(t)
	a, b := tr.order(tr.Channel, "R-A"), tr.order(tr.Channel, "R-B")
	tr.Env.RefusePushes(t, tr.Acct.ID)
	type shipped struct {
		seq int64
		id  string
	}
	var all []shipped
	ship := func(seq int64, sku string, n int) {
		id := tr.ship(map[string]any{"sb_order_seq": seq, "carrier_name": "UPS", "tracking_number": fmt.Sprint("TP-", len(all)), "items": []any{item(sku, n)}})
		all = append(all, shipped{seq, id})
	}
	check := func(t *testing.T, counts map[string]int) {
		t.Helper()
		for query, count := range counts {
			for _, limit := range []int{1, 2, 100} {
				tr.C.CheckTotalPages(t, "/shipments?"+query, count, limit)
			}
		}
	}
	waitAll := func(status string) {
		for _, s := range all {
			tr.waitStatus(s.seq, s.id, status)
		}
	}
	ship(a, "S", 1)
	ship(a, "S", 2)
	ship(b, "T", 2)
	waitAll(shipments.StatusFailed)
	t.Run("refused", func(t *testing.T) {
		check(t, map[string]int{
			"": 3, "sync_status=failed": 3, "sync_status=pending": 0, "sync_status=synced": 0,
			fmt.Sprintf("sb_order_seq=%d", a): 2, fmt.Sprintf("sb_order_seq=%d&sync_status=failed", b): 1,
			fmt.Sprintf("sb_order_seq=%d&sync_status=synced", b): 0,
		})
	})
	tr.Env.AcceptPushes(tr.Acct.ID)
	waitAll(shipments.StatusSynced)
	ship(b, "S", 3)
	tr.waitStatus(b, all[3].id, shipments.StatusSynced)
	t.Run("confirmed and shipped again", func(t *testing.T) {
		check(t, map[string]int{
			"": 4, "sync_status=failed": 0, "sync_status=pending": 0, "sync_status=synced": 4,
			fmt.Sprintf("sb_order_seq=%d", a): 2, fmt.Sprintf("sb_order_seq=%d", b): 2,
			fmt.Sprintf("sb_order_seq=%d&sync_status=synced", b): 2,
		})
	})
}
