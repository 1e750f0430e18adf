package inventory

import (
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/sku"
	"github.com/multisell/multisell/pkg/store"
)

func request(query map[string][]string) *api.Request {
	r := &api.Request{}
	r.MultiValueQueryStringParameters = query
	return r
}

func TestParseFilter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		query map[string][]string
		skus  []string
		wh    string
		err   string
	}{
		{name: "none", query: nil},
		{name: "sku", query: map[string][]string{"sku": {"B"}}, skus: []string{"B"}},
		{name: "all list forms, sorted, once", query: map[string][]string{
			"sku[]": {"C", "A"}, "sku": {"B"}, "skus": {"A"}, "skus[]": {"D"},
		}, skus: []string{"A", "B", "C", "D"}},
		{name: "odd sku", query: map[string][]string{"sku": {"A/B C+#?"}}, skus: []string{"A/B C+#?"}},
		{name: "warehouse", query: map[string][]string{"warehouse_uuid": {wh}}, wh: wh},
		{name: "empty warehouse", query: map[string][]string{"warehouse_uuid": {" "}}, err: "warehouse_uuid"},
		{name: "empty sku", query: map[string][]string{"sku": {""}}, err: "sku must be 1 to 255"},
		{name: "control sku", query: map[string][]string{"sku": {"A\x00"}}, err: "sku must be 1 to 255"},
		{name: "long sku", query: map[string][]string{"sku": {strings.Repeat("x", 256)}}, err: "sku must be 1 to 255"},
		{name: "too many skus", query: map[string][]string{"sku": manySKUs(101)}, err: "at most 100"},
		{name: "bad date", query: map[string][]string{"created_at_min": {"yesterday"}}, err: "created_at_min"},
		{name: "bad max date", query: map[string][]string{"max_updated_at": {"2024-13-01"}}, err: "max_updated_at"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := parseFilter(request(tt.query))
			if tt.err != "" {
				if ae, ok := errs.As(err); !ok || ae.Kind != errs.KindInvalid || !strings.Contains(ae.Message, tt.err) {
					t.Fatalf("err = %v, want invalid naming %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(f.SKUs, tt.skus) || f.Warehouse != tt.wh {
				t.Errorf("got %+v", f)
			}
		})
	}
}

func manySKUs(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "SKU" + string(rune('A'+i/26)) + string(rune('a'+i%26))
	}
	return out
}

