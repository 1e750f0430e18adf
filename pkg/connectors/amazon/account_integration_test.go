package amazon_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	amazonsb "github.com/multisell/multisell/pkg/local/sandbox/amazon"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// TestOneSellerOneChannel: connecting the same Amazon seller twice on one account is a 409
// naming the first channel (whatever the case of its ids), new credentials of another
// seller on that channel are a 422, and a second account connecting the seller imports the
// seller's order into its own channel only.
func TestOneSellerOneChannel(t *testing.T) {
	t.Parallel()
	first := orderstest.New(t)
	second := orderstest.New(t)
	sb := stackSandbox(t)
	sb.AddSeller(sellerID, marketplace, "client-one", "secret-one", "Atzr|one")
	sb.AddSeller("A2OTHERSELLER", marketplace, "client-two", "secret-two", "Atzr|two")
	body := func(seller, client, secret, token string) map[string]any {
		return map[string]any{"channel": map[string]any{"name": "Amazon " + seller, "type": "amazon",
			"credentials": map[string]string{"refresh_token": token, "client_id": client, "client_secret": secret,
				"seller_id": seller, "marketplace_id": marketplace},
			"endpoints": map[string]string{"api": sb.URL, "auth": sb.URL + amazonsb.TokenPath}}}
	}
	mine := first.C.ConnectChannel(body(sellerID, "client-one", "secret-one", "Atzr|one")).UUID

	r := first.C.Do(http.MethodPost, "/channels", body(strings.ToLower(sellerID), "client-one", "secret-one", "Atzr|one"))
	if got, want := r.Status, http.StatusConflict; got != want || !strings.Contains(r.String(), mine) {
		t.Errorf("the same seller again: %d %s, want %d naming %s", got, r, want, mine)
	}
	r = first.C.Do(http.MethodPatch, "/channels/"+mine, map[string]any{"channel": map[string]any{
		"credentials": body("A2OTHERSELLER", "client-two", "secret-two", "Atzr|two")["channel"].(map[string]any)["credentials"]}})
	if got, want := r.Status, http.StatusUnprocessableEntity; got != want {
		t.Errorf("another seller's credentials on the channel: %d %s, want %d", got, r, want)
	}
	theirs := second.C.ConnectChannel(body(sellerID, "client-one", "secret-one", "Atzr|one")).UUID

	sf := &fixture{sb: sb}
	sf.order("116-0000009-0000001", "Unshipped", time.Now().Add(-time.Minute), "AMZ-1")
	// A slot of its own: a schedule run is deduplicated per channel and slot, and another
	// test's run in this slot may have polled these channels before the order existed.
	scheduleTick(t, first, time.Now().Add(-24*time.Hour))
	for _, tc := range []struct {
		name    string
		f       *orderstest.Fixture
		channel string
	}{{"first account", first, mine}, {"second account", second, theirs}} {
		testenv.WaitFor(t, func() bool { return len(tc.f.List("/orders")) == 1 }, tc.name+": the order imported")
		if got := tc.f.List("/orders"); len(got) != 1 || got[0].ChannelUUID != tc.channel {
			t.Errorf("%s: orders %+v, want one of channel %s", tc.name, got, tc.channel)
		}
	}
}
