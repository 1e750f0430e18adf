package inbox_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/testenv"
)

var registerGeneric sync.Once

// TestRefusalVisible: an order document the inbox refuses shows on its
// channel's connection (last_error, last_error_at) and as an
// order.import_failed event with the order's reference and the reason, not
// only in the dead-letter queue.
func TestRefusalVisible(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	registerGeneric.Do(func() { connectors.Register(sandbox.GenericConnector) })
	sb, err := sandbox.NewGeneric()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	sb.AddSeller("client-refusal", "secret-refusal", "refresh-refusal")
	acct := env.NewAccount(t, testenv.AccountOptions{})
	c := env.Client(t, acct)
	r := c.Do(http.MethodPost, "/channels", map[string]any{"channel": map[string]any{"name": "Shop", "type": "generic",
		"credentials": map[string]any{"client_id": "client-refusal", "client_secret": "secret-refusal", "refresh_token": "refresh-refusal"},
		"endpoints":   map[string]any{"api": sb.URL, "auth": sb.URL + "/oauth/token"}}})
	if r.Status != http.StatusCreated {
		t.Fatalf("connect: %d %s", r.Status, r)
	}
	var created struct {
		Channel channels.Channel `json:"channel"`
	}
	r.JSON(t, &created)
	ref := fmt.Sprint("REFUSED-", time.Now().UnixNano())
	send(t, env, acct.ID, `[{"channel_uuid":"`+created.Channel.UUID+`","display_ref":"`+ref+`","ordered_at":"2024-01-01","items":[{"order_item_ref":"1","sku":"S","quantity":0}]}]`)
	env.Drain(t)
	const reason = "items[0].quantity must be an integer from 1 to 1000000"
	var list []channels.Channel
	c.Do(http.MethodGet, "/channels", nil).JSON(t, &list)
	if len(list) != 1 {
		t.Fatalf("%d channels, want 1", len(list))
	}
	conn := list[0].Connection
	if conn.LastError == nil || !strings.Contains(*conn.LastError, ref) || !strings.Contains(*conn.LastError, reason) || conn.LastErrorAt == nil {
		t.Errorf("connection %+v, want last_error naming %s and %q", conn, ref, reason)
	}
	var ev events.Event
	testenv.WaitFor(t, func() bool {
		var p events.Page
		c.Do(http.MethodGet, "/events?type=order.import_failed", nil).JSON(t, &p)
		for _, e := range p.Events {
			if bytes.Contains(e.Data, []byte(ref)) {
				ev = e
				return true
			}
		}
		return false
	}, "order.import_failed of "+ref)
	if !bytes.Contains(ev.Data, []byte(reason)) || !bytes.Contains(ev.Data, []byte(created.Channel.UUID)) {
		t.Errorf("event data %s, want the channel, %s and %q", ev.Data, ref, reason)
	}
	rejected(t, env, []string{ref})
}
