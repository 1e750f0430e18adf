package catalog_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/lenient"
)

// cursorWalkSize is how many products exist for the whole walk.
const cursorWalkSize = 5000

// TestCursorWalkDuringWrites walks the products of an account by cursor
// at limit 100 while another client creates and deletes other products,
// some sorting before, between and after the ones that stay: every
// product that exists throughout comes exactly once, and none comes
// twice.
func TestCursorWalkDuringWrites(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	staying := func(i int) string { return fmt.Sprintf("W%05d", i) }
	seedProducts(t, c, cursorWalkSize, staying)

	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { churn(ctx, t, c) })
	seen := map[string]int{}
	pages := 0
	for path := "/products?limit=100&cursor="; path != ""; pages++ {
		r := c.expect(http.StatusOK, http.MethodGet, path, nil)
		var page []struct {
			SKU string `json:"sku"`
		}
		if err := json.Unmarshal(r.Body, &page); err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		for _, p := range page {
			seen[p.SKU]++
		}
		path = nextLink(t, r.Header.Get("Link"))
	}
	stop()
	wg.Wait()
	for i := range cursorWalkSize {
		if n := seen[staying(i)]; n != 1 {
			t.Errorf("%s seen %d times, want once", staying(i), n)
		}
	}
	for sku, n := range seen {
		if n > 1 {
			t.Errorf("%s seen %d times, want at most once", sku, n)
		}
	}
	t.Logf("%d pages, %d products seen", pages, len(seen))
}

// seedProducts creates n products named by sku through the service, by a
// few concurrent writers.
func seedProducts(t *testing.T, c *catalogClient, n int, sku func(int) string) {
	t.Helper()
	body, err := lenient.DecodeObject(`{"name":"stays for the whole walk"}`)
	if err != nil {
		t.Fatal(err)
	}
	in, err := catalog.ParseProduct(body)
	if err != nil {
		t.Fatal(err)
	}
	svc := c.env.Deps.Catalog()
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i := range jobs {
				if _, err := svc.Upsert(context.Background(), c.acct.ID, sku(i), in); err != nil {
					t.Error(err)
				}
			}
		})
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}

// churn creates and deletes products through the API until ctx is done:
// SKUs that sort before, among and after the seeded ones.
func churn(ctx context.Context, t *testing.T, c *catalogClient) {
	for i := 0; ctx.Err() == nil; i++ {
		sku := []string{"A", fmt.Sprintf("W%05d-new", (i*397)%cursorWalkSize), "Z"}[i%3] + fmt.Sprint(i)
		if r := c.Do(http.MethodPut, productPath(sku), map[string]any{"name": "comes and goes"}); r.Status != http.StatusOK {
			t.Errorf("PUT %s: %d", sku, r.Status)
			return
		}
		if i%2 == 1 {
			if r := c.Do(http.MethodDelete, productPath(sku), nil); r.Status != http.StatusOK {
				t.Errorf("DELETE %s: %d", sku, r.Status)
				return
			}
		}
	}
}

// nextLink is the path, relative to the stage, of a Link rel="next" ("" for
// none).
func nextLink(t *testing.T, link string) string {
	t.Helper()
	if link == "" {
		return ""
	}
	target, rel, ok := strings.Cut(link, ">; ")
	_, path, found := strings.Cut(target, "/v1/")
	if !ok || rel != `rel="next"` || !found {
		t.Fatalf("Link %q: want </v1/...>; rel=\"next\"", link)
	}
	return "/" + path
}

// TestCursorRefused: a cursor is taken only as the service made it, on the list, filters
// and account it was made for (422 otherwise), and not with page; a page by cursor has no
// Total-Pages, a page by number still has it.
func TestCursorRefused(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	for i := range 3 {
		c.put(fmt.Sprintf("P%d", i), map[string]any{"name": "p"})
	}
	first := c.expect(http.StatusOK, http.MethodGet, "/products?limit=1&page=1", nil)
	if first.Header.Get("Total-Pages") != "3" {
		t.Errorf("page 1 by number: Total-Pages %q, want 3", first.Header.Get("Total-Pages"))
	}
	next := nextLink(t, first.Header.Get("Link"))
	_, cursor, _ := strings.Cut(next, "cursor=")
	cursor, _, _ = strings.Cut(cursor, "&")
	if r := c.expect(http.StatusOK, http.MethodGet, next, nil); r.Header.Get("Total-Pages") != "" {
		t.Errorf("page by cursor: Total-Pages %q, want none", r.Header.Get("Total-Pages"))
	}
	altered := []byte(cursor)
	altered[len(altered)/2] ^= 1
	other := newClient(t)
	tests := []struct {
		name   string
		client *catalogClient
		path   string
		want   string
	}{
		{"with page", c, "/products?page=2&cursor=" + cursor, "page and cursor cannot be used together"},
		{"altered", c, "/products?cursor=" + string(altered), "cursor is not valid"},
		{"another list", c, "/variation_groups?cursor=" + cursor, "cursor belongs to another list"},
		{"other filters", c, "/products?skus=P1&cursor=" + cursor, "cursor belongs to another list"},
		{"another account", other, "/products?cursor=" + cursor, "cursor belongs to another list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.client.expect(http.StatusUnprocessableEntity, http.MethodGet, tt.path, nil)
			if !strings.Contains(string(r.Body), tt.want) {
				t.Errorf("GET %s: %s, want %q", tt.path, r.Body, tt.want)
			}
		})
	}
}
