package orders

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/wire"
)

// jsonKeys are the JSON keys of a struct type's fields.
func jsonKeys(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		out = append(out, strings.Split(f.Tag.Get("json"), ",")[0])
	}
	slices.Sort(out)
	return out
}

// sorted is the names of lists, sorted, without those of drop.
func sorted(drop []string, lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, n := range l {
			if !slices.Contains(drop, n) {
				out = append(out, n)
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestDocumentKeysAgree: the fields the import validates are exactly the
// keys of wire.OrderDocument and wire.OrderItem, both ways (but the message
// type and the billing_company alias, which connectors do not send).
func TestDocumentKeysAgree(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		got, want []string
	}{
		{"document", sorted([]string{"type", fieldBillCoV2}, orderKeys, orderText, orderNumbers, orderTimes), jsonKeys(reflect.TypeFor[wire.OrderDocument]())},
		{"line", sorted(nil, itemKeys, itemText, itemNumbers, itemTimes, itemChannel), jsonKeys(reflect.TypeFor[wire.OrderItem]())},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if !slices.Equal(tc.got, tc.want) {
				t.Errorf("validated keys %v, want the wire keys %v", tc.got, tc.want)
			}
		})
	}
}

// TestUnknownKey: a document or a line with a key outside the import
// document is refused, naming the key; the service's own fields are
// ignored as before.
func TestUnknownKey(t *testing.T) {
	t.Parallel()
	full, err := json.Marshal(wire.OrderDocument{ChannelUUID: "c", DisplayRef: "1", OrderedAt: "2024-01-01T00:00:00Z",
		PaymentStatus: "all", Total: wire.Cents(1250), ShippingCity: "X",
		Items: []wire.OrderItem{{OrderItemRef: "1", SKU: "S", Quantity: 1, UnitPrice: "12.50"}}})
	if err != nil {
		t.Fatal(err)
	}
	line := `"items":[{"order_item_ref":"1","sku":"S","quantity":1%s}]`
	base := `{"type":"order","channel_uuid":"c","display_ref":"1","ordered_at":"2024-01-01"%s,` + line + `}`
	tests := []struct {
		name, doc, wantErr string
	}{
		{"a built document", string(full), ""},
		{"the service's own fields", fill(base, `,"sb_order_seq":3,"sb_status":"open","channel_name":"x"`, `,"inventory_sku":"S","quantity_fulfilled":0,"warehouses":[]`), ""},
		{"billing_company", fill(base, `,"billing_company":"Co"`, ``), ""},
		{"misspelt order field", fill(base, `,"shipping_adress_1":"1 Main St"`, ``), "shipping_adress_1 is not a field of an import document"},
		{"two unknown: the first by name", fill(base, `,"zz":1,"aa":2`, ``), "aa is not a field of an import document"},
		{"unknown line field", fill(base, ``, `,"unit_cost":2`), "items[0].unit_cost is not a field of an import document"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := parseDocument(json.RawMessage(tc.doc))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.wantErr {
				t.Errorf("parseDocument(%s) = %q, want %q", tc.doc, got, tc.wantErr)
			}
		})
	}
}

// fill fills base's two %s, the document's extra keys and the line's.
func fill(base, doc, line string) string {
	return strings.Replace(strings.Replace(base, "%s", doc, 1), "%s", line, 1)
}
