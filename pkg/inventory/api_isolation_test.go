package inventory_test

import (
	"net/http"
	"reflect"
	"testing"
)

// TestTenantIsolation tries every inventory endpoint as account B on
// account A's warehouses, records and adjustments: B sees nothing and
// changes nothing.
func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	a, b := newFixture(t), newFixture(t)
	wa, wb := a.warehouse("A's"), b.warehouse("B's")
	a.create(record("X", wa, 5))
	id := a.adjust(http.MethodPatch, body(record("X", wa, 6)))
	a.applied(id)
	before := a.list("")

	if got := b.list(""); len(got) != 0 {
		t.Errorf("B lists A's records: %+v", got)
	}
	if got := b.list("sku=X"); len(got) != 0 {
		t.Errorf("B finds A's SKU: %+v", got)
	}
	checks := []struct {
		method, path, body string
		status             int
	}{
		{http.MethodGet, "/inventory?warehouse_uuid=" + wa, "", http.StatusNotFound},
		{http.MethodGet, "/inventories?sku=X&warehouse_uuid=" + wa, "", http.StatusNotFound},
		{http.MethodPost, "/inventory", body(record("X", wa, 99)), http.StatusNotFound},
		{http.MethodPost, "/inventories", body(record("Y", wb, 1), record("X", wa, 99)), http.StatusNotFound},
		{http.MethodPut, "/inventory", body(record("X", wa, 99)), http.StatusNotFound},
		{http.MethodPatch, "/inventory", body(record("X", wa, 99)), http.StatusNotFound},
		{http.MethodPatch, "/inventories", body(record("X", wb, 99)), http.StatusNotFound},
		{http.MethodGet, "/inventory/adjustments/" + id, "", http.StatusNotFound},
		{http.MethodGet, "/inventories/adjustments/" + id, "", http.StatusNotFound},
	}
	for _, c := range checks {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			var payload any
			if c.body != "" {
				payload = c.body
			}
			r := b.c.Do(c.method, c.path, payload)
			if got := r.Status; got != c.status {
				t.Errorf("B: got %d %s, want %d", got, r.Body, c.status)
			}
		})
	}
	// B's own record of the same SKU is B's alone.
	b.create(record("X", wb, 1))
	b.applied(b.adjust(http.MethodPut, body(record("X", wb, 2))))
	if after := a.list(""); !reflect.DeepEqual(before, after) {
		t.Errorf("A's records changed:\n%+v\n%+v", before, after)
	}
	if st := a.status(id); st.Status != "applied" || len(st.Items) != 1 {
		t.Errorf("A's adjustment: %+v", st)
	}
	check(t, b.get("X", wb), 2, 0, 2)
}
