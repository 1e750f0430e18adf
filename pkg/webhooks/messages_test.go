package webhooks_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/queue"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/webhooks"
)

// TestDeliveryMessages: the delivery function takes what it cannot read,
// or what names no delivery of the account it says (another account's
// webhook and delivery included), as done: no batch item failure, nothing
// sent, nothing changed.
func TestDeliveryMessages(t *testing.T) {
	t.Parallel()
	h := newHooked(t, "*")
	r := h.C.Do("POST", "/webhooks/"+h.hook.ID+"/ping", nil)
	var ping struct{ Delivery webhooks.Delivery }
	r.JSON(t, &ping)
	testenv.WaitFor(t, func() bool { return len(h.rcv.all()) == 1 }, "the ping")
	h.Env.Drain(t)
	before := h.deliveries(h.hook.ID, "")
	other := h.Env.NewAccount(t, testenv.AccountOptions{})

	encode := func(m webhooks.Message) string {
		body, err := queue.Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		return body
	}
	cases := []struct{ name, body string }{
		{"empty", ""},
		{"not the codec", `{"account_id":"x"}`},
		{"garbage base64", "H4sI!!!"},
		{"no ids", encode(webhooks.Message{})},
		{"no delivery", encode(webhooks.Message{Account: h.Acct.ID, Webhook: h.hook.ID})},
		{"unknown delivery", encode(webhooks.Message{Account: h.Acct.ID, Webhook: h.hook.ID, Delivery: "dlv_0000000000009999"})},
		{"unknown webhook", encode(webhooks.Message{Account: h.Acct.ID, Webhook: "01a20000-0000-7000-8000-000000000000", Delivery: ping.Delivery.ID})},
		{"another account", encode(webhooks.Message{Account: other.ID, Webhook: h.hook.ID, Delivery: ping.Delivery.ID})},
		{"odd ids", encode(webhooks.Message{Account: h.Acct.ID + "\x1f", Webhook: "../" + h.hook.ID, Delivery: "dlv_\u00e9"})},
	}
	handler, err := h.Env.Handler("webhook-delivery")
	if err != nil {
		t.Fatal(err)
	}
	consume := handler.(app.SQSHandler)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := consume(context.Background(), events.SQSEvent{Records: []events.SQSMessage{{MessageId: "m-" + tc.name, Body: tc.body}}})
			if got := len(resp.BatchItemFailures); err != nil || got != 0 {
				t.Errorf("failures %d, error %v; want the message taken as done", got, err)
			}
		})
	}
	h.Env.Drain(t)
	if got := len(h.rcv.all()); got != 1 {
		t.Errorf("the receiver got %d requests, want only the ping", got)
	}
	if after := h.deliveries(h.hook.ID, ""); !reflect.DeepEqual(after, before) {
		t.Errorf("deliveries changed:\nbefore %+v\nafter  %+v", before, after)
	}
}
