package events

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/store"
)

// params is a query string's parameters as ParseQuery's get reads them.
type params map[string]string

func (p params) get(name string) (string, bool) { v, ok := p[name]; return v, ok }

func TestParseQuery(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		params params
		want   Query
		names  string // the parameter the 422 names; "" when accepted
	}{
		{"nothing", params{}, Query{Limit: 100}, ""},
		{"after 0", params{"after": "0"}, Query{Limit: 100}, ""},
		{"after 5", params{"after": "5"}, Query{After: 5, Limit: 100}, ""},
		{"after padded", params{"after": " 7 "}, Query{After: 7, Limit: 100}, ""},
		{"after with a plus", params{"after": "+3"}, Query{After: 3, Limit: 100}, ""},
		{"after leading zeros", params{"after": "0000000000000000012"}, Query{After: 12, Limit: 100}, ""},
		{"after the largest int64", params{"after": "9223372036854775807"}, Query{After: 1<<63 - 1, Limit: 100}, ""},
		{"type", params{"type": OrderCreated}, Query{Type: OrderCreated, Limit: 100}, ""},
		{"after and type", params{"after": "3", "type": ListingSyncFailed}, Query{After: 3, Type: ListingSyncFailed, Limit: 100}, ""},
		{"unknown parameter", params{"page": "x"}, Query{Limit: 100}, ""},
		{"after negative", params{"after": "-1"}, Query{}, "after"},
		{"after empty", params{"after": ""}, Query{}, "after"},
		{"after blank", params{"after": "  "}, Query{}, "after"},
		{"after a word", params{"after": "abc"}, Query{}, "after"},
		{"after fractional", params{"after": "1.5"}, Query{}, "after"},
		{"after 1.0", params{"after": "1.0"}, Query{}, "after"},
		{"after exponent", params{"after": "1e3"}, Query{}, "after"},
		{"after hex", params{"after": "0x10"}, Query{}, "after"},
		{"after with underscores", params{"after": "1_000"}, Query{}, "after"},
		{"after beyond int64", params{"after": "9223372036854775808"}, Query{}, "after"},
		{"after an event id", params{"after": "evt_0123"}, Query{}, "after"},
		{"type unknown", params{"type": "order.shipped"}, Query{}, "type"},
		{"type empty", params{"type": ""}, Query{}, "type"},
		{"type all", params{"type": AllTypes}, Query{}, "type"},
		{"type upper case", params{"type": "ORDER.CREATED"}, Query{}, "type"},
		{"type padded", params{"type": " order.created"}, Query{}, "type"},
		{"type ping", params{"type": "webhook.ping"}, Query{}, "type"},
		{"type list", params{"type": "order.created,order.updated"}, Query{}, "type"},
		{"bad after and type", params{"after": "-1", "type": "x"}, Query{}, "after"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseQuery(tc.params.get, 100)
			if tc.names == "" {
				if err != nil {
					t.Fatalf("ParseQuery(%v): %v", tc.params, err)
				}
				if want := tc.want; got != want {
					t.Errorf("ParseQuery(%v) = %+v, want %+v", tc.params, got, want)
				}
				return
			}
			e, ok := errs.As(err)
			if !ok || e.Kind != errs.KindInvalid || !strings.HasPrefix(e.Message, tc.names+" must") {
				t.Fatalf("ParseQuery(%v) = %+v, %v; want a 422 naming %s", tc.params, got, err, tc.names)
			}
			if tc.names == "type" {
				for _, typ := range Types {
					if !strings.Contains(e.Message, typ) {
						t.Errorf("message %q does not list %s", e.Message, typ)
					}
				}
			}
		})
	}
	t.Run("limit is the caller's", func(t *testing.T) {
		t.Parallel()
		for _, limit := range []int{1, 7, 100} {
			if got, err := ParseQuery(params{}.get, limit); err != nil || got.Limit != limit {
				t.Errorf("ParseQuery(limit %d) = %+v, %v", limit, got, err)
			}
		}
	})
}

