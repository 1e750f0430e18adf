package catalog_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/multisell/multisell/pkg/testenv"
)

// race sends the requests at the same time and returns their responses.
func race(c *catalogClient, reqs ...func() *testenv.Response) []*testenv.Response {
	out := make([]*testenv.Response, len(reqs))
	var start, done sync.WaitGroup
	start.Add(1)
	for i, req := range reqs {
		done.Add(1)
		go func() {
			defer done.Done()
			start.Wait()
			out[i] = req()
		}()
	}
	start.Done()
	done.Wait()
	return out
}

func TestConcurrentGroupsClaimOneChild(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	for round := range 5 {
		shared := c.makeChildren(fmt.Sprintf("SHARED%d", round), "S")[0]
		own1 := c.makeChildren(fmt.Sprintf("ONE%d", round), "M")[0]
		own2 := c.makeChildren(fmt.Sprintf("TWO%d", round), "M")[0]
		g1, g2 := fmt.Sprintf("G1-%d", round), fmt.Sprintf("G2-%d", round)
		rs := race(c,
			func() *testenv.Response { return c.Do("PUT", groupPath(g1), groupBody(g1, own1, shared)) },
			func() *testenv.Response { return c.Do("PUT", groupPath(g2), groupBody(g2, own2, shared)) },
		)
		winner, loser, lostOwn := g1, g2, own2
		if rs[0].Status != 200 {
			winner, loser, lostOwn = g2, g1, own1
			rs[0], rs[1] = rs[1], rs[0]
		}
		if rs[0].Status != 200 || rs[1].Status != 422 || !strings.Contains(rs[1].String(), shared+" already belongs to variation group "+winner) {
			t.Fatalf("round %d: statuses %d %s / %d %s, want one 200 and one 422 naming %s", round, rs[0].Status, rs[0].String(), rs[1].Status, rs[1].String(), shared)
		}
		if p := c.get(shared); p.ParentSKU == nil || *p.ParentSKU != winner {
			t.Errorf("round %d: %s belongs to %v, want %s", round, shared, p.ParentSKU, winner)
		}
		if w := c.get(winner); !slices.Contains(skusOf(w.Variations), shared) {
			t.Errorf("round %d: winner %s lists %v", round, winner, skusOf(w.Variations))
		}
		c.expect(404, "GET", productPath(loser), nil)
		if p := c.get(lostOwn); p.ParentSKU != nil {
			t.Errorf("round %d: the loser's other child %s joined %s", round, lostOwn, *p.ParentSKU)
		}
	}
}

func TestConcurrentSiblingWrites(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	kids := c.makeChildren("SIB", "S", "M", "L")
	c.putGroup("SIB", groupBody("Sib", kids...))

	rs := race(c,
		func() *testenv.Response { return c.Do("PATCH", productPath(kids[0]), map[string]any{"price": 1}) },
		func() *testenv.Response { return c.Do("PATCH", productPath(kids[1]), map[string]any{"price": 2}) },
		func() *testenv.Response { return c.Do("PATCH", productPath(kids[2]), map[string]any{"price": 3}) },
	)
	for i, r := range rs {
		if r.Status != 200 {
			t.Errorf("sibling %d: %d %s", i, r.Status, r.String())
		}
	}
	rs = race(c,
		func() *testenv.Response {
			return c.Do("PATCH", productPath(kids[0]), map[string]any{"custom_attributes": map[string]any{"size": "XL"}})
		},
		func() *testenv.Response {
			return c.Do("PATCH", productPath(kids[1]), map[string]any{"custom_attributes": map[string]any{"size": "XL"}})
		},
	)
	if statuses := []int{rs[0].Status, rs[1].Status}; !slices.Contains(statuses, 200) || !slices.Contains(statuses, 422) {
		t.Fatalf("two siblings taking the same size: %d %s / %d %s", rs[0].Status, rs[0].String(), rs[1].Status, rs[1].String())
	}
	sizes := map[any]int{}
	for _, v := range c.get("SIB").Variations {
		sizes[v.VariationFields["size"]]++
	}
	if sizes["XL"] != 1 || len(sizes) != 3 {
		t.Errorf("sizes after the race: %v", sizes)
	}

	rs = race(c,
		func() *testenv.Response { return c.Do("DELETE", groupPath("SIB"), nil) },
		func() *testenv.Response { return c.Do("PATCH", productPath(kids[2]), map[string]any{"price": 9}) },
	)
	if rs[0].Status != 200 || rs[1].Status != 200 {
		t.Fatalf("delete group / write child: %d %s / %d %s", rs[0].Status, rs[0].String(), rs[1].Status, rs[1].String())
	}
	for _, k := range kids {
		if p := c.get(k); p.ParentSKU != nil {
			t.Errorf("%s still in %s", k, *p.ParentSKU)
		}
	}
}
