package api

import (
	"testing"

	"github.com/aws/aws-lambda-go/events"
)

func request(q map[string][]string) *Request {
	return &Request{APIGatewayProxyRequest: events.APIGatewayProxyRequest{MultiValueQueryStringParameters: q}}
}

func TestParsePage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		q        map[string][]string
		page     int
		limit    int
		rejected bool
	}{
		{q: nil, page: 1, limit: 100},
		{q: map[string][]string{"page": {"3"}, "limit": {"10"}}, page: 3, limit: 10},
		{q: map[string][]string{"limit": {"200"}}, page: 1, limit: 100},
		{q: map[string][]string{"page": {"0"}}, rejected: true},
		{q: map[string][]string{"limit": {"0"}}, rejected: true},
		{q: map[string][]string{"page": {"-1"}}, rejected: true},
		{q: map[string][]string{"page": {"x"}}, rejected: true},
		{q: map[string][]string{"limit": {"1.5"}}, rejected: true},
		{q: map[string][]string{"page": {""}}, rejected: true},
		{q: map[string][]string{"page": {"99999999999999"}}, page: 1<<31 - 1, limit: 100},
		{q: map[string][]string{"page": {"99999999999999999999"}, "limit": {"99999999999999999999"}}, page: 1<<31 - 1, limit: 100},
		{q: map[string][]string{"limit": {"-99999999999999999999"}}, rejected: true},
	}
	for _, c := range cases {
		p, err := ParsePage(request(c.q))
		if c.rejected {
			if status(err) != 422 {
				t.Errorf("ParsePage(%v) err = %v, want 422", c.q, err)
			}
			continue
		}
		if err != nil || p.Number != c.page || p.Limit != c.limit {
			t.Errorf("ParsePage(%v) = %+v, %v; want page %d limit %d", c.q, p, err, c.page, c.limit)
		}
	}
}

func TestSliceAndTotalPages(t *testing.T) {
	t.Parallel()
	items := []int{1, 2, 3, 4, 5}
	cases := []struct {
		page, limit int
		want        []int
	}{
		{1, 2, []int{1, 2}}, {3, 2, []int{5}}, {4, 2, []int{}}, {1, 100, items}, {1 << 30, 100, []int{}},
	}
	for _, c := range cases {
		got := Slice(items, Page{Number: c.page, Limit: c.limit})
		if len(got) != len(c.want) || (len(got) > 0 && got[0] != c.want[0]) {
			t.Errorf("Slice(page %d, limit %d) = %v, want %v", c.page, c.limit, got, c.want)
		}
	}
	for _, c := range [][3]int{{0, 100, 1}, {1, 100, 1}, {100, 100, 1}, {101, 100, 2}, {5, 2, 3}} {
		if got := TotalPages(c[0], c[1]); got != c[2] {
			t.Errorf("TotalPages(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
}

func TestQueryList(t *testing.T) {
	t.Parallel()
	r := request(map[string][]string{"sku[]": {"a", "b"}, "skus": {"c"}, "skus[]": {"d,e"}})
	got := r.QueryList("sku", "skus")
	want := []string{"a", "b", "c", "d,e"}
	if len(got) != len(want) {
		t.Fatalf("QueryList = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("QueryList = %v, want %v", got, want)
		}
	}
}
