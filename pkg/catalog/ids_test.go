package catalog_test

import (
	"fmt"
	"testing"

	"github.com/multisell/multisell/pkg/testenv"
)

func TestProductIDsUnique(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	const n = 60 // more than one block of ids
	reqs := make([]func() *testenv.Response, n)
	for i := range reqs {
		reqs[i] = func() *testenv.Response {
			return c.Do("PUT", productPath(fmt.Sprintf("ID-%03d", i)), map[string]any{"name": "x"})
		}
	}
	seen := map[int64]string{}
	for i, r := range race(c, reqs...) {
		var p struct {
			ID int64 `json:"id"`
		}
		if r.Status != 200 {
			t.Fatalf("create %d: %d %s", i, r.Status, r.String())
		}
		r.JSON(t, &p)
		if p.ID < 1 || seen[p.ID] != "" {
			t.Errorf("ID-%03d got id %d (taken by %q)", i, p.ID, seen[p.ID])
		}
		seen[p.ID] = fmt.Sprintf("ID-%03d", i)
	}
}
