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
	"github.com/multisell/multisell/pkg/queue"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// TestImportIdempotent: re-importing updates what changed, never
// duplicates, and keeps sku, quantity and ordered_at.
func TestImportIdempotent(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	doc := f.Doc("R-1", "2024-01-02T03:04:05-05:00", orderstest.Line("1", "S", 2))
	doc["merchant_notes"] = "first"
	doc["shipping_city"] = "Oakland"
	doc["billing_company"] = "ACME"
	doc["sb_order_seq"] = 777
	doc["sb_status"] = "completed"
	res := f.ImportDocs(doc, doc)
	if res[0].Result != orders.ResultCreated || res[1].Result != orders.ResultUnchanged || *res[0].Seq != *res[1].Seq {
		t.Fatalf("results = %+v %+v", res[0], res[1])
	}
	seq := *res[0].Seq
	o := f.Order(seq)
	if o.OrderedAt != "2024-01-02T08:04:05Z" || *o.MerchantNotes != "first" || *o.BillingCompanyName != "ACME" ||
		o.Status != orders.StatusOpen || o.Seq != 1 || o.ChannelName != "Amazon US" || o.ChannelTypeDisplayName != "Amazon" ||
		o.Items[0].InventorySKU != nil || o.ShippingAddress2 != nil {
		t.Errorf("order = %+v", o)
	}
	doc2 := f.Doc("R-1", "2030-01-01", orderstest.Line("1", "OTHER", 9))
	doc2["merchant_notes"] = "second"
	doc2["paid_at"] = "2024-01-03"
	doc2["shipping_city"] = nil
	if res := f.ImportDocs(doc2); res[0].Result != orders.ResultUpdated {
		t.Fatalf("re-import = %+v", res[0])
	}
	o = f.Order(seq)
	if *o.MerchantNotes != "second" || o.PaymentStatus != orders.All || o.ShippingCity != nil ||
		o.OrderedAt != "2024-01-02T08:04:05Z" || o.Items[0].SKU != "S" || o.Items[0].Quantity != 2 {
		t.Errorf("after re-import = %+v", o)
	}
	if all := f.List("/orders"); len(all) != 1 {
		t.Errorf("%d orders, want 1", len(all))
	}
	second := f.ImportOne(f.Doc("R-2", "2024-01-01", orderstest.Line("1", "S", 1)))
	if second != seq+1 {
		t.Errorf("second seq = %d, want %d", second, seq+1)
	}
}