// canceled is a cancelled transaction with the reason codes ("" for a
// reason without a code).
func canceled(codes ...string) error {
	tce := &types.TransactionCanceledException{Message: aws.String("Transaction cancelled")}
	for _, c := range codes {
		r := types.CancellationReason{}
		if c != "" {
			r.Code = aws.String(c)
		}
		tce.CancellationReasons = append(tce.CancellationReasons, r)
	}
	return tce
}

func TestCommitOutcome(t *testing.T) {
	t.Parallel()
	const (
		none     = "None"
		ccf      = "ConditionalCheckFailed"
		conflict = "TransactionConflict"
	)
	// Writes: the counter, then per event its source mark, the event and
	// its entry by type.
	cases := []struct {
		name     string
		err      error
		moved    bool
		recorded []int
	}{
		{"no error", nil, false, nil},
		{"another error", errors.New("throttled"), false, nil},
		{"a condition on one item", &types.ConditionalCheckFailedException{}, false, nil},
		{"all None", canceled(none, none, none, none), false, nil},
		{"counter moved", canceled(ccf, none, none, none), true, nil},
		{"first event recorded", canceled(none, ccf, none, none), false, []int{0}},
		{"second event recorded", canceled(none, none, none, none, ccf, none, none), false, []int{1}},
		{"both recorded", canceled(none, ccf, none, none, ccf, none, none), false, []int{0, 1}},
		{"counter moved and an event recorded", canceled(ccf, none, none, none, none, none, none, ccf, none, none), true, []int{2}},
		{"a failure on an event item is no mark", canceled(none, none, ccf, ccf), false, nil},
		{"conflicts", canceled(conflict, conflict, none, none), false, nil},
		{"reasons without codes", canceled("", "", "", ""), false, nil},
		{"wrapped", fmt.Errorf("commit: %w", canceled(ccf, ccf, none, none)), true, []int{0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			moved, recorded := commitOutcome(c.err)
			if got, want := moved, c.moved; got != want {
				t.Errorf("counter moved = %v, want %v", got, want)
			}
			if got, want := recorded, c.recorded; !slices.Equal(got, want) {
				t.Errorf("recorded = %v, want %v", got, want)
			}
		})
	}
}

// putOf reads a write of a commit (store.Write keeps its item to itself):
// the partition key of the item it puts and its condition.
func putOf(t *testing.T, w store.Write) (pk, cond string) {
	t.Helper()
	put := reflect.ValueOf(w).Field(0).FieldByName("Put")
	if put.IsNil() {
		t.Fatalf("write %+v is not a put", w)
	}
	put = put.Elem()
	if c := put.FieldByName("ConditionExpression"); !c.IsNil() {
		cond = c.Elem().String()
	}
	key := put.FieldByName("Item").MapIndex(reflect.ValueOf(store.AttrPK))
	return key.Elem().Elem().FieldByName("Value").String(), cond
}

