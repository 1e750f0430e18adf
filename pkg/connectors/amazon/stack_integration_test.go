package amazon_test

import (
	"context"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/amazon"
	"github.com/multisell/multisell/pkg/listings"
	amazonsb "github.com/multisell/multisell/pkg/local/sandbox/amazon"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// TestAmazonChannelEndToEnd drives an Amazon channel connected through POST /v1/channels
// (the published limits; the sandbox holds them too) through the wired local stack: a
// stock change reaches the sandbox's listing as a patch and the listing ends synced, an FBA
// listing ends off with the reason and Amazon's quantity untouched; a poll
// of the schedule imports the sandbox's Unshipped order (paid, with its ship-to name, street,
// phone and e-mail read with a Restricted Data Token) and its Pending one (unpaid, holding
// its stock); the shipment of the first reaches the sandbox as one confirmation
// with its order item id, quantity and UPS's carrier code.
func TestAmazonChannelEndToEnd(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	sb := stackSandbox(t)
	t.Cleanup(func() { checkModels(t, sb.Requests()) })
	sb.AddSeller(sellerID, marketplace, "client-e2e", "secret-e2e", "Atzr|e2e")
	ch := f.C.ConnectChannel(map[string]any{"channel": map[string]any{"name": "Amazon Sandbox", "type": "amazon",
		"credentials": map[string]string{"refresh_token": "Atzr|e2e", "client_id": "client-e2e", "client_secret": "secret-e2e",
			"seller_id": sellerID, "marketplace_id": marketplace},
		"endpoints": map[string]string{"api": sb.URL, "auth": sb.URL + amazonsb.TokenPath}}}).UUID

	wh := f.Warehouse("A")
	for _, sku := range []string{"AMZ-1", "AMZ-2", "AMZ-FBA"} {
		f.Product(sku)
		f.Stock(sku, wh, 7)
		sb.PutListing(sellerID, amazonsb.Listing{SKU: sku, FBA: sku == "AMZ-FBA", Quantity: 3})
		if r := f.C.Do(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": ch, "channel_sku": sku, "sku": sku}}); r.Status != http.StatusOK {
			t.Fatalf("link: %d %s", r.Status, r)
		}
	}
	listing := func(sku string) listings.Listing {
		var ls []listings.Listing
		f.C.Do(http.MethodGet, "/listings?channel_uuid="+ch, nil).JSON(t, &ls)
		for _, l := range ls {
			if l.ChannelSKU == sku {
				return l
			}
		}
		return listings.Listing{}
	}
	synced := func(sku string, want int64) func() bool {
		return func() bool {
			q, _ := sb.Quantity(sellerID, sku)
			return q == want && listing(sku).SyncStatus == "synced"
		}
	}
	testenv.WaitFor(t, synced("AMZ-1", 7), "the sandbox's AMZ-1 at 7, synced")
	testenv.WaitFor(t, func() bool { return listing("AMZ-FBA").SyncStatus == "off" }, "the FBA listing off")
	if l := listing("AMZ-FBA"); l.SyncError == nil || !strings.Contains(*l.SyncError, "fulfilled by Amazon") {
		t.Errorf("the FBA listing's reason: %v", l.SyncError)
	}
	if q, _ := sb.Quantity(sellerID, "AMZ-FBA"); q != 3 {
		t.Errorf("the FBA listing shows %d at Amazon, want Amazon's own 3", q)
	}
	f.Adjust("AMZ-1", wh, 4)
	testenv.WaitFor(t, synced("AMZ-1", 4), "the sandbox's AMZ-1 at 4, synced")

	now := time.Now()
	sf := &fixture{sb: sb}
	sf.order("116-0000001-0000001", "Unshipped", now.Add(-time.Minute), "AMZ-1")
	sf.order("116-0000002-0000001", "Pending", now.Add(-time.Minute), "AMZ-2")
	scheduleTick(t, f, now)
	testenv.WaitFor(t, func() bool { return len(f.List("/orders")) == 2 }, "both orders imported")
	byRef := map[string]int64{}
	for _, o := range f.List("/orders") {
		byRef[o.DisplayRef] = o.Seq
	}
	paid, pending := f.Order(byRef["116-0000001-0000001"]), f.Order(byRef["116-0000002-0000001"])
	if paid.PaymentStatus != "all" || pending.PaymentStatus != "none" {
		t.Errorf("payment statuses %s and %s, want all and none", paid.PaymentStatus, pending.PaymentStatus)
	}
	f.WantStock("AMZ-2", wh, 7, 1) // the Pending order holds its unit
	// Read with a Restricted Data Token: GET /v1/orders shows the ship-to name, street, phone
	// and the buyer's e-mail.
	if got, want := [4]string{deref(paid.ShippingContactName), deref(paid.ShippingAddress1), deref(paid.ShippingPhoneNumber), deref(paid.ShippingEmail)},
		[4]string{"Jane Buyer", "1 Main St", "+1 206-555-0100", "jane@marketplace.amazon.com"}; got != want {
		t.Errorf("the order's restricted data: %q, want %q", got, want)
	}

	if r := f.Ship(map[string]any{"sb_order_seq": paid.Seq, "carrier_name": "UPS", "tracking_number": "1ZAMZ",
		"warehouse_uuid": wh, "items": []any{map[string]any{"sku": "AMZ-1", "quantity": 1}}}); r.Status != http.StatusOK {
		t.Fatalf("ship: %d %s", r.Status, r)
	}
	testenv.WaitFor(t, func() bool { return len(sb.Confirmations(sellerID, "116-0000001-0000001")) == 1 }, "the confirmation on the sandbox's order")
	p := sb.Confirmations(sellerID, "116-0000001-0000001")[0]
	if p.CarrierCode != "UPS" || p.TrackingNumber != "1ZAMZ" || len(p.OrderItems) != 1 || p.OrderItems[0].OrderItemID != "116-0000001-0000001-1" || p.OrderItems[0].Quantity != 1 {
		t.Errorf("confirmation %+v", p)
	}
	connectorstest.WantUnder(t, sf.sb, slices.Collect(maps.Keys(amazon.Published))...)
}

// deref is *p, "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// stackSandbox registers the Amazon connector and starts an Amazon sandbox for the test.
func stackSandbox(t *testing.T) *amazonsb.Amazon {
	t.Helper()
	connectors.Register(amazon.Default)
	sb, err := amazonsb.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	return sb
}

// scheduleTick runs the wired connector-poll-schedule function of f's stack at now, as
// the schedule does.
func scheduleTick(t *testing.T, f *orderstest.Fixture, now time.Time) {
	t.Helper()
	h, err := f.Env.Handler("connector-poll-schedule")
	if err != nil {
		t.Fatal(err)
	}
	if err := h.(func(context.Context, events.EventBridgeEvent) error)(context.Background(), events.EventBridgeEvent{Time: now}); err != nil {
		t.Fatal(err)
	}
}
