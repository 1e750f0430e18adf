package orders_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/testenv"
)

// changedSeqs reads every page of GET /orders with query (limit 2, so the
// walk crosses pages) and returns the seqs in the order listed, reading
// again for up to 15 s until they are want (the index is eventually
// consistent).
func changedSeqs(t *testing.T, c *testenv.Client, query url.Values, want []int64) []int64 {
	t.Helper()
	var got []int64
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		got = nil
		for page := 1; ; page++ {
			q := url.Values{"limit": {"2"}, "page": {fmt.Sprint(page)}}
			for k, v := range query {
				q[k] = v
			}
			r := c.Do(http.MethodGet, "/orders?"+q.Encode(), nil)
			if r.Status != http.StatusOK {
				t.Fatalf("GET /orders?%s: %d %s", q.Encode(), r.Status, r)
			}
			var list []orders.Order
			r.JSON(t, &list)
			for _, o := range list {
				if o.UpdatedAt == nil {
					t.Fatalf("order %d listed without updated_at", o.Seq)
				}
				got = append(got, o.Seq)
			}
			if len(list) < 2 {
				break
			}
		}
		if slices.Equal(got, want) || time.Now().After(deadline) {
			return got
		}
	}
}

// TestUpdatedSince: updated_at_min returns exactly the orders whose API view
// changed since, old ones included (paid, cancelled, shipped later), in
// (updated_at, sb_order_seq) order (these changes share a second); updated_at_max and the status filters combine with
// it; a save that changes nothing visible leaves updated_at alone.
func TestUpdatedSince(t *testing.T) {
	t.Parallel()
	s := newShop(t, 100, true)
	c := s.env.Client(t, s.acct)
	var seqs []int64
	paid := map[string]any{"paid_at": "2024-01-04T11:00:00Z"}
	for i := range 6 {
		var extra map[string]any
		if i == 3 {
			extra = paid
		}
		seq, err := s.importOrder(fmt.Sprintf("U-%d", i), fmt.Sprintf("2024-01-%02dT10:00:00Z", i+1), 1, extra)
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, seq)
	}
	// A second boundary between the imports and the changes: updated_at has whole seconds.
	time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second + 10*time.Millisecond)))
	since := time.Now()
	change := func(i int, doc map[string]any) {
		t.Helper()
		doc["channel_uuid"], doc["display_ref"], doc["ordered_at"] = s.ch.UUID, fmt.Sprintf("U-%d", i), fmt.Sprintf("2024-01-%02dT10:00:00Z", i+1)
		doc["items"] = []any{map[string]any{"order_item_ref": "1", "sku": "S", "quantity": 1, "unit_price": 10}}
		raw, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if res, err := s.svc.Import(context.Background(), s.acct.ID, []json.RawMessage{raw}); err != nil || res[0].Error != "" {
			t.Fatalf("re-import U-%d: %+v, %v", i, res, err)
		}
	}
	change(4, map[string]any{"paid_at": "2024-02-01T00:00:00Z"})
	change(1, map[string]any{"cancelled_at": "2024-02-01T00:00:00Z"})
	change(2, map[string]any{}) // the same document again: no change
	r := c.Do(http.MethodPost, "/shipments", map[string]any{"shipment": map[string]any{
		"sb_order_seq": seqs[3], "warehouse_uuid": s.wh, "carrier_name": "UPS", "tracking_number": "1Z999",
		"items": []any{map[string]any{"sku": "S", "quantity": 1}}}})
	if r.Status >= 300 {
		t.Fatalf("ship order %d: %d %s", seqs[3], r.Status, r)
	}
	min := isotime.Format(since)
	// The changes may straddle a second: the list's order is (updated_at, seq).
	byChange := func(seqs ...int64) []int64 {
		at := map[int64]string{}
		for _, seq := range seqs {
			var o orders.Order
			c.Do(http.MethodGet, fmt.Sprintf("/orders/%d", seq), nil).JSON(t, &o)
			if o.UpdatedAt == nil {
				t.Fatalf("order %d without updated_at", seq)
			}
			at[seq] = *o.UpdatedAt
		}
		slices.SortFunc(seqs, func(a, b int64) int { return cmp.Or(cmp.Compare(at[a], at[b]), cmp.Compare(a, b)) })
		return seqs
	}
	changed := byChange(seqs[1], seqs[3], seqs[4])
	cases := []struct {
		name  string
		query url.Values
		want  []int64
	}{
		{"changed since", url.Values{"updated_at_min": {min}}, changed},
		{"other spelling", url.Values{"min_updated_at": {min}}, changed},
		{"changed since, cancelled", url.Values{"updated_at_min": {min}, "sb_status": {"cancelled"}}, []int64{seqs[1]}},
		{"changed since, paid", url.Values{"updated_at_min": {min}, "sb_payment_status": {"all"}}, byChange(seqs[3], seqs[4])},
		{"changed since, ordered in the first 3 days", url.Values{"updated_at_min": {min}, "max_ordered_at": {"2024-01-03T23:59:59Z"}}, []int64{seqs[1]}},
		{"changed before", url.Values{"updated_at_max": {isotime.Format(since.Add(-time.Second))}}, []int64{seqs[0], seqs[2], seqs[5]}},
		{"empty range", url.Values{"updated_at_min": {"2030-01-02"}, "updated_at_max": {"2030-01-01"}}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := changedSeqs(t, c, tc.query, tc.want); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	t.Run("another account sees none of them", func(t *testing.T) {
		other := s.env.Client(t, s.env.NewAccount(t, testenv.AccountOptions{}))
		r := other.Do(http.MethodGet, "/orders?updated_at_min=2000-01-01", nil)
		if r.Status != http.StatusOK || r.String() != "[]" {
			t.Errorf("another account's GET /orders?updated_at_min: %d %s, want 200 []", r.Status, r)
		}
	})
	var unchanged, shipped orders.Order
	c.Do(http.MethodGet, fmt.Sprintf("/orders/%d", seqs[2]), nil).JSON(t, &unchanged)
	c.Do(http.MethodGet, fmt.Sprintf("/orders/%d", seqs[3]), nil).JSON(t, &shipped)
	if unchanged.UpdatedAt == nil || *unchanged.UpdatedAt >= min {
		t.Errorf("re-imported unchanged order: updated_at %v, want before %s", unchanged.UpdatedAt, min)
	}
	if shipped.UpdatedAt == nil || *shipped.UpdatedAt < min {
		t.Errorf("shipped order: updated_at %v, want at or after %s", shipped.UpdatedAt, min)
	}
}

// TestUpdatedSinceBadInput: an updated_at bound that is not a date-time is
// 422 naming the parameter.
func TestUpdatedSinceBadInput(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	c := env.Client(t, env.NewAccount(t, testenv.AccountOptions{}))
	for _, name := range []string{"updated_at_min", "updated_at_max", "min_updated_at", "max_updated_at"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := c.Do(http.MethodGet, "/orders?"+name+"=yesterday", nil)
			if got, want := r.String(), `{"error":"`+name+` must be an ISO 8601 date-time"}`; r.Status != 422 || got != want {
				t.Errorf("%d %s, want 422 %s", r.Status, got, want)
			}
		})
	}
}
