package orders_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/multisell/multisell/pkg/orders"
)

// TestImportIdempotent: re-importing updates what changed, never
// duplicates, and keeps sku, quantity and ordered_at.
func TestImportIdempotent(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	doc := f.doc("R-1", "2024-01-02T03:04:05-05:00", line("1", "S", 2))
	doc["merchant_notes"] = "first"
	doc["shipping_city"] = "Oakland"
	doc["billing_company"] = "ACME"
	doc["sb_order_seq"] = 777
	doc["sb_status"] = "completed"
	res := f.importDocs(doc, doc)
	if res[0].Result != orders.ResultCreated || res[1].Result != orders.ResultUnchanged || *res[0].Seq != *res[1].Seq {
		t.Fatalf("results = %+v %+v", res[0], res[1])
	}
	seq := *res[0].Seq
	o := f.order(seq)
	if o.OrderedAt != "2024-01-02T08:04:05Z" || *o.MerchantNotes != "first" || *o.BillingCompanyName != "ACME" ||
		o.Status != orders.StatusOpen || o.Seq != 1 || o.ChannelName != "Amazon US" || o.ChannelTypeDisplayName != "Amazon" ||
		o.Items[0].InventorySKU != nil || o.ShippingAddress2 != nil {
		t.Errorf("order = %+v", o)
	}
	doc2 := f.doc("R-1", "2030-01-01", line("1", "OTHER", 9))
	doc2["merchant_notes"] = "second"
	doc2["paid_at"] = "2024-01-03"
	doc2["shipping_city"] = nil
	if res := f.importDocs(doc2); res[0].Result != orders.ResultUpdated {
		t.Fatalf("re-import = %+v", res[0])
	}
	o = f.order(seq)
	if *o.MerchantNotes != "second" || o.PaymentStatus != orders.All || o.ShippingCity != nil ||
		o.OrderedAt != "2024-01-02T08:04:05Z" || o.Items[0].SKU != "S" || o.Items[0].Quantity != 2 {
		t.Errorf("after re-import = %+v", o)
	}
	if all := f.list("/orders"); len(all) != 1 {
		t.Errorf("%d orders, want 1", len(all))
	}
	second := f.importOne(f.doc("R-2", "2024-01-01", line("1", "S", 1)))
	if second != seq+1 {
		t.Errorf("second seq = %d, want %d", second, seq+1)
	}
}

// TestImportRejectsInvalidDocuments: each invalid document gets its own
// error, the valid ones in the same batch import, and nothing is stored
// for the invalid ones.
func TestImportRejectsInvalidDocuments(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	other := f.doc("X", "2024-01-01", line("1", "S", 1))
	other["channel_uuid"] = "0190b5a4-0000-7000-8000-000000000000"
	bad := []struct {
		doc any
		msg string
	}{
		{map[string]any{"display_ref": "A", "ordered_at": "2024-01-01", "items": []any{line("1", "S", 1)}}, "channel_uuid is required"},
		{other, "channel_uuid is not a channel"},
		{f.doc("", "2024-01-01", line("1", "S", 1)), "display_ref is required"},
		{f.doc("A", "yesterday", line("1", "S", 1)), "ordered_at"},
		{f.doc("A", "2024-01-01"), "items"},
		{f.doc("A", "2024-01-01", line("1", "S", 0)), "items[0].quantity"},
		{f.doc("A", "2024-01-01", line("1", "S", -1)), "items[0].quantity"},
		{f.doc("A", "2024-01-01", line("1", "", 1)), "items[0].sku"},
		{f.doc("A", "2024-01-01", line("1", "S\x00", 1)), "items[0].sku"},
		{f.doc("A", "2024-01-01", line("1", strings.Repeat("s", 256), 1)), "items[0].sku"},
		{f.doc("A", "2024-01-01", line("1", "S", 1), line("1", "T", 1)), "appears twice"},
		{f.doc("A", "2024-01-01", map[string]any{"sku": "S", "quantity": 1}), "order_item_ref is required"},
		{map[string]any{"channel_uuid": f.ch, "display_ref": "A", "ordered_at": "2024-01-01", "items": "S"}, "items must be an array"},
		{map[string]any{"channel_uuid": f.ch, "display_ref": "A", "ordered_at": "2024-01-01", "items": []any{line("1", "S", 1)}, "total": "lots"}, "total must be a number"},
		{map[string]any{"channel_uuid": f.ch, "display_ref": "A", "ordered_at": "2024-01-01", "items": []any{line("1", "S", 1)}, "payment_status": "maybe"}, "payment_status"},
		{map[string]any{"channel_uuid": f.ch, "display_ref": []int{1}, "ordered_at": "2024-01-01", "items": []any{line("1", "S", 1)}}, "display_ref"},
		{"not an object", "JSON object"},
		{[]any{1}, "JSON object"},
	}
	docs := []any{f.doc("GOOD-1", "2024-01-01", line("1", "A/B C+#?", 1))}
	for _, b := range bad {
		docs = append(docs, b.doc)
	}
	docs = append(docs, f.doc("GOOD-2", "2024-01-01", line("1", "Ünïcødé", 1)))
	res := f.importDocs(docs...)
	if res[0].Result != orders.ResultCreated || res[len(res)-1].Result != orders.ResultCreated {
		t.Errorf("valid documents: %+v %+v", res[0], res[len(res)-1])
	}
	for i, b := range bad {
		r := res[i+1]
		if r.Result != orders.ResultError || !strings.Contains(r.Error, b.msg) {
			t.Errorf("doc %d: %+v, want error %q", i, r, b.msg)
		}
	}
	if all := f.list("/orders"); len(all) != 2 || all[0].Seq != 1 || all[1].Seq != 2 {
		t.Errorf("orders = %v, want the 2 valid ones numbered 1, 2", seqs(all))
	}
}

