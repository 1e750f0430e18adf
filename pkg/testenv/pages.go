package testenv

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/paging"
)

// CheckTotalPages checks a list of count items at limit, on its first and
// its last page: 200, Total-Pages = ceil(count / limit) (1 for an empty
// list), and as many items as the page holds (limit, the rest on the last).
// path is the list with its filters, without page or limit; its body is an
// array, or an object whose one member is (as {"deliveries":[...]}).
func (c *Client) CheckTotalPages(t testing.TB, path string, count, limit int) {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	want := paging.TotalPages(count, limit)
	for _, page := range []int{1, want} {
		url := fmt.Sprintf("%s%slimit=%d&page=%d", path, sep, limit, page)
		r := c.Do(http.MethodGet, url, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("GET %s: %d %s", url, r.Status, r)
		}
		if got := r.Header.Get("Total-Pages"); got != strconv.Itoa(want) {
			t.Errorf("GET %s of %d items: Total-Pages %q, want %d", url, count, got, want)
		}
		items, err := pageItems(r.Body)
		if err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
		if got, want := len(items), max(0, min(limit, count-(page-1)*limit)); got != want {
			t.Errorf("GET %s of %d items: %d items, want %d", url, count, got, want)
		}
	}
}

// pageItems are the items of a list's page: body is an array of them, or
// an object holding the array as its one member.
func pageItems(body []byte) ([]json.RawMessage, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(body, &items); err == nil {
		return items, nil
	}
	var wrapped map[string][]json.RawMessage
	if err := json.Unmarshal(body, &wrapped); err == nil && len(wrapped) == 1 {
		for _, items := range wrapped {
			return items, nil
		}
	}
	return nil, fmt.Errorf("a page is an array or an object of one array: %.200s", body)
}