// TestCommitOutcomeMatchesWrites: commitOutcome reads the positions at
// which eventWrites puts the writes: the counter first, conditioned on the
// seq read, then per event the source mark (the write a replay fails),
// the event and its entry by type; a failed mark maps back to its event.
func TestCommitOutcomeMatchesWrites(t *testing.T) {
	t.Parallel()
	evs := []stored{
		{Seq: 4, ID: "evt_a", Type: OrderCreated, Source: "O#1#100", Data: "{}"},
		{Seq: 5, ID: "evt_b", Type: ProductUpdated, Source: "P#2#101", Data: "{}"},
		{Seq: 6, ID: "evt_c", Type: OrderCreated, Source: "O#3#102", Data: "{}"},
	}
	ws, err := eventWrites("acct", 3, evs, 1_700_000_000)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(ws), 1+writesPerEvent*len(evs); got != want {
		t.Fatalf("%d writes, want %d", got, want)
	}
	if pk, cond := putOf(t, ws[0]); pk != store.PK("acct", kindCounter) || !strings.Contains(cond, ":prev") {
		t.Errorf("write 0 puts %s if %q, want the counter if it is still the seq read", pk, cond)
	}
	for i, ev := range evs {
		wants := []struct{ pk, cond string }{
			{store.PK("acct", kindSource), "attribute_not_exists(PK)"},
			{store.PK("acct", kindFeed), ""},
			{store.PK("acct", kindByType+ev.Type), ""},
		}
		for j, want := range wants {
			k := 1 + writesPerEvent*i + j
			if pk, cond := putOf(t, ws[k]); pk != want.pk || cond != want.cond {
				t.Errorf("write %d puts %s if %q, want %s if %q", k, pk, cond, want.pk, want.cond)
			}
		}
		codes := make([]string, len(ws))
		for j := range codes {
			codes[j] = "None"
		}
		codes[1+writesPerEvent*i] = "ConditionalCheckFailed"
		if _, recorded := commitOutcome(canceled(codes...)); !slices.Equal(recorded, []int{i}) {
			t.Errorf("a failed mark at write %d reads as events %v, want [%d]", 1+writesPerEvent*i, recorded, i)
		}
	}
	if got, want := maxPerCommit*writesPerEvent+1, store.MaxWrites; got > want {
		t.Errorf("a full commit has %d writes, more than a transaction's %d", got, want)
	}
}

func TestUpdated(t *testing.T) {
	t.Parallel()
	type product struct {
		SKU  string  `json:"sku"`
		Name *string `json:"name"`
		Qty  int     `json:"quantity"`
	}
	name, other := "Tee", "Shirt"
	cases := []struct {
		name       string
		prev, next any
		want       bool
	}{
		{"same", product{"S", &name, 1}, product{"S", &name, 1}, false},
		{"same value, other pointer", product{"S", &name, 1}, product{"S", func() *string { s := "Tee"; return &s }(), 1}, false},
		{"quantity", product{"S", &name, 1}, product{"S", &name, 2}, true},
		{"name", product{"S", &name, 1}, product{"S", &other, 1}, true},
		{"name cleared", product{"S", &name, 1}, product{"S", nil, 1}, true},
		{"maps in another order", map[string]any{"a": 1, "b": 2}, map[string]any{"b": 2, "a": 1}, false},
		{"nothing before", nil, product{"S", nil, 0}, true},
		{"both nil", nil, nil, false},
		{"raw JSON, same", json.RawMessage(`{"a":1}`), json.RawMessage(`{"a":1}`), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, ok, err := Updated(ProductUpdated, tc.prev, tc.next)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := ok, tc.want; got != want {
				t.Fatalf("changed = %v, want %v", got, want)
			}
			if !ok {
				if d != (Draft{}) {
					t.Errorf("no change, but draft %+v", d)
				}
				return
			}
			if d.Type != ProductUpdated {
				t.Errorf("type = %s, want %s", d.Type, ProductUpdated)
			}
			x, _ := json.Marshal(d.Data)
			y, _ := json.Marshal(tc.next)
			if string(x) != string(y) {
				t.Errorf("data = %s, want the next value %s", x, y)
			}
		})
	}
	t.Run("unrenderable", func(t *testing.T) {
		t.Parallel()
		for _, pair := range [][2]any{{make(chan int), 1}, {1, func() {}}} {
			if _, ok, err := Updated(OrderUpdated, pair[0], pair[1]); err == nil || ok || !strings.Contains(err.Error(), OrderUpdated) {
				t.Errorf("Updated(%T, %T) = %v, %v; want an error naming the type", pair[0], pair[1], ok, err)
			}
		}
	})
}

