package orders_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/money"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// TestImportMoneyExact: an order of three lines at 0.10, 0.20 and 0.30
// totals 0.60 exactly, and every amount keeps its digits through the
// import, GET and the event feed (0.6 prints as 0.6); a GBP order shows
// currency GBP, one without a currency null.
func TestImportMoneyExact(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	var lines []map[string]any
	for i, price := range []string{"0.10", "0.20", "0.30"} {
		l := orderstest.Line(fmt.Sprint(i+1), "S", 1)
		l["unit_price"], l["price"], l["total"] = json.Number(price), json.Number(price), json.Number(price)
		lines = append(lines, l)
	}
	doc := f.Doc("MONEY-1", "2024-01-01", lines...)
	doc["subtotal"], doc["total"], doc["tax"] = json.Number("0.60"), json.Number("0.60"), "0.000001"
	doc["currency"] = "gbp"
	seq := f.ImportOne(doc)

	r := f.C.Do(http.MethodGet, fmt.Sprintf("/orders/%d", seq), nil)
	if r.Status != http.StatusOK {
		t.Fatalf("GET order: %d %s", r.Status, r)
	}
	for _, want := range []string{`"currency":"GBP",`, `"total":0.6,`, `"subtotal":0.6,`, `"tax":0.000001,`, `"unit_price":0.1,`, `"unit_price":0.3,`} {
		if !bytes.Contains(r.Body, []byte(want)) {
			t.Errorf("GET order has no %s: %s", want, r.Body)
		}
	}
	o := f.Order(seq)
	var sum money.Amount
	for _, it := range o.Items {
		sum += *it.Total
	}
	if sum != *o.Total || *o.Total != money.Cents(60) {
		t.Errorf("lines sum to %s, order total %s, want 0.6 both", sum, o.Total)
	}

	if none := f.Order(f.ImportOne(f.Doc("MONEY-2", "2024-01-01", orderstest.Line("1", "S", 1)))); none.Currency != nil {
		t.Errorf("an order without currency has currency %q, want null", *none.Currency)
	}

	var created events.Event
	testenv.WaitFor(t, func() bool {
		r := f.C.Do(http.MethodGet, "/events?type=order.created&limit=10", nil)
		var p events.Page
		r.JSON(t, &p)
		for _, e := range p.Events {
			if bytes.Contains(e.Data, []byte(`"MONEY-1"`)) {
				created = e
				return true
			}
		}
		return false
	}, "order.created of MONEY-1")
	if !bytes.Contains(created.Data, []byte(`"total":0.6,`)) {
		t.Errorf("order.created data has no total 0.6: %s", created.Data)
	}
}
