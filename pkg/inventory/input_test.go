package inventory

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
	"github.com/multisell/multisell/pkg/sku"
)

const wh = "0190a4c2-0000-7000-8000-000000000001"

// item returns a JSON item of sku at wh with extra members.
func item(sku, extra string) string {
	return fmt.Sprintf(`{"sku":%q,"warehouse_uuid":%q%s}`, sku, wh, extra)
}

// items returns a body of n items with distinct SKUs.
func items(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = item(fmt.Sprintf("SKU-%d", i), `,"on_hand":1`)
	}
	return `{"inventory":[` + strings.Join(parts, ",") + `]}`
}

// parse parses a PATCH body (the method that takes every field).
func parse(body string) ([]Item, error) { return parseAs(body, MethodPatch) }

// parseAs parses a body of method.
func parseAs(body, method string) ([]Item, error) {
	o, err := lenient.DecodeObject(body)
	if err != nil {
		return nil, err
	}
	return ParseItems(o, method)
}

func TestParseItemsValid(t *testing.T) {
	t.Parallel()
	i64 := func(v int64) *int64 { return &v }
	tests := []struct {
		name string
		body string
		want Item
	}{
		{"object", `{"inventory":` + item("A", `,"on_hand":5`) + `}`, Item{SKU: "A", Warehouse: wh, OnHand: i64(5)}},
		{"array", `{"inventory":[` + item("A", `,"available":0`) + `]}`, Item{SKU: "A", Warehouse: wh, Available: i64(0)}},
		{"numeric string", `{"inventory":` + item("A", `,"on_hand":"7"`) + `}`, Item{SKU: "A", Warehouse: wh, OnHand: i64(7)}},
		{"whole float", `{"inventory":` + item("A", `,"on_hand":7.0`) + `}`, Item{SKU: "A", Warehouse: wh, OnHand: i64(7)}},
		{"max", `{"inventory":` + item("A", `,"on_hand":2147483647`) + `}`, Item{SKU: "A", Warehouse: wh, OnHand: i64(MaxQuantity)}},
		{"null other quantity", `{"inventory":` + item("A", `,"on_hand":null,"available":3`) + `}`, Item{SKU: "A", Warehouse: wh, Available: i64(3)}},
		{"unicode sku", `{"inventory":` + item("Ünï/κ B+#?", `,"on_hand":1`) + `}`, Item{SKU: "Ünï/κ B+#?", Warehouse: wh, OnHand: i64(1)}},
		{"numeric sku", `{"inventory":{"sku":123,"warehouse_uuid":"` + wh + `","on_hand":1}}`, Item{SKU: "123", Warehouse: wh, OnHand: i64(1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := parse(tt.body)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || !reflect.DeepEqual(got[0], tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseItemsOptional(t *testing.T) {
	t.Parallel()
	got, err := parse(`{"inventory":` + item("A", `,"on_hand":1,"cost":"2.5","bin_location":"A-1","description":"recount"`) + `}`)
	if err != nil {
		t.Fatal(err)
	}
	it := got[0]
	if *it.Cost != 2.5 || *it.BinLocation != "A-1" || *it.Description != "recount" || it.Clear != nil {
		t.Errorf("got %+v", it)
	}
	got, err = parse(`{"inventory":` + item("A", `,"on_hand":1,"cost":null,"bin_location":null,"description":null`) + `}`)
	if err != nil {
		t.Fatal(err)
	}
	if it := got[0]; it.Cost != nil || it.BinLocation != nil || strings.Join(it.Clear, ",") != "cost,bin_location,description" {
		t.Errorf("got %+v", it)
	}
}

func TestParseItemsInvalid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
		kind errs.Kind
		msg  string
	}{
		{"not json", `{"inventory":`, errs.KindMalformed, "not valid JSON"},
		{"array body", `[1]`, errs.KindMalformed, "JSON object"},
		{"too large", `{"x":"` + strings.Repeat("a", lenient.MaxBodyBytes) + `"}`, errs.KindTooLarge, "too large"},
		{"missing inventory", `{}`, errs.KindInvalid, "inventory is required"},
		{"null inventory", `{"inventory":null}`, errs.KindInvalid, "inventory is required"},
		{"inventory string", `{"inventory":"x"}`, errs.KindInvalid, "inventory must be an object"},
		{"inventory number", `{"inventory":5}`, errs.KindInvalid, "inventory must be an object"},
		{"empty", `{"inventory":[]}`, errs.KindInvalid, "1 to 50 items"},
		{"51 items", items(51), errs.KindInvalid, "1 to 50 items"},
		{"item not object", `{"inventory":[` + item("A", `,"on_hand":1`) + `,7]}`, errs.KindInvalid, "inventory[1] must be an object"},
		{"missing sku", `{"inventory":[{"warehouse_uuid":"` + wh + `","on_hand":1}]}`, errs.KindInvalid, "inventory[0].sku is required"},
		{"empty sku", `{"inventory":[` + item("", `,"on_hand":1`) + `]}`, errs.KindInvalid, "inventory[0].sku is required"},
		{"sku object", `{"inventory":[{"sku":{},"warehouse_uuid":"` + wh + `","on_hand":1}]}`, errs.KindInvalid, "inventory[0].sku must be a string"},
		{"sku control", `{"inventory":[` + item("A\tB", `,"on_hand":1`) + `]}`, errs.KindInvalid, "inventory[0].sku must be 1 to 255"},
		{"sku 256", `{"inventory":[` + item(strings.Repeat("é", 256), `,"on_hand":1`) + `]}`, errs.KindInvalid, "inventory[0].sku must be 1 to 255"},
		{"missing warehouse", `{"inventory":[{"sku":"A","on_hand":1}]}`, errs.KindInvalid, "inventory[0].warehouse_uuid is required"},
		{"warehouse bool", `{"inventory":[{"sku":"A","warehouse_uuid":true,"on_hand":1}]}`, errs.KindInvalid, "inventory[0].warehouse_uuid must be a string"},
		{"neither", `{"inventory":[` + item("A", ``) + `]}`, errs.KindInvalid, QuantityMessage},
		{"both", `{"inventory":[` + item("A", `,"on_hand":1,"available":1`) + `]}`, errs.KindInvalid, "exactly one of on_hand and available"},
		{"negative", `{"inventory":[` + item("A", `,"on_hand":-1`) + `]}`, errs.KindInvalid, QuantityMessage},
		{"fraction", `{"inventory":[` + item("A", `,"available":1.5`) + `]}`, errs.KindInvalid, QuantityMessage},
		{"over int32", `{"inventory":[` + item("A", `,"on_hand":2147483648`) + `]}`, errs.KindInvalid, QuantityMessage},
		{"text quantity", `{"inventory":[` + item("A", `,"on_hand":"five"`) + `]}`, errs.KindInvalid, QuantityMessage},
		{"bool quantity", `{"inventory":[` + item("A", `,"on_hand":true`) + `]}`, errs.KindInvalid, QuantityMessage},
		{"array quantity", `{"inventory":[` + item("A", `,"on_hand":[1]`) + `]}`, errs.KindInvalid, QuantityMessage},
		{"negative cost", `{"inventory":[` + item("A", `,"on_hand":1,"cost":-1`) + `]}`, errs.KindInvalid, "inventory[0].cost"},
		{"text cost", `{"inventory":[` + item("A", `,"on_hand":1,"cost":"x"`) + `]}`, errs.KindInvalid, "inventory[0].cost"},
		{"long bin", `{"inventory":[` + item("A", `,"on_hand":1,"bin_location":"`+strings.Repeat("b", 256)+`"`) + `]}`, errs.KindInvalid, "inventory[0].bin_location must be at most 255"},
		{"object description", `{"inventory":[` + item("A", `,"on_hand":1,"description":{}`) + `]}`, errs.KindInvalid, "inventory[0].description must be a string"},
		{"duplicate", `{"inventory":[` + item("A", `,"on_hand":1`) + `,` + item("B", `,"on_hand":1`) + `,` + item("A", `,"on_hand":2`) + `]}`, errs.KindInvalid, "inventory[2] has the same sku and warehouse_uuid as inventory[0]"},
		{"on_hand and delta", `{"inventory":[` + item("A", `,"on_hand":1,"on_hand_delta":1`) + `]}`, errs.KindInvalid, "inventory[0].on_hand_delta must come alone"},
		{"available and delta", `{"inventory":[` + item("A", `,"available":1,"on_hand_delta":-1`) + `]}`, errs.KindInvalid, "inventory[0].on_hand_delta must come alone"},
		{"fraction delta", `{"inventory":[` + item("A", `,"on_hand_delta":1.5`) + `]}`, errs.KindInvalid, "inventory[0].on_hand_delta must be an integer"},
		{"delta over int32", `{"inventory":[` + item("A", `,"on_hand_delta":-2147483648`) + `]}`, errs.KindInvalid, "inventory[0].on_hand_delta must be an integer"},
		{"negative if_on_hand", `{"inventory":[` + item("A", `,"on_hand_delta":1,"if_on_hand":-1`) + `]}`, errs.KindInvalid, "inventory[0].if_on_hand must be an integer"},
		{"unknown reason", `{"inventory":[` + item("A", `,"on_hand_delta":1,"reason":"stolen"`) + `]}`, errs.KindInvalid, "inventory[0].reason must be one of received, returned"},
		{"reason number", `{"inventory":[` + item("A", `,"on_hand_delta":1,"reason":7`) + `]}`, errs.KindInvalid, "inventory[0].reason must be one of"},
		{"long reference", `{"inventory":[` + item("A", `,"on_hand_delta":1,"reference":"`+strings.Repeat("r", 256)+`"`) + `]}`, errs.KindInvalid, "inventory[0].reference must be at most 255"},
		{"object reference", `{"inventory":[` + item("A", `,"on_hand_delta":1,"reference":{}`) + `]}`, errs.KindInvalid, "inventory[0].reference must be a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := parse(tt.body)
			ae, ok := errs.As(err)
			if !ok {
				t.Fatalf("err = %v, want an *errs.Error", err)
			}
			if ae.Kind != tt.kind || !strings.Contains(ae.Message, tt.msg) {
				t.Errorf("got %v %q, want %v containing %q", ae.Kind, ae.Message, tt.kind, tt.msg)
			}
		})
	}
}

// TestParseItemsByMethod checks which methods take the fields of a
// change: on_hand_delta only PATCH, if_on_hand, reason and reference PUT
// and PATCH, none of them POST.
func TestParseItemsByMethod(t *testing.T) {
	t.Parallel()
	tests := []struct {
		field  string
		method string
		ok     bool
	}{
		{`"on_hand_delta":1`, MethodPatch, true},
		{`"on_hand_delta":1`, MethodPut, false},
		{`"on_hand_delta":1`, http.MethodPost, false},
		{`"on_hand":1,"if_on_hand":3`, MethodPut, true},
		{`"on_hand":1,"if_on_hand":3`, http.MethodPost, false},
		{`"on_hand":1,"reason":"counted","reference":"PO-1"`, MethodPut, true},
		{`"on_hand":1,"reason":"counted"`, http.MethodPost, false},
		{`"on_hand":1,"reference":"PO-1"`, http.MethodPost, false},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.field, func(t *testing.T) {
			t.Parallel()
			_, err := parseAs(`{"inventory":[`+item("A", ","+tt.field)+`]}`, tt.method)
			if got := err == nil; got != tt.ok {
				t.Errorf("got err %v, want ok %v", err, tt.ok)
			}
			if err != nil && !strings.Contains(err.Error(), "is taken only by") {
				t.Errorf("got %v, want a message naming the methods", err)
			}
		})
	}
}

func TestParseItemsFifty(t *testing.T) {
	t.Parallel()
	got, err := parse(items(MaxItems))
	if err != nil || len(got) != MaxItems {
		t.Fatalf("got %d items, %v", len(got), err)
	}
}

// FuzzParseItems checks that any body either parses into items that keep
// every rule or is refused with a 4xx.
func FuzzParseItems(f *testing.F) {
	for _, s := range []string{
		items(1), items(3), `{"inventory":` + item("A", `,"available":"2","cost":1.5,"bin_location":null`) + `}`,
		`{"inventory":[{"sku":"A","warehouse_uuid":"w","on_hand":1,"available":1}]}`, `{"inventory":{}}`, `[]`, `{`, `"x"`,
		`{"inventory":[` + item("A", `,"on_hand":1e3`) + `]}`, `{"inventory":[` + item("A\u0000", `,"on_hand":1`) + `]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		got, err := parse(body)
		if err != nil {
			if errs.KindOf(err) == errs.KindInternal {
				t.Fatalf("error %v is not the client's", err)
			}
			return
		}
		if len(got) < 1 || len(got) > MaxItems {
			t.Fatalf("%d items", len(got))
		}
		seen := map[SKUWarehouse]bool{}
		for _, it := range got {
			if !sku.Valid(it.SKU) || it.Warehouse == "" || (it.OnHand == nil) == (it.Available == nil) || seen[it.Record()] {
				t.Fatalf("invalid item %+v", it)
			}
			seen[it.Record()] = true
			q := it.OnHand
			if q == nil {
				q = it.Available
			}
			if *q < 0 || *q > MaxQuantity {
				t.Fatalf("quantity %d", *q)
			}
		}
	})
}
