package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/lenient"
	"github.com/multisell/multisell/pkg/local/connectorsim"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/shipments"
)

func init() { register(40, "orders", seedOrders) }

// orderBatch is how many documents one Import call takes: the importer
// shares channels, warehouses and the sequence counter across a batch.
const orderBatch = 200

// demoBuyers are the recipients of the demo orders.
var demoBuyers = []struct{ name, city, region, postal, country string }{
	{"Ada Lovelace", "Portland", "OR", "97201", "US"},
	{"Grace Hopper", "Arlington", "VA", "22201", "US"},
	{"Alan Turing", "Manchester", "", "M13 9PL", "GB"},
	{"Katherine Johnson", "Hampton", "VA", "23669", "US"},
	{"Linus Torvalds", "Beaverton", "OR", "97005", "US"},
	{"Margaret Hamilton", "Boston", "MA", "02110", "US"},
}

// seedOrders imports s.Orders orders over the last 90 days from the active
// demo channels, for the SKUs that have inventory (plus a few unknown
// channel SKUs that stay unassigned): most paid, some cancelled; then ships
// the older open ones, some in part.
func seedOrders(ctx context.Context, e *Env, s Sizes) error {
	t := e.Deps.Table
	chs, err := channels.Service{Table: t}.List(ctx, e.Account)
	if err != nil {
		return err
	}
	var active []channels.Channel
	for _, c := range chs {
		if c.State == channels.StateActive {
			active = append(active, c)
		}
	}
	skus, err := stockedSKUs(ctx, e)
	if err != nil || len(active) == 0 || s.Orders == 0 {
		return err
	}
	skus = append(skus, "UNLISTED-1", "UNLISTED-2")
	svc := orders.Service{Table: t}
	start := time.Now().Add(-90 * 24 * time.Hour)
	step := 90 * 24 * time.Hour / time.Duration(s.Orders)
	var created []int64
	for done := 0; done < s.Orders; {
		docs := make([]json.RawMessage, 0, orderBatch)
		for ; done < s.Orders && len(docs) < orderBatch; done++ {
			b, err := json.Marshal(e.orderDoc(active[done%len(active)], done, start.Add(time.Duration(done)*step), skus))
			if err != nil {
				return fmt.Errorf("marshal order: %w", err)
			}
			docs = append(docs, b)
		}
		results, err := svc.Import(ctx, e.Account, docs)
		if err != nil {
			return err
		}
		for _, r := range results {
			if r.Result == orders.ResultError {
				return fmt.Errorf("demo order %s: %s", r.DisplayRef, r.Error)
			}
			created = append(created, *r.Seq)
		}
		e.Progress("orders", done, s.Orders)
	}
	toShip := created[:len(created)*6/10]
	ship := shipments.Service{Table: t, Stock: svc}
	refused := false // whether the shipment the sim refuses is made
	for i, seq := range toShip {
		shipped, err := e.shipDemo(ctx, ship, seq, !refused)
		refused = refused || shipped
		if err != nil {
			return err
		}
		e.Progress("shipments", i+1, len(toShip))
	}
	return nil
}

// orderDoc is the import document of demo order n.
func (e *Env) orderDoc(ch channels.Channel, n int, at time.Time, skus []string) map[string]any {
	b := demoBuyers[e.Rand.IntN(len(demoBuyers))]
	var items []map[string]any
	for i := range 1 + e.Rand.IntN(3) {
		price := float64(5+e.Rand.IntN(95)) - 0.01
		q := 1 + e.Rand.IntN(2)
		items = append(items, map[string]any{
			"order_item_ref": fmt.Sprintf("%d-%d", n+1, i+1), "sku": skus[e.Rand.IntN(len(skus))],
			"quantity": q, "unit_price": price, "price": price, "total": price * float64(q),
			"title": "Demo item", "status": "Unshipped",
		})
	}
	doc := map[string]any{
		"channel_uuid": ch.UUID, "display_ref": fmt.Sprintf("%s-%s-%05d", ch.ChannelTypeDisplayName, e.Run, n+1),
		"ordered_at": isotime.Format(at), "items": items,
		"shipping_contact_name": b.name, "shipping_address_1": fmt.Sprintf("%d Main St", 1+e.Rand.IntN(999)),
		"shipping_city": b.city, "shipping_state_region": b.region, "shipping_postal_code": b.postal,
		"shipping_country_code": b.country, "billing_contact_name": b.name, "billing_country_code": b.country,
		"requested_shipping_service": "Standard", "shipping_cost": 4.99,
	}
	switch r := e.Rand.IntN(100); {
	case r < 5:
		doc["cancelled_at"] = isotime.Format(at.Add(2 * time.Hour))
	case r < 90:
		doc["paid_at"] = isotime.Format(at.Add(10 * time.Minute))
	}
	return doc
}

// shipDemo ships a demo order: every allocated unit, or one line only for
// every third order (a partial shipment). The first shipment's tracking
// number is one the connector sim's channels refuse, so the demo has a
// shipment that failed and is being retried.
func (e *Env) shipDemo(ctx context.Context, ship shipments.Service, seq int64, first bool) (bool, error) {
	o, err := orders.Service{Table: e.Deps.Table}.Get(ctx, e.Account, seq)
	if err != nil || o.Status != orders.StatusOpen {
		return false, err
	}
	var items []map[string]any
	for i, it := range o.Items {
		if n := it.Allocated(); n > 0 && (seq%3 != 0 || i == 0) {
			items = append(items, map[string]any{"sku": it.SKU, "quantity": n})
		}
	}
	if len(items) == 0 {
		return false, nil
	}
	carriers := []string{"USPS", "UPS", "FedEx", "DHL"}
	b, err := json.Marshal(map[string]any{"shipment": map[string]any{
		"sb_order_seq": seq, "carrier_name": carriers[e.Rand.IntN(len(carriers))],
		"tracking_number": trackingNumber(seq, first), "items": items,
	}})
	if err != nil {
		return false, fmt.Errorf("marshal shipment: %w", err)
	}
	body, err := lenient.DecodeObject(string(b))
	if err != nil {
		return false, fmt.Errorf("demo shipment %d: %w", seq, err)
	}
	req, err := shipments.ParseShipment(body)
	if err != nil {
		return false, fmt.Errorf("demo shipment %d: %w", seq, err)
	}
	if err := ship.Create(ctx, e.Account, req); err != nil {
		return false, fmt.Errorf("ship demo order %d: %w", seq, err)
	}
	return true, nil
}

// trackingNumber is a demo tracking number; the first is one the connector
// sim refuses.
func trackingNumber(seq int64, first bool) string {
	if first {
		return fmt.Sprintf("%s-%06d", connectorsim.RejectedTrackingPrefix, seq)
	}
	return fmt.Sprintf("1Z%010d", seq)
}

// stockedSKUs returns the SKUs the account has inventory of, in order.
func stockedSKUs(ctx context.Context, e *Env) ([]string, error) {
	records, err := inventory.Service{Table: e.Deps.Table}.All(ctx, e.Account)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for _, r := range records {
		if !seen[r.SKU] {
			seen[r.SKU] = true
			out = append(out, r.SKU)
		}
	}
	return out, nil
}