// TestImportRejectsInvalidDocuments: each invalid document gets its own
// error, the valid ones in the same batch import, and nothing is stored
// for the invalid ones.
func TestImportRejectsInvalidDocuments(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	other := f.Doc("X", "2024-01-01", orderstest.Line("1", "S", 1))
	other["channel_uuid"] = "0190b5a4-0000-7000-8000-000000000000"
	bad := []struct {
		doc any
		msg string
	}{
		{map[string]any{"display_ref": "A", "ordered_at": "2024-01-01", "items": []any{orderstest.Line("1", "S", 1)}}, "channel_uuid is required"},
		{other, "channel_uuid is not a channel"},
		{f.Doc("", "2024-01-01", orderstest.Line("1", "S", 1)), "display_ref is required"},
		{f.Doc("A", "yesterday", orderstest.Line("1", "S", 1)), "ordered_at"},
		{f.Doc("A", "2024-01-01"), "items"},
		{f.Doc("A", "2024-01-01", orderstest.Line("1", "S", 0)), "items[0].quantity"},
		{f.Doc("A", "2024-01-01", orderstest.Line("1", "S", -1)), "items[0].quantity"},
		{f.Doc("A", "2024-01-01", orderstest.Line("1", "", 1)), "items[0].sku"},
		{f.Doc("A", "2024-01-01", orderstest.Line("1", "S\x00", 1)), "items[0].sku"},
		{f.Doc("A", "2024-01-01", orderstest.Line("1", strings.Repeat("s", 256), 1)), "items[0].sku"},
		{f.Doc("A", "2024-01-01", orderstest.Line("1", "S", 1), orderstest.Line("1", "T", 1)), "appears twice"},
		{f.Doc("A", "2024-01-01", map[string]any{"sku": "S", "quantity": 1}), "order_item_ref is required"},
		{map[string]any{"channel_uuid": f.Channel, "display_ref": "A", "ordered_at": "2024-01-01", "items": "S"}, "items must be an array"},
		{map[string]any{"channel_uuid": f.Channel, "display_ref": "A", "ordered_at": "2024-01-01", "items": []any{orderstest.Line("1", "S", 1)}, "total": "lots"}, "total must be a number"},
		{map[string]any{"channel_uuid": f.Channel, "display_ref": "A", "ordered_at": "2024-01-01", "items": []any{orderstest.Line("1", "S", 1)}, "payment_status": "maybe"}, "payment_status"},
		{map[string]any{"channel_uuid": f.Channel, "display_ref": []int{1}, "ordered_at": "2024-01-01", "items": []any{orderstest.Line("1", "S", 1)}}, "display_ref"},
		{map[string]any{"channel_uuid": f.Channel, "display_ref": "A", "ordered_at": "2024-01-01", "items": []any{orderstest.Line("1", "S", 1)}, "merchant_notes": "a\x1bb"}, "merchant_notes must not contain control characters"},
		{json.RawMessage(`{"channel_uuid":"` + f.Channel + `","display_ref":"A","display_ref":"B","ordered_at":"2024-01-01","items":[{"order_item_ref":"1","sku":"S","quantity":1}]}`), "display_ref is a duplicate key"},
		{json.RawMessage(`{"channel_uuid":"` + f.Channel + `","display_ref":"A","ordered_at":"2024-01-01","items":[{"order_item_ref":"1","sku":"S","quantity":1,"sku":"T"}]}`), "items[0].sku is a duplicate key"},
		{"not an object", "JSON object"},
		{[]any{1}, "JSON object"},
	}
	docs := []any{f.Doc("GOOD-1", "2024-01-01", orderstest.Line("1", "A/B C+#?", 1))}
	for _, b := range bad {
		docs = append(docs, b.doc)
	}
	docs = append(docs, f.Doc("GOOD-2", "2024-01-01", orderstest.Line("1", "Ünïcødé", 1)))
	res := f.ImportDocs(docs...)
	if res[0].Result != orders.ResultCreated || res[len(res)-1].Result != orders.ResultCreated {
		t.Errorf("valid documents: %+v %+v", res[0], res[len(res)-1])
	}
	for i, b := range bad {
		r := res[i+1]
		if r.Result != orders.ResultError || !strings.Contains(r.Error, b.msg) {
			t.Errorf("doc %d: %+v, want error %q", i, r, b.msg)
		}
	}
	if all := f.List("/orders"); len(all) != 2 || all[0].Seq != 1 || all[1].Seq != 2 {
		t.Errorf("orders = %v, want the 2 valid ones numbered 1, 2", orderstest.Seqs(all))
	}
}

// TestCancellationReleases: cancelling an order (or a line) by re-import
// releases its reservations, which go to the oldest waiting order.
func TestCancellationReleases(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	a := f.Warehouse("A")
	f.Product("S")
	f.Product("T")
	f.Stock("S", a, 2)
	f.Stock("T", a, 1)
	first := f.ImportOne(f.Doc("1", "2024-01-01", orderstest.Line("1", "S", 2), orderstest.Line("2", "T", 1)))
	waiting := f.ImportOne(f.Doc("2", "2024-01-02", orderstest.Line("1", "S", 1)))
	f.WantStock("S", a, 2, 2)

	partial := f.Doc("1", "2024-01-01", orderstest.Line("1", "S", 2), orderstest.Line("2", "T", 1))
	partial["items"].([]map[string]any)[1]["cancelled_at"] = "2024-01-05T00:00:00Z"
	f.ImportDocs(partial)
	o := f.Order(first)
	if o.Status != orders.StatusOpen || o.Items[1].CancelledAt == nil || len(o.Items[1].Warehouses) != 0 {
		t.Errorf("line cancel: %s %+v", o.Status, o.Items[1])
	}
	f.WantStock("T", a, 1, 0)

	whole := f.Doc("1", "2024-01-01", orderstest.Line("1", "S", 2), orderstest.Line("2", "T", 1))
	whole["cancelled_at"] = "2024-01-06"
	if res := f.ImportDocs(whole); res[0].Result != orders.ResultUpdated {
		t.Fatalf("cancel = %+v", res[0])
	}
	o = f.Order(first)
	if o.Status != orders.StatusCancelled || o.CancelledAt == nil || *o.CancelledAt != "2024-01-06T00:00:00Z" {
		t.Errorf("cancelled: %s %v", o.Status, o.CancelledAt)
	}
	if w := f.Order(waiting); w.Items[0].Warehouses == nil || len(w.Items[0].Warehouses) != 1 {
		t.Errorf("waiting order did not get the released stock: %+v", w.Items[0])
	}
	f.WantStock("S", a, 2, 1)
	// A cancelled order stays cancelled and cannot be shipped.
	delete(whole, "cancelled_at")
	f.ImportDocs(whole)
	if o := f.Order(first); o.Status != orders.StatusCancelled {
		t.Errorf("re-import un-cancelled: %s", o.Status)
	}
	if got := f.List("/orders?sb_status=canceled"); len(got) != 1 || got[0].Seq != first {
		t.Errorf("canceled filter = %v", orderstest.Seqs(got))
	}
}