func TestTypes(t *testing.T) {
	t.Parallel()
	want := "order.created, order.updated, order.import_failed, inventory.updated, inventory_adjustment.applied, product.updated, shipment.created, listing.sync_failed, channel.disconnected"
	if got := TypeList(); got != want {
		t.Errorf("TypeList() = %q, want %q", got, want)
	}
	seen := map[string]bool{}
	for _, typ := range Types {
		if seen[typ] {
			t.Errorf("type %s listed twice", typ)
		}
		seen[typ] = true
		if !KnownType(typ) {
			t.Errorf("KnownType(%s) = false", typ)
		}
	}
	for _, s := range []string{"", AllTypes, "webhook.ping", "ORDER.CREATED", "order.created ", "order", "order.*"} {
		if KnownType(s) {
			t.Errorf("KnownType(%q) = true", s)
		}
	}
}

func TestSeqText(t *testing.T) {
	t.Parallel()
	// Sort keys of the feed sort as the numbers do.
	seqs := []int64{0, 1, 9, 10, 99, 100, 12345, 1_000_000_000, 9_999_999_999_999_999}
	for i := 1; i < len(seqs); i++ {
		if a, b := seqText(seqs[i-1]), seqText(seqs[i]); a >= b {
			t.Errorf("seqText(%d) = %s sorts at or after seqText(%d) = %s", seqs[i-1], a, seqs[i], b)
		}
	}
	if got, want := seqText(42), "0000000000000042"; got != want {
		t.Errorf("seqText(42) = %s, want %s", got, want)
	}
}

// FuzzParseQuery: ParseQuery never panics; it accepts an after that is a
// decimal integer of at least 0 (read as that number) and a type that is
// one of Types, and refuses anything else with a 422 naming the parameter.
func FuzzParseQuery(f *testing.F) {
	for _, seed := range []struct {
		after, typ string
		hasAfter   bool
		hasType    bool
	}{
		{"0", "", true, false}, {"5", OrderCreated, true, true}, {"-1", "", true, false},
		{" 12 ", "x", true, true}, {"", "", true, true}, {"1e3", AllTypes, true, true},
		{"9223372036854775808", ListingSyncFailed, true, true}, {"+0", "ORDER.CREATED", true, true},
	} {
		f.Add(seed.after, seed.typ, seed.hasAfter, seed.hasType)
	}
	f.Fuzz(func(t *testing.T, after, typ string, hasAfter, hasType bool) {
		p := params{}
		if hasAfter {
			p["after"] = after
		}
		if hasType {
			p["type"] = typ
		}
		q, err := ParseQuery(p.get, 50)
		n, nerr := strconv.ParseInt(strings.TrimSpace(after), 10, 64)
		afterOK := !hasAfter || (nerr == nil && n >= 0)
		typeOK := !hasType || KnownType(typ)
		if err != nil {
			e, ok := errs.As(err)
			if !ok || e.Kind != errs.KindInvalid {
				t.Fatalf("ParseQuery(%v): %v, want a 422", p, err)
			}
			switch {
			case !afterOK:
				if !strings.HasPrefix(e.Message, "after ") {
					t.Fatalf("ParseQuery(%v): %q, want it to name after", p, e.Message)
				}
			case !typeOK:
				if !strings.HasPrefix(e.Message, "type ") {
					t.Fatalf("ParseQuery(%v): %q, want it to name type", p, e.Message)
				}
			default:
				t.Fatalf("ParseQuery(%v) refused a good query: %v", p, err)
			}
			return
		}
		if !afterOK || !typeOK {
			t.Fatalf("ParseQuery(%v) = %+v, accepted a bad query", p, q)
		}
		if q.Limit != 50 || q.After < 0 || (hasAfter && q.After != n) || (!hasAfter && q.After != 0) {
			t.Fatalf("ParseQuery(%v) = %+v", p, q)
		}
		if (hasType && q.Type != typ) || (!hasType && q.Type != "") {
			t.Fatalf("ParseQuery(%v) = %+v, type", p, q)
		}
	})
}
