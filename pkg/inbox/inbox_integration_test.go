package inbox_test

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

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// send puts a message on the channel inbox as a connector would; account ""
// sends it without the account attribute.
func send(t *testing.T, env *testenv.Env, account, body string) {
	t.Helper()
	env.SendInbox(t, account, body)
}

// rejected reads the inbox's dead-letter queue until it holds a message
// whose body contains each marker, and returns the reason of each. It
// deletes what it matched: a FIFO queue hands out the next message of a
// group only once the one before is deleted.
func rejected(t *testing.T, env *testenv.Env, markers []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	deadline := time.Now().Add(30 * time.Second)
	for len(out) < len(markers) && time.Now().Before(deadline) {
		res, err := env.Deps.SQS.ReceiveMessage(context.Background(), &sqs.ReceiveMessageInput{
			QueueUrl: aws.String(env.Config.ChannelInboxDLQURL), MaxNumberOfMessages: 10, WaitTimeSeconds: 1,
			VisibilityTimeout: 1, MessageAttributeNames: []string{"All"},
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range res.Messages {
			for _, mk := range markers {
				if !strings.Contains(aws.ToString(m.Body), mk) {
					continue
				}
				if r, ok := m.MessageAttributes["reason"]; ok {
					out[mk] = aws.ToString(r.StringValue)
				}
				if _, err := env.Deps.SQS.DeleteMessage(context.Background(), &sqs.DeleteMessageInput{
					QueueUrl: aws.String(env.Config.ChannelInboxDLQURL), ReceiptHandle: m.ReceiptHandle}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return out
}

// TestRejections: messages that can never apply are set aside with their
// reason, and the messages behind them in the same group still apply.
func TestRejections(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	other := env.NewAccount(t, testenv.AccountOptions{})
	ctx := context.Background()
	ch, err := env.Deps.Channels().Create(ctx, acct.ID, channels.Input{Name: "Shop", Type: "Shopify"})
	if err != nil {
		t.Fatal(err)
	}
	run := fmt.Sprint(time.Now().UnixNano())
	cases := []struct {
		name, account, body, reason string
	}{
		{"no account", "", `{"type":"listing","marker":"m1-` + run + `"}`, "account_id"},
		{"not JSON", acct.ID, `{"type":"listing" m2-` + run, "JSON"},
		{"unknown type", acct.ID, `{"type":"listing.delete","marker":"m3-` + run + `"}`, "unknown message type"},
		{"control character in the channel SKU", acct.ID, `{"type":"listing","channel_uuid":"` + ch.UUID + `","channel_sku":"A\u0001","marker":"m4-` + run + `"}`, "channel_sku"},
		{"over-long channel SKU", acct.ID, `{"type":"listing","channel_uuid":"` + ch.UUID + `","channel_sku":"` + strings.Repeat("x", 300) + `","marker":"m5-` + run + `"}`, "channel_sku"},
		{"result for an unknown listing", acct.ID, `{"type":"listing.result","channel_uuid":"` + ch.UUID + `","channel_sku":"NOPE","version":1,"ok":true,"marker":"m6-` + run + `"}`, "Listing not found"},
		{"result without ok", acct.ID, `{"type":"listing.result","channel_uuid":"` + ch.UUID + `","channel_sku":"A","version":1,"marker":"m7-` + run + `"}`, "ok"},
		{"listing of another account's channel", other.ID, `{"type":"listing","channel_uuid":"` + ch.UUID + `","channel_sku":"A","marker":"m8-` + run + `"}`, "Channel not found"},
		{"invalid order document", acct.ID, `{"channel_uuid":"` + ch.UUID + `","display_ref":"m9-` + run + `","items":[]}`, "ordered_at"},
		{"result for an unknown shipment", acct.ID, `{"type":"shipment.result","channel_uuid":"` + ch.UUID + `","shipment_id":"01a20a0b-0000-7000-8000-000000000001","ok":true,"marker":"m10-` + run + `"}`, "Shipment not found"},
		{"shipment result without a shipment id", acct.ID, `{"type":"shipment.result","channel_uuid":"` + ch.UUID + `","ok":true,"marker":"m11-` + run + `"}`, "shipment_id"},
		{"retry of an unknown shipment", other.ID, `{"type":"shipment.retry","shipment_id":"01a20a0b-0000-7000-8000-000000000002","attempt":1,"marker":"m12-` + run + `"}`, "Shipment not found"},
		{"duplicate key", acct.ID, `{"type":"listing","channel_uuid":"` + ch.UUID + `","channel_sku":"GOOD","channel_sku":"DUP","marker":"m13-` + run + `"}`, "channel_sku is a duplicate key"},
		{"order document with a duplicate key", acct.ID, `[{"channel_uuid":"` + ch.UUID + `","display_ref":"m14-` + run + `","ordered_at":"2024-01-01","items":[{"order_item_ref":"1","sku":"S","quantity":1,"quantity":2}]}]`, "items[0].quantity is a duplicate key"},
		{"order document with a control character", acct.ID, `{"channel_uuid":"` + ch.UUID + `","display_ref":"m15-` + run + `","ordered_at":"2024-01-01","items":[{"order_item_ref":"1","sku":"S","quantity":1,"title":"a\u0000"}]}`, "items[0].title must not contain control characters"},
		// An order document is wire.OrderDocument: a key it lacks is a mistake, refused (docs/orders.md).
		{"order document with an unknown key", acct.ID, `{"channel_uuid":"` + ch.UUID + `","display_ref":"m16-` + run + `","ordered_at":"2024-01-01","shipping_adress_1":"1 Main St","items":[{"order_item_ref":"1","sku":"S","quantity":1}]}`, "shipping_adress_1 is not a field of an import document"},
		{"order line with an unknown key", acct.ID, `[{"channel_uuid":"` + ch.UUID + `","display_ref":"m17-` + run + `","ordered_at":"2024-01-01","sb_status":"open","items":[{"order_item_ref":"1","sku":"S","quantity":1,"inventory_sku":"S","unit_cost":2}]}]`, "items[0].unit_cost is not a field of an import document"},
	}
	var markers []string
	for i, tc := range cases {
		send(t, env, tc.account, tc.body)
		markers = append(markers, fmt.Sprintf("m%d-%s", i+1, run))
	}
	// A good message behind the bad ones, in the same group.
	send(t, env, acct.ID, `{"type":"listing","channel_uuid":"`+ch.UUID+`","channel_sku":"GOOD","listing_ref":"R1","channel_quantity":3}`)
	env.Drain(t)
	reasons := rejected(t, env, markers)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := reasons[markers[i]]
			if !ok || !strings.Contains(got, tc.reason) {
				t.Errorf("reason %q (found %v), want one naming %q", got, ok, tc.reason)
			}
		})
	}
	var ls []listings.Listing
	env.Client(t, acct).Do(http.MethodGet, "/listings", nil).JSON(t, &ls)
	if len(ls) != 1 || ls[0].ChannelSKU != "GOOD" || ls[0].ListingRef == nil || *ls[0].ListingRef != "R1" ||
		ls[0].ChannelQuantity == nil || *ls[0].ChannelQuantity != 3 || ls[0].SyncStatus != listings.StatusUnlinked {
		b, _ := json.Marshal(ls)
		t.Errorf("listings after the messages: %s, want only GOOD, unlinked, channel_quantity 3", b)
	}
	var otherLs []listings.Listing
	env.Client(t, other).Do(http.MethodGet, "/listings", nil).JSON(t, &otherLs)
	if len(otherLs) != 0 {
		t.Errorf("the other account got listings: %v", otherLs)
	}
}
