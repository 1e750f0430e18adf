package connectorstest

import (
	"net/http"
	"sync"
)

// The suite's cases of a poll's progress (docs/connectors.md, "Runtime: polling and
// pushing").
const (
	CaseProgress = "poll resumes from its page"
	CaseQuiet    = "quiet poll reads one page"
)

func init() {
	cases = append(cases, suiteCase{CaseProgress, progressCase}, suiteCase{CaseQuiet, quietCase})
}

// nth matches the n-th request for a page of orders from now on, and no other.
func (c *C) nth(n int) func(*http.Request) bool {
	var (
		mu   sync.Mutex
		seen int
	)
	return func(r *http.Request) bool {
		if !c.sb.Orders(r) {
			return false
		}
		mu.Lock()
		defer mu.Unlock()
		seen++
		return seen == n
	}
}

// progressCase: a poll that fails after its first page keeps its place: the next poll goes on
// from the page that failed (Resumed) and sends the orders after the first page, none of the
// first page again, the whole walk's orders once.
func progressCase(c *C) {
	n := 2*c.h.PageSize + 1
	c.place(n)
	c.faults.add(c.nth(2), 1, answer(http.StatusInternalServerError, `{"error":"server_error"}`))
	res, err := c.poll()
	if err == nil {
		c.Errorf("a poll whose second page failed succeeded")
	}
	first := c.take()
	if !res.Partial || res.Pages != 1 || len(first) == 0 {
		c.Errorf("poll failing on its second page: partial %v, %d pages, %d orders sent; want partial, 1 page and its orders",
			res.Partial, res.Pages, len(first))
	}
	if res, err = c.poll(); err != nil {
		c.Fatalf("poll after the failure: %v", err)
	}
	rest := c.take()
	if !res.Resumed {
		c.Errorf("the poll after a failed second page started again from the cursor (%d pages), want it resumed from that page", res.Pages)
	}
	for ref := range rest {
		if first[ref] != nil {
			c.Errorf("order %s sent by the failed poll's first page and again by the resumed poll", ref)
		}
	}
	if got := len(first) + len(rest); got != n {
		c.Errorf("%d orders sent by the two polls (%d + %d), want the %d placed, each once", got, len(first), len(rest), n)
	}
}

// quietCase: after a walk of more than a page, a poll that finds nothing new reads one page
// (the cursor leaves at most a page of the newest orders to read again).
func quietCase(c *C) {
	c.place(2*c.h.PageSize + 1)
	if res, err := c.poll(); err != nil || res.Pages < 3 {
		c.Fatalf("poll of %d orders: %d pages, %v; want at least 3 pages", 2*c.h.PageSize+1, res.Pages, err)
	}
	c.take()
	res, err := c.poll()
	if err != nil {
		c.Fatalf("quiet poll: %v", err)
	}
	if res.Pages != 1 {
		c.Errorf("quiet poll after a walk of %d orders read %d pages, want 1", 2*c.h.PageSize+1, res.Pages)
	}
}
