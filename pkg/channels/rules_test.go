package channels

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
)

func ptr(v int64) *int64 { return &v }

func TestRulesQuantity(t *testing.T) {
	t.Parallel()
	stock := map[string]int64{"A": 4, "B": 3, "C": 0}
	cases := []struct {
		name  string
		rules Rules
		stock map[string]int64
		want  int64
	}{
		{"defaults: everything", DefaultRules(), stock, 7},
		{"percent rounds down", Rules{Percent: 50, Sync: true}, stock, 3},
		{"percent 0", Rules{Percent: 0, Sync: true}, stock, 0},
		{"percent 33 of 7", Rules{Percent: 33, Sync: true}, stock, 2},
		{"max caps", Rules{Percent: 100, Max: ptr(5), Sync: true}, stock, 5},
		{"max above A", Rules{Percent: 100, Max: ptr(50), Sync: true}, stock, 7},
		{"min raises", Rules{Percent: 10, Min: ptr(2), Sync: true}, stock, 2},
		{"min after max", Rules{Percent: 100, Max: ptr(1), Min: ptr(3), Sync: true}, stock, 3},
		{"safety: A equal is 0", Rules{Percent: 100, Safety: ptr(7), Sync: true}, stock, 0},
		{"safety: A above keeps all", Rules{Percent: 100, Safety: ptr(6), Sync: true}, stock, 7},
		{"safety wins over min", Rules{Percent: 100, Safety: ptr(10), Min: ptr(3), Sync: true}, stock, 0},
		{"warehouse subset", Rules{Percent: 100, Warehouses: []string{"B"}, Sync: true}, stock, 3},
		{"empty subset", Rules{Percent: 100, Warehouses: []string{}, Sync: true}, stock, 0},
		{"unknown warehouse in subset", Rules{Percent: 100, Warehouses: []string{"Z"}, Sync: true}, stock, 0},
		{"negative available counts 0", DefaultRules(), map[string]int64{"A": -2, "B": 3}, 3},
		{"no stock", DefaultRules(), nil, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := tc.rules.Quantity(tc.stock); got != tc.want {
				t.Errorf("Quantity = %d, want %d", got, tc.want)
			}
		})
	}
}

// override parses a listing's inventory_rules JSON.
func override(t *testing.T, raw string) Override {
	t.Helper()
	o, err := ParseOverride(lenient.Field{Name: "inventory_rules", Raw: json.RawMessage(raw), Present: true})
	if err != nil {
		t.Fatalf("ParseOverride(%s): %v", raw, err)
	}
	return o
}

func TestOverrideApply(t *testing.T) {
	t.Parallel()
	channel := Rules{Percent: 50, Max: ptr(10), Safety: ptr(1), Warehouses: []string{"A"}, Sync: true}
	cases := []struct {
		name, override string
		want           Rules
	}{
		{"none", `{}`, channel},
		{"null is none", `null`, channel},
		{"percent only keeps the rest", `{"percent":100}`, Rules{Percent: 100, Max: ptr(10), Safety: ptr(1), Warehouses: []string{"A"}, Sync: true}},
		{"max null lifts the cap", `{"max":null}`, Rules{Percent: 50, Safety: ptr(1), Warehouses: []string{"A"}, Sync: true}},
		{"warehouses null counts all", `{"warehouses":null}`, Rules{Percent: 50, Max: ptr(10), Safety: ptr(1), Sync: true}},
		{"sync off", `{"sync":false}`, Rules{Percent: 50, Max: ptr(10), Safety: ptr(1), Warehouses: []string{"A"}}},
		{"lenient strings", `{"min":"2","sync":"true"}`, Rules{Percent: 50, Max: ptr(10), Min: ptr(2), Safety: ptr(1), Warehouses: []string{"A"}, Sync: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, _ := json.Marshal(override(t, tc.override).Apply(channel))
			want, _ := json.Marshal(tc.want)
			if string(got) != string(want) {
				t.Errorf("Apply = %s, want %s", got, want)
			}
		})
	}
}

func TestOverrideJSONRoundTrip(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{`{}`, `{"max":null}`, `{"percent":20,"warehouses":["a","b"]}`, `{"safety":3,"sync":false}`} {
		o := override(t, raw)
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		var back Override
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		b2, _ := json.Marshal(back)
		if string(b) != string(b2) {
			t.Errorf("%s: marshal %s, again %s", raw, b, b2)
		}
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		var in map[string]any
		_ = json.Unmarshal([]byte(raw), &in)
		if len(m) != len(in) {
			t.Errorf("%s: marshalled %s holds other fields", raw, b)
		}
	}
}

func TestParseRulesInvalid(t *testing.T) {
	t.Parallel()
	cases := []struct{ raw, field string }{
		{`{"percent":101}`, "inventory_rules.percent"},
		{`{"percent":-1}`, "inventory_rules.percent"},
		{`{"percent":12.5}`, "inventory_rules.percent"},
		{`{"percent":"lots"}`, "inventory_rules.percent"},
		{`{"max":-1}`, "inventory_rules.max"},
		{`{"min":1.5}`, "inventory_rules.min"},
		{`{"safety":"x"}`, "inventory_rules.safety"},
		{`{"max":3000000000}`, "inventory_rules.max"},
		{`{"min":5,"max":4}`, "inventory_rules.min"},
		{`{"warehouses":"a"}`, "inventory_rules.warehouses"},
		{`{"warehouses":[1,2]}`, "inventory_rules.warehouses"},
		{`{"sync":"maybe"}`, "inventory_rules.sync"},
		{`[]`, "inventory_rules"},
		{`"all"`, "inventory_rules"},
	}
	for _, tc := range cases {
		t.Run(tc.raw, func(t *testing.T) {
			t.Parallel()
			_, err := ParseRules(lenient.Field{Name: "inventory_rules", Raw: json.RawMessage(tc.raw), Present: true})
			if errs.KindOf(err) != errs.KindInvalid || !strings.Contains(err.Error(), tc.field) {
				t.Errorf("ParseRules(%s) = %v, want a 422 naming %s", tc.raw, err, tc.field)
			}
		})
	}
}

func TestParseRulesDefaults(t *testing.T) {
	t.Parallel()
	got, err := ParseRules(lenient.Field{Name: "inventory_rules", Raw: json.RawMessage(`{"max":5}`), Present: true})
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultRules()
	want.Max = ptr(5)
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("ParseRules = %s, want %s", g, w)
	}
}
