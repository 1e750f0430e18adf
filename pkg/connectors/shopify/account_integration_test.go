package shopify_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	sbx "github.com/multisell/multisell/pkg/local/sandbox/shopify"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// TestOneShopOneChannel: connecting the same Shopify shop twice on one account is a 409
// naming the first channel (whatever the case of its domain), and a second account
// connecting the shop imports the shop's order into its own channel only.
func TestOneShopOneChannel(t *testing.T) {
	t.Parallel()
	first, second := orderstest.New(t), orderstest.New(t)
	sb, err := sbx.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	token := "shpat_" + store.NewID()
	location := sb.AddShop(token, "twice.myshopify.com")
	sb.AddVariant(token, "SHOP-1", 5)
	body := func(domain string) map[string]any {
		return map[string]any{"channel": map[string]any{"name": "Shop " + domain, "type": "Shopify",
			"credentials": map[string]any{"shop_domain": domain, "access_token": token, "location_id": location},
			"endpoints":   map[string]any{"api": sb.URL}}}
	}
	mine := first.C.ConnectChannel(body("twice.myshopify.com")).UUID
	r := first.C.Do(http.MethodPost, "/channels", body("TWICE.myshopify.com"))
	if got, want := r.Status, http.StatusConflict; got != want || !strings.Contains(r.String(), mine) {
		t.Errorf("the same shop again: %d %s, want %d naming %s", got, r, want, mine)
	}
	theirs := second.C.ConnectChannel(body("twice.myshopify.com")).UUID

	sb.PutOrder(token, time.Now(), sbx.LineInput{SKU: "SHOP-1", Quantity: 1, Price: "9.50"})
	connectorstest.WantOwnOrder(t, connectorstest.Connected{F: first, Channel: mine}, connectorstest.Connected{F: second, Channel: theirs})
}