func TestFilterMatch(t *testing.T) {
	t.Parallel()
	rec := Record{SKU: "B", Warehouse: wh, CreatedAt: "2024-05-01T10:00:00Z", UpdatedAt: "2024-06-01T10:00:00Z"}
	tests := []struct {
		name  string
		query map[string][]string
		want  bool
	}{
		{"no filter", nil, true},
		{"sku in list", map[string][]string{"sku[]": {"A", "B"}}, true},
		{"sku not in list", map[string][]string{"sku[]": {"A", "C"}}, false},
		{"other warehouse", map[string][]string{"warehouse_uuid": {"x"}}, false},
		{"created inclusive min", map[string][]string{"created_at_min": {"2024-05-01T10:00:00Z"}}, true},
		{"created inclusive max with offset", map[string][]string{"created_at_max": {"2024-05-01T12:00:00+02:00"}}, true},
		{"created before min", map[string][]string{"created_at_min": {"2024-05-01T10:00:01Z"}}, false},
		{"updated date only", map[string][]string{"updated_at_min": {"2024-06-01"}, "updated_at_max": {"2024-06-02"}}, true},
		{"updated after max", map[string][]string{"updated_at_max": {"2024-06-01"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := parseFilter(request(tt.query))
			if err != nil {
				t.Fatal(err)
			}
			if got := f.Match(rec); got != tt.want {
				t.Errorf("Match = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestSources checks which Query each filter reads: a page of one Query in
// (sku, warehouse) order with its exact count where a count exists, a
// bounded one for created_at, and every match (listAll) for the sku and
// updated_at filters.
func TestSources(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		query  map[string][]string
		paged  bool
		n      int // the Queries listAll reads
		index  string
		cond   string
		filter string
		count  string // the exact count's value and attribute; "" bounded
	}{
		{"all", nil, true, 1, "", "#PK = :pk", "", store.CountAll},
		{"created", map[string][]string{"created_at_min": {"2024-01-01"}}, true, 1, "", "#PK = :pk", "#created_at >= :min", ""},
		{"warehouse", map[string][]string{"warehouse_uuid": {wh}}, true, 1, store.GSI1, "#GSI1PK = :pk", "", "all wh_" + strings.ReplaceAll(wh, "-", "")},
		{"warehouse and created", map[string][]string{"warehouse_uuid": {wh}, "created_at_min": {"2024-01-01"}, "created_at_max": {"2024-02-01"}},
			true, 1, store.GSI1, "#GSI1PK = :pk", "#created_at BETWEEN :min AND :max", ""},
		{"updated min", map[string][]string{"updated_at_min": {"2024-01-01"}, "warehouse_uuid": {wh}}, false, 1, store.GSI2, "#GSI2PK = :pk AND #GSI2SK >= :min", "", ""},
		{"updated max", map[string][]string{"updated_at_max": {"2024-01-01"}}, false, 1, store.GSI2, "#GSI2PK = :pk AND #GSI2SK <= :max", "", ""},
		{"updated range", map[string][]string{"updated_at_min": {"2024-01-01"}, "updated_at_max": {"2024-02-01"}}, false, 1, store.GSI2, "#GSI2PK = :pk AND #GSI2SK BETWEEN :min AND :max", "", ""},
		{"skus", map[string][]string{"sku": {"B", "A"}}, false, 2, "", "#PK = :pk AND begins_with(#SK, :sk)", "", ""},
		{"sku and warehouse", map[string][]string{"sku": {"A"}, "warehouse_uuid": {wh}}, false, 1, "", "#PK = :pk AND #SK = :sk", "", ""},
		{"sku and updated", map[string][]string{"sku": {"A"}, "updated_at_min": {"2024-01-01"}}, false, 1, "", "#PK = :pk AND begins_with(#SK, :sk)", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := parseFilter(request(tt.query))
			if err != nil {
				t.Fatal(err)
			}
			q, paged := f.pageQuery("acct")
			if paged != tt.paged {
				t.Fatalf("paged %v, want %v", paged, tt.paged)
			}
			in := q.Input
			if paged {
				var count string
				if q.Count != nil {
					count = strings.TrimSpace(q.Count.Value + " " + q.Count.Attr)
				}
				if count != tt.count || q.Bounded != (tt.count == "") {
					t.Errorf("count %q bounded %v, want %q", count, q.Bounded, tt.count)
				}
			} else {
				srcs := f.sources("acct")
				if len(srcs) != tt.n {
					t.Fatalf("%d sources, want %d", len(srcs), tt.n)
				}
				in = srcs[0]
			}
			if got := aws.ToString(in.IndexName); got != tt.index {
				t.Errorf("index %q, want %q", got, tt.index)
			}
			if got := aws.ToString(in.KeyConditionExpression); got != tt.cond {
				t.Errorf("key condition %q, want %q", got, tt.cond)
			}
			if got := aws.ToString(in.FilterExpression); got != tt.filter {
				t.Errorf("filter %q, want %q", got, tt.filter)
			}
			exprs := aws.ToString(in.KeyConditionExpression) + " " + aws.ToString(in.FilterExpression)
			for name := range in.ExpressionAttributeNames {
				if !strings.Contains(exprs, name) {
					t.Errorf("unused name %s", name)
				}
			}
			for v := range in.ExpressionAttributeValues {
				if !strings.Contains(exprs, v) {
					t.Errorf("unused value %s", v)
				}
			}
		})
	}
	// Two created_at ranges are two lists: their cursors never mix.
	a, _ := parseFilter(request(map[string][]string{"created_at_min": {"2024-01-01"}}))
	b, _ := parseFilter(request(map[string][]string{"created_at_max": {"2024-01-01"}}))
	qa, _ := a.pageQuery("acct")
	qb, _ := b.pageQuery("acct")
	if qa.List == qb.List {
		t.Errorf("two ranges share the list name %q", qa.List)
	}
}

// TestKeyOrder checks that record keys sort by SKU first, whatever the
// SKUs, so one Query returns (sku, warehouse) order.
func TestKeyOrder(t *testing.T) {
	t.Parallel()
	keys := []string{sortKey("AB", "w2"), sortKey("A", "w9"), sortKey("A B", "w1"), sortKey("A", "w1"), sortKey("Ä", "w0")}
	slices.Sort(keys)
	want := []string{sortKey("A", "w1"), sortKey("A", "w9"), sortKey("A B", "w1"), sortKey("AB", "w2"), sortKey("Ä", "w0")}
	if !slices.Equal(keys, want) {
		t.Errorf("order %q, want %q", keys, want)
	}
}

// FuzzParseFilter checks that any query values are either a filter whose
// SKUs are valid, sorted and few enough, or a 422.
func FuzzParseFilter(f *testing.F) {
	f.Add("A", "B", wh, "2024-01-01", "2024-02-01T10:00:00+02:00")
	f.Add("", "A\x00", " ", "yesterday", "")
	f.Add("A/B C+#?", "Ü", "x", "2024-13-01", "2024-01-01T25:00")
	f.Fuzz(func(t *testing.T, sku1, sku2, warehouse, min, max string) {
		got, err := parseFilter(request(map[string][]string{
			"sku": {sku1}, "skus[]": {sku2}, "warehouse_uuid": {warehouse},
			"created_at_min": {min}, "updated_at_max": {max},
		}))
		if err != nil {
			if errs.KindOf(err) != errs.KindInvalid {
				t.Fatalf("error %v is not invalid", err)
			}
			return
		}
		if !slices.IsSorted(got.SKUs) || len(got.SKUs) == 0 || got.Warehouse == "" {
			t.Fatalf("filter %+v", got)
		}
		for _, s := range got.SKUs {
			if !sku.Valid(s) {
				t.Fatalf("invalid sku %q", s)
			}
		}
	})
}
