package api

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/paging"
)

func request(q map[string][]string) *Request {
	return &Request{APIGatewayProxyRequest: events.APIGatewayProxyRequest{MultiValueQueryStringParameters: q}}
}

func TestParsePage(t *testing.T) {
	t.Parallel()
	const rejected = -1
	tests := []struct {
		q                   map[string][]string
		wantPage, wantLimit int
	}{
		{nil, 1, 100},
		{map[string][]string{"page": {"3"}, "limit": {"10"}}, 3, 10},
		{map[string][]string{"limit": {"200"}}, 1, 100},
		{map[string][]string{"page": {"0"}}, rejected, 0},
		{map[string][]string{"limit": {"0"}}, rejected, 0},
		{map[string][]string{"page": {"-1"}}, rejected, 0},
		{map[string][]string{"page": {"x"}}, rejected, 0},
		{map[string][]string{"limit": {"1.5"}}, rejected, 0},
		{map[string][]string{"page": {""}}, rejected, 0},
		{map[string][]string{"page": {"99999999999999"}}, 1<<31 - 1, 100},
		{map[string][]string{"page": {"99999999999999999999"}, "limit": {"99999999999999999999"}}, 1<<31 - 1, 100},
		{map[string][]string{"limit": {"-99999999999999999999"}}, rejected, 0},
		{map[string][]string{"cursor": {""}, "limit": {"10"}}, 0, 10},
		{map[string][]string{"cursor": {""}, "page": {"2"}}, rejected, 0},
		{map[string][]string{"cursor": {"forged"}}, rejected, 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.q), func(t *testing.T) {
			t.Parallel()
			got, err := ParsePage(request(tt.q))
			if tt.wantPage == rejected {
				if k := errs.KindOf(err); err == nil || k != errs.KindInvalid {
					t.Errorf("ParsePage(%v) err = %v, want invalid", tt.q, err)
				}
				return
			}
			if err != nil || got.Number != tt.wantPage || got.Limit != tt.wantLimit || got.ByCursor() != (tt.wantPage == 0) {
				t.Errorf("ParsePage(%v) = %+v, %v; want page %d limit %d", tt.q, got, err, tt.wantPage, tt.wantLimit)
			}
		})
	}
}

func TestPageLink(t *testing.T) {
	t.Parallel()
	next := paging.NewCursor("acct", "products", []byte("p"))
	tests := []struct {
		name      string
		q         map[string][]string
		page      paging.Page
		wantLink  string
		wantTotal string
	}{
		{"by number", map[string][]string{"page": {"2"}, "limit": {"10"}, "sku[]": {"a b"}}, paging.Page{Number: 2, Limit: 10},
			`</v1/products?cursor=` + next.Encode() + `&limit=10&sku%5B%5D=a+b>; rel="next"`, "3"},
		{"by cursor", map[string][]string{"cursor": {"old"}, "limit": {"10"}}, paging.Page{Limit: 10, After: &paging.Cursor{}},
			`</v1/products?cursor=` + next.Encode() + `&limit=10>; rel="next"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := request(tt.q)
			r.RequestContext.Path = "/v1/products"
			resp := Page(r, []int{}, 25, next, tt.page)
			if got := resp.Header["Link"]; got != tt.wantLink {
				t.Errorf("Link = %s, want %s", got, tt.wantLink)
			}
			if got := resp.Header["Total-Pages"]; got != tt.wantTotal {
				t.Errorf("Total-Pages = %q, want %q", got, tt.wantTotal)
			}
		})
	}
}

func TestQueryList(t *testing.T) {
	t.Parallel()
	r := request(map[string][]string{"sku[]": {"a", "b"}, "skus": {"c"}, "skus[]": {"d,e"}})
	got := r.QueryList("sku", "skus")
	if want := []string{"a", "b", "c", "d,e"}; !slices.Equal(got, want) {
		t.Fatalf("QueryList = %v, want %v", got, want)
	}
}

func TestParseTimeRange(t *testing.T) {
	t.Parallel()
	mins, maxs := []string{"min_ordered_at", "ordered_at_min"}, []string{"max_ordered_at", "ordered_at_max"}
	tests := []struct {
		name     string
		q        map[string][]string
		wantMin  string
		wantMax  string
		wantKind errs.Kind
	}{
		{"both spellings", map[string][]string{"min_ordered_at": {"2024-01-01"}, "ordered_at_max": {"2024-01-31T23:59:59+00:00"}},
			"2024-01-01T00:00:00Z", "2024-01-31T23:59:59Z", -1},
		{"open", nil, "", "", -1},
		{"bad max", map[string][]string{"max_ordered_at": {"soon"}}, "", "", errs.KindInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseTimeRange(request(tt.q), mins, maxs)
			if tt.wantKind >= 0 {
				if err == nil || errs.KindOf(err) != tt.wantKind {
					t.Fatalf("ParseTimeRange err = %v, want kind %v", err, tt.wantKind)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s := bound(got.Min); s != tt.wantMin {
				t.Errorf("Min = %q, want %q", s, tt.wantMin)
			}
			if s := bound(got.Max); s != tt.wantMax {
				t.Errorf("Max = %q, want %q", s, tt.wantMax)
			}
		})
	}
}

// bound is a range bound as text, "" when open.
func bound(t *time.Time) string {
	if t == nil {
		return ""
	}
	return isotime.Format(*t)
}