// TestCancellationReleases: cancelling an order (or a line) by re-import
// releases its reservations, which go to the oldest waiting order.
func TestCancellationReleases(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := f.warehouse("A")
	f.product("S")
	f.product("T")
	f.stock("S", a, 2)
	f.stock("T", a, 1)
	first := f.importOne(f.doc("1", "2024-01-01", line("1", "S", 2), line("2", "T", 1)))
	waiting := f.importOne(f.doc("2", "2024-01-02", line("1", "S", 1)))
	f.wantStock("S", a, 2, 2)

	partial := f.doc("1", "2024-01-01", line("1", "S", 2), line("2", "T", 1))
	partial["items"].([]map[string]any)[1]["cancelled_at"] = "2024-01-05T00:00:00Z"
	f.importDocs(partial)
	o := f.order(first)
	if o.Status != orders.StatusOpen || o.Items[1].CancelledAt == nil || len(o.Items[1].Warehouses) != 0 {
		t.Errorf("line cancel: %s %+v", o.Status, o.Items[1])
	}
	f.wantStock("T", a, 1, 0)

	whole := f.doc("1", "2024-01-01", line("1", "S", 2), line("2", "T", 1))
	whole["cancelled_at"] = "2024-01-06"
	if res := f.importDocs(whole); res[0].Result != orders.ResultUpdated {
		t.Fatalf("cancel = %+v", res[0])
	}
	o = f.order(first)
	if o.Status != orders.StatusCancelled || o.CancelledAt == nil || *o.CancelledAt != "2024-01-06T00:00:00Z" {
		t.Errorf("cancelled: %s %v", o.Status, o.CancelledAt)
	}
	if w := f.order(waiting); w.Items[0].Warehouses == nil || len(w.Items[0].Warehouses) != 1 {
		t.Errorf("waiting order did not get the released stock: %+v", w.Items[0])
	}
	f.wantStock("S", a, 2, 1)
	// A cancelled order stays cancelled and cannot be shipped.
	delete(whole, "cancelled_at")
	f.importDocs(whole)
	if o := f.order(first); o.Status != orders.StatusCancelled {
		t.Errorf("re-import un-cancelled: %s", o.Status)
	}
	if got := f.list("/orders?sb_status=canceled"); len(got) != 1 || got[0].Seq != first {
		t.Errorf("canceled filter = %v", seqs(got))
	}
}

// TestImportQueue: a connector's message on the order-import queue imports
// its documents; a bad message is dropped without blocking the queue.
func TestImportQueue(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	send := func(body string, attrs bool) {
		in := &sqs.SendMessageInput{QueueUrl: aws.String(f.env.Config.OrderImportQueueURL), MessageBody: aws.String(body),
			MessageGroupId: aws.String(f.acct.ID), MessageDeduplicationId: aws.String(fmt.Sprint(time.Now().UnixNano()))}
		if attrs {
			in.MessageAttributes = map[string]sqstypes.MessageAttributeValue{orders.AccountAttribute: {DataType: aws.String("String"), StringValue: aws.String(f.acct.ID)}}
		}
		if _, err := f.env.Deps.SQS.SendMessage(context.Background(), in); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := json.Marshal([]any{f.doc("Q-1", "2024-01-01", line("1", "S", 1)), f.doc("Q-2", "2024-01-02", line("1", "S", 1))})
	send("not json", true)
	send(string(b), false)
	send(string(b), true)
	single, _ := json.Marshal(f.doc("Q-3", "2024-01-03", line("1", "S", 1)))
	send(string(single), true)
	f.env.Drain(t)
	got := f.list("/orders")
	if len(got) != 3 || got[0].DisplayRef != "Q-1" || got[2].DisplayRef != "Q-3" {
		t.Errorf("queued import = %v", seqs(got))
	}
}

// TestGetOrderNotFound covers GET /orders/{seq} with unknown and odd ids.
func TestGetOrderNotFound(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.importOne(f.doc("R", "2024-01-01", line("1", "S", 1)))
	for _, id := range []string{"2", "0", "-1", "abc", "1.5", "A%2FB%20C%2B%23%3F", "%C3%BC", strings.Repeat("9", 30)} {
		r := f.c.Do("GET", "/orders/"+id, nil)
		if r.Status != http.StatusNotFound || !strings.Contains(r.String(), orders.NotFoundMessage) {
			t.Errorf("GET /orders/%s: %d %s", id, r.Status, r)
		}
	}
}
