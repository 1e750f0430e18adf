package orders_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// TestReindex: an account whose orders were written before the counts and
// the GSI1 key of the order items (simulated: the keys removed, the old
// index items of every order put back, the counts deleted) lists nothing;
// after Reindex (twice: a second run changes nothing) its lists are whole
// with their Total-Pages, the old index items are gone, and the fixture's
// invariant check finds every count right.
func TestReindex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := orderstest.New(t)
	a := f.Warehouse("A")
	f.Product("S")
	f.Stock("S", a, 2)
	var seqs []int64
	for i := range 3 {
		seqs = append(seqs, f.ImportOne(f.Doc(fmt.Sprint("R", i), fmt.Sprintf("2024-01-0%dT00:00:00Z", i+1), orderstest.Line("1", "S", 1))))
	}
	tbl, acct := f.Env.Deps.Table, f.Acct.ID
	var legacy []store.Write
	for _, seq := range seqs {
		key := store.Key(store.PK(acct, "O"), fmt.Sprintf("%012d", seq))
		legacy = append(legacy, store.Update{Remove: []string{store.AttrGSI1PK, store.AttrGSI1SK}}.Write(key))
		o := f.Order(seq)
		old := store.Key(store.PK(acct, "OX#all"), store.Join(o.OrderedAt, fmt.Sprintf("%012d", seq)))
		old["seq"] = store.N(seq)
		legacy = append(legacy, store.Put(old, "", nil))
	}
	counts, err := tbl.QueryAll(ctx, store.PK(acct, "CNT"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range counts {
		legacy = append(legacy, store.Delete(map[string]types.AttributeValue{store.AttrPK: c[store.AttrPK], store.AttrSK: c[store.AttrSK]}, "", nil))
	}
	if err := tbl.Commit(ctx, legacy); err != nil {
		t.Fatal(err)
	}
	if got := f.List("/orders"); len(got) != 0 {
		t.Fatalf("before Reindex: GET /orders = %v, want none (no count, no GSI1 key)", orderstest.Seqs(got))
	}
	for run := 1; run <= 2; run++ {
		if err := f.Svc.Reindex(ctx, acct); err != nil {
			t.Fatalf("Reindex run %d: %v", run, err)
		}
	}
	lists := []struct {
		path  string
		want  []int64
		pages string
	}{
		{"/orders", seqs, "1"},
		{"/orders?limit=2", seqs[:2], "2"},
		{"/orders?sb_status=open&limit=1", seqs[:1], "3"},
		{"/warehouses/" + a + "/fulfillments?limit=1", seqs[:1], "2"},
	}
	for _, tt := range lists {
		t.Run(tt.path, func(t *testing.T) {
			r := f.In(t).C.Do("GET", tt.path, nil)
			if r.Status != http.StatusOK {
				t.Fatalf("%d %s", r.Status, r)
			}
			var list []orders.Order
			r.JSON(t, &list)
			if got := orderstest.Seqs(list); fmt.Sprint(got) != fmt.Sprint(tt.want) || r.Header.Get("Total-Pages") != tt.pages {
				t.Errorf("got %v with Total-Pages %q, want %v with %s", got, r.Header.Get("Total-Pages"), tt.want, tt.pages)
			}
		})
	}
	if left, err := tbl.QueryAll(ctx, store.PK(acct, "OX#all")); err != nil || len(left) != 0 {
		t.Errorf("old index items left: %d (%v)", len(left), err)
	}
}