// TestImportQueue: a connector's message on the channel inbox imports
// its documents; a bad message is set aside without blocking the queue.
func TestImportQueue(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	send := func(body string, attrs bool) {
		in := &sqs.SendMessageInput{QueueUrl: aws.String(f.Env.Config.ChannelInboxQueueURL), MessageBody: aws.String(body),
			MessageGroupId: aws.String(f.Acct.ID), MessageDeduplicationId: aws.String(fmt.Sprint(time.Now().UnixNano()))}
		if attrs {
			in.MessageAttributes = map[string]sqstypes.MessageAttributeValue{queue.AccountAttribute: {DataType: aws.String("String"), StringValue: aws.String(f.Acct.ID)}}
		}
		if _, err := f.Env.Deps.SQS.SendMessage(context.Background(), in); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := json.Marshal([]any{f.Doc("Q-1", "2024-01-01", orderstest.Line("1", "S", 1)), f.Doc("Q-2", "2024-01-02", orderstest.Line("1", "S", 1))})
	send("not json", true)
	send(string(b), false)
	send(string(b), true)
	single, _ := json.Marshal(f.Doc("Q-3", "2024-01-03", orderstest.Line("1", "S", 1)))
	send(string(single), true)
	f.Env.Drain(t)
	got := f.List("/orders")
	if len(got) != 3 || got[0].DisplayRef != "Q-1" || got[2].DisplayRef != "Q-3" {
		t.Errorf("queued import = %v", orderstest.Seqs(got))
	}
}

// TestGetOrderNotFound covers GET /orders/{seq} with unknown and odd ids.
func TestGetOrderNotFound(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	f.ImportOne(f.Doc("R", "2024-01-01", orderstest.Line("1", "S", 1)))
	for _, id := range []string{"2", "0", "-1", "abc", "1.5", "A%2FB%20C%2B%23%3F", "%C3%BC", strings.Repeat("9", 30)} {
		r := f.C.Do("GET", "/orders/"+id, nil)
		if r.Status != http.StatusNotFound || !strings.Contains(r.String(), orders.NotFoundMessage) {
			t.Errorf("GET /orders/%s: %d %s", id, r.Status, r)
		}
	}
}

// TestImportLongRefs: a display ref and a channel SKU of 255 four-byte
// characters (1,020 bytes, too long for a sort key as they are) import,
// link, and re-import as the same order.
func TestImportLongRefs(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	a := f.Warehouse("A")
	f.Product("P")
	f.Stock("P", a, 5)
	ref, sku := strings.Repeat("😀", 255), strings.Repeat("𝄞", 255)
	f.Link(sku, "P")
	doc := f.Doc(ref, "2024-01-01", orderstest.Line("1", sku, 2))
	res := f.ImportDocs(doc, doc)
	if res[0].Result != orders.ResultCreated || res[1].Result != orders.ResultUnchanged {
		t.Fatalf("results %+v", res)
	}
	o := f.Order(*res[0].Seq)
	if o.DisplayRef != ref || o.Items[0].SKU != sku || o.Items[0].InventorySKU == nil || *o.Items[0].InventorySKU != "P" {
		t.Errorf("order %+v", o)
	}
	f.WantAt(o.Seq, map[string]int{a: 2})
}
