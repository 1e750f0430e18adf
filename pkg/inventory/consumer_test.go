package inventory

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/queue"
)

func TestAdjustmentValidate(t *testing.T) {
	t.Parallel()
	one := int64(1)
	ok := Adjustment{RequestID: newRequestID("acct_a"), Account: "acct_a", Method: MethodPut,
		Items: []Item{{SKU: "A", Warehouse: wh, OnHand: &one}}}
	if err := ok.validate(); err != nil {
		t.Fatalf("valid adjustment: %v", err)
	}
	tests := []struct {
		name   string
		change func(a *Adjustment)
	}{
		{"other account", func(a *Adjustment) { a.Account = "acct_b" }},
		{"no request id", func(a *Adjustment) { a.RequestID = "" }},
		{"method", func(a *Adjustment) { a.Method = "DELETE" }},
		{"no items", func(a *Adjustment) { a.Items = nil }},
		{"bad sku", func(a *Adjustment) { a.Items = []Item{{SKU: "A\n", Warehouse: wh, OnHand: &one}} }},
		{"no warehouse", func(a *Adjustment) { a.Items = []Item{{SKU: "A", OnHand: &one}} }},
		{"no quantity", func(a *Adjustment) { a.Items = []Item{{SKU: "A", Warehouse: wh}} }},
		{"two quantities", func(a *Adjustment) { a.Items = []Item{{SKU: "A", Warehouse: wh, OnHand: &one, Available: &one}} }},
		{"clear quantity", func(a *Adjustment) {
			a.Items = []Item{{SKU: "A", Warehouse: wh, OnHand: &one, Clear: []string{"on_hand"}}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := ok
			tt.change(&a)
			if err := a.validate(); err == nil {
				t.Errorf("accepted %+v", a)
			}
		})
	}
}

// TestLargestMessageFits checks that the largest adjustment a client can
// send, in the least compressible characters, stays under the SQS limit of
// 256 KiB, and decodes to what was sent.
func TestLargestMessageFits(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(1, 2))
	text := func(lo, hi rune) string {
		var b strings.Builder
		for range maxText {
			b.WriteRune(lo + rnd.Int32N(hi-lo))
		}
		return b.String()
	}
	// The characters of text that take the most bytes escaped in JSON (control characters
	// other than these are refused).
	escaped := []rune("<>&\u2028\u2029\"\\\t\n\r")
	worst := func() string {
		var b strings.Builder
		for range maxText {
			b.WriteRune(escaped[rnd.IntN(len(escaped))])
		}
		return b.String()
	}
	parts := make([]string, MaxItems)
	for i := range parts {
		parts[i] = `{"sku":` + quote(text(0x10000, 0x10FFFF)) + `,"warehouse_uuid":` + quote(text(0x10000, 0x10FFFF)) +
			`,"on_hand":2147483647,"cost":1.7976931348623157e308,"bin_location":` + quote(text(0x10000, 0x10FFFF)) +
			`,"description":` + quote(worst()) + `}`
	}
	got, err := parse(`{"inventory":[` + strings.Join(parts, ",") + `]}`)
	if err != nil {
		t.Fatal(err)
	}
	account := "acct_0123456789abcdef0123"
	adj := Adjustment{RequestID: newRequestID(account), Account: account, Method: MethodPatch, Items: got}
	body, err := queue.Encode(adj)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("largest message: %d bytes", len(body))
	if len(body) > 256<<10 {
		t.Errorf("largest message is %d bytes", len(body))
	}
	for _, c := range body {
		if c < 0x20 || c > 0x7e {
			t.Fatalf("message has character %U", c)
		}
	}
	back, err := decodeAdjustment(body)
	if err != nil || !reflect.DeepEqual(back, adj) {
		t.Errorf("round trip: %v", err)
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// FuzzConsumeMessage checks that no message body makes the consumer's
// decoding and validation panic, and that what it accepts is applicable.
func FuzzConsumeMessage(f *testing.F) {
	one := int64(1)
	id := newRequestID("acct_a")
	for _, adj := range []Adjustment{
		{RequestID: id, Account: "acct_a", Method: MethodPut, Items: []Item{{SKU: "A", Warehouse: "w", OnHand: &one}}},
		{RequestID: id, Account: "acct_a", Method: MethodPatch, Items: []Item{{SKU: "A", Warehouse: "w", Available: &one, Clear: []string{"cost"}}}},
		{RequestID: id, Account: "acct_b", Method: MethodPut},
		{Items: []Item{{}}},
	} {
		body, err := queue.Encode(adj)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(body)
	}
	f.Add(`{"request_id":"x"}`)
	f.Add(`H4sIAAAAAAAA/wMAAAAAAAAAAAA=`)
	f.Add(`not base64`)
	f.Fuzz(func(t *testing.T, body string) {
		adj, err := decodeAdjustment(body)
		if err != nil {
			return
		}
		for _, it := range adj.Items {
			if (it.OnHand == nil) == (it.Available == nil) {
				t.Fatalf("accepted item without exactly one quantity: %+v", it)
			}
		}
	})
}
