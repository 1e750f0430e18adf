package walmart

import (
	"encoding/json"
	"testing"

	"github.com/multisell/multisell/pkg/connectors"
)

// FuzzOrdersAnswer: no getAllOrders answer makes the parser panic, and every document it
// makes names the channel polled and is JSON.
func FuzzOrdersAnswer(f *testing.F) {
	f.Add([]byte(order))
	f.Add([]byte(`{"list":{"elements":{"order":[{}]}}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		page, err := parseOrders("chan-f", body)
		if err != nil {
			return
		}
		for _, o := range page.Orders {
			var d struct {
				ChannelUUID string `json:"channel_uuid"`
			}
			if json.Unmarshal(o.Document, &d) != nil || d.ChannelUUID != "chan-f" {
				t.Fatalf("document %s", o.Document)
			}
		}
	})
}

// FuzzErrorBody: no error body makes the reader panic.
func FuzzErrorBody(f *testing.F) {
	f.Add([]byte(`{"errors":{"error":[{"code":"A","description":"d"}]}}`))
	f.Fuzz(func(t *testing.T, body []byte) { _ = errorMessage(body) })
}

// FuzzPageQuery: no page token makes the cursor reader panic, and a query it makes carries
// nothing but query parameters.
func FuzzPageQuery(f *testing.F) {
	f.Add("?limit=100&hasMoreElements=true&soIndex=5&poIndex=18")
	f.Fuzz(func(t *testing.T, page string) {
		q, err := pageQuery(connectors.OrdersQuery{Page: page})
		if err == nil && (len(q) > 0 && (q[0] == '/' || q[0] == '?')) {
			t.Fatalf("query %q", q)
		}
	})
}
