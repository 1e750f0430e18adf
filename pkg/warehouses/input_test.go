package warehouses

import (
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
)

func TestParseBody(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		body   string
		create bool
		errs   map[string][]string
		set    []string
		remove []string
	}{
		{name: "minimal create", body: `{"warehouse":{"name":"Main"}}`, create: true, set: []string{"name"}},
		{name: "missing wrapper", body: `{"name":"Main"}`, create: true, errs: map[string][]string{"warehouse": {"can't be blank"}}},
		{name: "wrapper not object", body: `{"warehouse":"Main"}`, errs: map[string][]string{"warehouse": {"must be an object"}}},
		{name: "blank name on create", body: `{"warehouse":{"city":"X"}}`, create: true, errs: map[string][]string{"name": {"can't be blank"}}},
		{name: "whitespace name", body: `{"warehouse":{"name":"  "}}`, errs: map[string][]string{"name": {"can't be blank"}}},
		{name: "null name", body: `{"warehouse":{"name":null}}`, errs: map[string][]string{"name": {"can't be blank"}}},
		{name: "bad email", body: `{"warehouse":{"name":"A","email":"nope"}}`, create: true, errs: map[string][]string{"email": {"is invalid"}}},
		{name: "bad country", body: `{"warehouse":{"country_code":"USA"}}`, errs: map[string][]string{"country_code": {"is invalid"}}},
		{name: "wrong types", body: `{"warehouse":{"name":["A"],"archived":"maybe","priority":0}}`,
			errs: map[string][]string{"name": {"must be a string"}, "archived": {"must be true or false"},
				"priority": {"must be an integer greater than or equal to 1"}}},
		{name: "control characters", body: `{"warehouse":{"name":"Main\u0000","city":"Oak\u007fland","address_1":"1 Main St\r\nSuite 2\t"}}`,
			errs: map[string][]string{"name": {"must not contain control characters"}, "city": {"must not contain control characters"}}},
		{name: "update clears and sets", body: `{"warehouse":{"address_2":null,"region":"CA","postal_code":94607,"priority":"2","archived":true}}`,
			set: []string{"archived", "postal_code", "priority", "state_region"}, remove: []string{"address_2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			body, err := lenient.DecodeObject(c.body)
			if err != nil {
				t.Fatal(err)
			}
			got, err := parseBody(body, c.create)
			if c.errs != nil {
				if e, ok := errs.As(err); !ok || e.Kind != errs.KindInvalid || !reflect.DeepEqual(e.Fields, c.errs) {
					t.Fatalf("err = %v, want fields %v", err, c.errs)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if keys := setFields(got); !reflect.DeepEqual(keys, c.set) {
				t.Errorf("set = %v, want %v", keys, c.set)
			}
			if !reflect.DeepEqual(got.Clear, c.remove) {
				t.Errorf("remove = %v, want %v", got.Clear, c.remove)
			}
		})
	}
}

// setFields are the stored names of the fields in sets, sorted.
func setFields(in Input) []string {
	var out []string
	for attr := range maps.Keys(in.Text) {
		out = append(out, attr)
	}
	for attr, set := range map[string]bool{
		"enable_shipping_software": in.EnableShippingSoftware != nil,
		"archived":                 in.Archived != nil,
		"priority":                 in.Priority != nil,
	} {
		if set {
			out = append(out, attr)
		}
	}
	slices.Sort(out)
	return out
}

// TestInputCheck: an Input built in Go (not parsed from a body) is held to
// what parseBody guarantees before it is stored.
func TestInputCheck(t *testing.T) {
	t.Parallel()
	one, zero := 1, 0
	cases := []struct {
		name   string
		in     Input
		create bool
		want   map[string][]string
	}{
		{name: "create with a name", in: Input{Text: map[string]string{"name": "Main", "state_region": "CA"}, Priority: &one}, create: true},
		{name: "update without a name", in: Input{Text: map[string]string{"city": "Venlo"}, Clear: []string{"address_2"}}},
		{name: "create without a name", in: Input{Text: map[string]string{"city": "Venlo"}}, create: true,
			want: map[string][]string{"name": {"can't be blank"}}},
		{name: "unknown field", in: Input{Text: map[string]string{"name": "A", "region": "CA"}},
			want: map[string][]string{"region": {"is not a warehouse field"}}},
		{name: "blank text", in: Input{Text: map[string]string{"name": " "}},
			want: map[string][]string{"name": {"can't be blank"}}},
		{name: "name cleared", in: Input{Clear: []string{"name"}}, want: map[string][]string{"name": {"can't be cleared"}}},
		{name: "priority 0", in: Input{Priority: &zero},
			want: map[string][]string{"priority": {"must be an integer greater than or equal to 1"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := c.in.check(c.create)
			var got map[string][]string
			if e, ok := errs.As(err); ok {
				got = e.Fields
			} else if err != nil {
				t.Fatalf("err = %v, want fields %v", err, c.want)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("fields = %v, want %v", got, c.want)
			}
		})
	}
}
