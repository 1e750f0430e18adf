package webhooks_test

import (
	"net/http"
	"testing"
)

// TestTotalPages: GET /webhooks/{id}/deliveries sends Total-Pages =
// ceil(count / limit) on the first and the last page (a bounded count,
// taken on a walk's first page), for a webhook without deliveries and one
// with some, and again after more; another webhook's deliveries are not
// counted.
func TestTotalPages(t *testing.T) {
	t.Parallel()
	h := newHooked(t, "order.created")
	other := h.create("order.created")
	ping := func(id string, n int) {
		for range n {
			if r := h.C.Do(http.MethodPost, "/webhooks/"+id+"/ping", nil); r.Status != http.StatusAccepted {
				t.Fatalf("ping: %d %s", r.Status, r)
			}
		}
	}
	check := func(t *testing.T, counts map[string]int) {
		t.Helper()
		for id, count := range counts {
			for _, limit := range []int{1, 2, 100} {
				h.C.CheckTotalPages(t, "/webhooks/"+id+"/deliveries", count, limit)
			}
		}
	}
	t.Run("none", func(t *testing.T) { check(t, map[string]int{h.hook.ID: 0, other.ID: 0}) })
	ping(h.hook.ID, 5)
	ping(other.ID, 1)
	t.Run("pinged", func(t *testing.T) { check(t, map[string]int{h.hook.ID: 5, other.ID: 1}) })
	ping(h.hook.ID, 2)
	t.Run("pinged again", func(t *testing.T) { check(t, map[string]int{h.hook.ID: 7, other.ID: 1}) })
}
