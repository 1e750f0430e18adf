package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/lenient"
	"github.com/multisell/multisell/pkg/local/connectorsim"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/shipments"
	"github.com/multisell/multisell/pkg/wire"
)

func init() { register(40, "orders", seedOrders) }

// orderBatch is how many documents one Import call takes: the importer
// shares channels, warehouses and the sequence counter across a batch.
const orderBatch = 200

// The item statuses of the demo orders: the channel's word for a line, as
// connectors send it (pkg/orders stores it as sent).
const (
	itemUnshipped = "Unshipped"
	itemPartly    = "PartiallyShipped"
	itemShipped   = "Shipped"
	itemCancelled = "Cancelled"
)

// demoBuyers are the recipients of the demo orders, with the sales tax of
// their address in basis points.
var demoBuyers = []struct {
	name, city, region, postal, country string
	taxBP                               int64
}{
	{"Ada Lovelace", "Portland", "OR", "97201", "US", 0},
	{"Grace Hopper", "Arlington", "VA", "22201", "US", 530},
	{"Alan Turing", "Manchester", "", "M13 9PL", "GB", 2000},
	{"Katherine Johnson", "Hampton", "VA", "23669", "US", 530},
	{"Linus Torvalds", "Beaverton", "OR", "97005", "US", 0},
	{"Margaret Hamilton", "Boston", "MA", "02110", "US", 625},
}

// unlisted are channel SKUs no product has: their lines stay unassigned.
var unlisted = []struct{ sku, title string }{
	{"UNLISTED-1", "Gift Box (seasonal)"},
	{"UNLISTED-2", "Replacement Parts Kit"},
}

// Money of the demo orders, in cents: free shipping from freeShipping on,
// else shippingCost; one order in discountEvery takes discountPct off.
const (
	shippingCost  = 499
	freeShipping  = 5000
	discountEvery = 6
	discountPct   = 10
)

// demoOrder is one order of the demo history: its import document and what
// happens to it afterwards.
type demoOrder struct {
	doc wire.OrderDocument
	at  time.Time
	// past: older than the recent orders, its story is over (shipped or
	// cancelled); split: shipped in two parts (past), or in part (recent).
	past, paid, cancelled, split bool
	seq                          int64
}

// seedOrders writes an order history that reads like a shop's
// (docs/local-stack.md, "The demo data"): s.Orders orders over the last 90
// days from the active channels; the older ones done (paid ones shipped
// a day or so after ordering, lines out of stock cancelled, unpaid ones
// cancelled after three days), the newest tenth open, the oldest of them
// the quick tour's order: paid, one unit of tourSKU in stock, waiting to
// be shipped. Shipments are made at their time in the past; then the
// shipped orders are imported again with their lines' new status, as a
// connector does when the channel reports it.
func seedOrders(ctx context.Context, e *Env, s Sizes) error {
	chs, err := e.Deps.Channels().List(ctx, e.Account)
	if err != nil {
		return err
	}
	var active []channels.Channel
	for _, c := range chs {
		if c.State == channels.StateActive {
			active = append(active, c)
		}
	}
	stocked, err := stockedSKUs(ctx, e)
	if err != nil || len(active) == 0 || s.Orders == 0 {
		return err
	}
	products, err := sellableProducts(ctx, e)
	if err != nil {
		return err
	}
	titles, prices := map[string]string{}, map[string]int64{}
	for _, p := range products {
		titles[p.SKU], prices[p.SKU] = productTitle(p), cents(p.Price)
	}
	var skus []string // the tour's product is the tour's alone: its stock waits for it
	for _, sku := range stocked {
		if sku != tourSKU {
			skus = append(skus, sku)
		}
	}
	for _, u := range unlisted {
		skus = append(skus, u.sku)
		titles[u.sku], prices[u.sku] = u.title, int64(500+100*e.Rand.IntN(20))-1
	}
	now := time.Now().UTC().Truncate(time.Second)
	history := e.history(now, s.Orders, active, skus, titles, prices)
	if err := e.importOrders(ctx, history, "orders"); err != nil {
		return err
	}
	return e.playHistory(ctx, history, now)
}

// history plans n orders from now-90 days to now: the newest tenth (at
// least 3) are recent, the first of them the tour's order; the first
// recent order after it is paid and has two lines or more, so that one is
// partly shipped.
func (e *Env) history(now time.Time, n int, active []channels.Channel, skus []string, titles map[string]string, prices map[string]int64) []*demoOrder {
	start := now.Add(-90 * 24 * time.Hour)
	step := 90 * 24 * time.Hour / time.Duration(n)
	tour := n - min(n, max(3, n/10))
	out := make([]*demoOrder, n)
	for i := range n {
		o := &demoOrder{at: start.Add(time.Duration(i) * step), past: i < tour}
		ch := active[i%len(active)]
		var lines []plannedLine
		switch i {
		case tour:
			ch = active[0]
			lines = []plannedLine{{sku: tourSKU, qty: 1}}
		default:
			lines = e.drawLines(skus, i == tour+1)
		}
		for j := range lines {
			lines[j].title, lines[j].unit = titles[lines[j].sku], prices[lines[j].sku]
		}
		o.doc = e.orderDoc(ch, i, o.at, lines)
		switch r := e.Rand.IntN(100); {
		case i == tour || i == tour+1:
			o.paid = true
		case r < 5: // the buyer cancelled
			o.cancelled = true
			o.doc.CancelledAt = isotime.Format(o.at.Add(2 * time.Hour))
		case r < 90:
			o.paid = true
		case o.past: // never paid: cancelled after three days
			o.cancelled = true
			o.doc.CancelledAt = isotime.Format(o.at.Add(72 * time.Hour))
		}
		if o.paid {
			o.doc.PaidAt = isotime.Format(o.at.Add(time.Duration(5+e.Rand.IntN(55)) * time.Minute))
		}
		if o.cancelled {
			for i := range o.doc.Items {
				o.doc.Items[i].Status = itemCancelled
			}
		}
		o.split = len(lines) > 1 && (o.past && i%3 == 0 || i == tour+1)
		out[i] = o
	}
	return out
}

// plannedLine is an order line to be: a SKU, its title, quantity and price.
type plannedLine struct {
	sku, title string
	qty        int
	unit       int64 // cents
}

// drawLines draws 1 to 3 lines of distinct SKUs (at least 2 with two),
// 1 or 2 units each.
func (e *Env) drawLines(skus []string, two bool) []plannedLine {
	n := 1 + e.Rand.IntN(3)
	if two {
		n = max(n, 2)
	}
	var lines []plannedLine
	seen := map[string]bool{}
	for len(lines) < n && len(seen) < len(skus) {
		sku := skus[e.Rand.IntN(len(skus))]
		if seen[sku] {
			continue
		}
		seen[sku] = true
		lines = append(lines, plannedLine{sku: sku, qty: 1 + e.Rand.IntN(2)})
	}
	return lines
}

// orderDoc is the import document of demo order n: its lines priced with
// their tax, and the order's money consistent with them (subtotal = the
// lines' totals, tax = the lines' taxes, total = subtotal - discount + tax
// + shipping_cost).
func (e *Env) orderDoc(ch channels.Channel, n int, at time.Time, lines []plannedLine) wire.OrderDocument {
	b := demoBuyers[e.Rand.IntN(len(demoBuyers))]
	var subtotal, tax int64
	var items []wire.OrderItem
	for i, l := range lines {
		total := l.unit * int64(l.qty)
		lineTax := roundDiv(total*b.taxBP, 10_000)
		subtotal += total
		tax += lineTax
		items = append(items, wire.OrderItem{
			OrderItemRef: fmt.Sprintf("%d-%d", n+1, i+1), SKU: l.sku, Title: l.title, Quantity: int64(l.qty),
			UnitPrice: wire.Cents(l.unit), Price: wire.Cents(l.unit), Total: wire.Cents(total), Tax: wire.Cents(lineTax),
			Status: itemUnshipped,
		})
	}
	var discount, shipping int64
	if e.Rand.IntN(discountEvery) == 0 {
		discount = roundDiv(subtotal*discountPct, 100)
	}
	if subtotal < freeShipping {
		shipping = shippingCost
	}
	return wire.OrderDocument{
		ChannelUUID: ch.UUID, DisplayRef: fmt.Sprintf("%s-%s-%05d", ch.ChannelTypeDisplayName, e.Run, n+1),
		OrderedAt: isotime.Format(at), Items: items,
		Subtotal: wire.Cents(subtotal), Discount: wire.Cents(discount), Tax: wire.Cents(tax),
		ShippingCost: wire.Cents(shipping), Total: wire.Cents(subtotal - discount + tax + shipping),
		ShippingContactName: b.name, ShippingAddress1: fmt.Sprintf("%d Main St", 1+e.Rand.IntN(999)),
		ShippingCity: b.city, ShippingStateRegion: b.region, ShippingPostalCode: b.postal,
		ShippingCountryCode: b.country, BillingContactName: b.name, BillingCountryCode: b.country,
		RequestedShippingService: "Standard",
	}
}

// importOrders imports the documents of orders in batches (as a connector
// sends them) and notes their seq.
func (e *Env) importOrders(ctx context.Context, list []*demoOrder, step string) error {
	svc := e.Deps.Orders()
	for done := 0; done < len(list); {
		batch := list[done:min(len(list), done+orderBatch)]
		docs := make([]json.RawMessage, 0, len(batch))
		for _, o := range batch {
			b, err := json.Marshal(o.doc)
			if err != nil {
				return fmt.Errorf("marshal order: %w", err)
			}
			docs = append(docs, b)
		}
		results, err := svc.Import(ctx, e.Account, docs)
		if err != nil {
			return err
		}
		for i, r := range results {
			if r.Result == orders.ResultError {
				return fmt.Errorf("demo order %s: %s", r.DisplayRef, r.Error)
			}
			batch[i].seq = *r.Seq
		}
		done += len(batch)
		e.Progress(step, done, len(list))
	}
	return nil
}

// playHistory ships the paid orders whose time has come, each shipment at
// its time: a past order in full a day or so after it was ordered (or in
// two parts, the second two days later), what is not in stock cancelled;
// a recent split order in part. Then the changed orders are imported again
// with their lines' new status.
func (e *Env) playHistory(ctx context.Context, history []*demoOrder, now time.Time) error {
	first := true // the first shipment's tracking is one the connector sim refuses
	var changed []*demoOrder
	for i, o := range history {
		e.Progress("shipments", i+1, len(history))
		if !o.paid || !o.past && !o.split {
			continue
		}
		at := o.at.Add(18*time.Hour + time.Duration(e.Rand.IntN(12*60))*time.Minute)
		if at.After(now) {
			continue
		}
		cur, err := e.Deps.Orders().Get(ctx, e.Account, o.seq)
		if err != nil {
			return err
		}
		parts := shippable(cur)
		if o.split && len(parts) > 1 {
			if err := e.ship(ctx, o.seq, parts[:1], at, &first); err != nil {
				return err
			}
			parts = parts[1:]
			if !o.past {
				changed = append(changed, o)
				continue
			}
			at = at.Add(48 * time.Hour)
		}
		if err := e.ship(ctx, o.seq, parts, at, &first); err != nil {
			return err
		}
		changed = append(changed, o)
		if o.past { // what did not ship was out of stock: cancelled when the rest left
			for i := range o.doc.Items {
				o.doc.Items[i].CancelledAt = isotime.Format(at)
			}
		}
	}
	for _, o := range changed {
		cur, err := e.Deps.Orders().Get(ctx, e.Account, o.seq)
		if err != nil {
			return err
		}
		byRef := map[string]orders.Item{}
		for _, it := range cur.Items {
			byRef[it.OrderItemRef] = it
		}
		for i := range o.doc.Items {
			line := &o.doc.Items[i]
			it := byRef[line.OrderItemRef]
			if it.QuantityFulfilled >= it.Quantity {
				line.CancelledAt = ""
			}
			line.Status = lineStatus(it.Quantity, it.QuantityFulfilled, line.CancelledAt != "")
		}
	}
	return e.importOrders(ctx, changed, "order statuses")
}

// shippable returns the shipment items that can leave now, one per line of
// o that has any: its allocated units, or all of a line no product stocks
// (it moves no stock).
func shippable(o *orders.Order) []map[string]any {
	var out []map[string]any
	for _, it := range o.Items {
		n := it.Allocated()
		if it.InventorySKU == nil && it.CancelledAt == nil {
			n = it.Quantity - it.QuantityFulfilled
		}
		if n > 0 {
			out = append(out, map[string]any{"sku": it.SKU, "quantity": n})
		}
	}
	return out
}

// lineStatus is the channel's status of a line of qty units of which
// shipped have shipped.
func lineStatus(qty, shipped int, cancelled bool) string {
	switch {
	case shipped >= qty:
		return itemShipped
	case shipped > 0:
		return itemPartly
	case cancelled:
		return itemCancelled
	}
	return itemUnshipped
}

// ship makes a shipment of items of order seq at time at, as POST
// /shipments does; *first says whether it is the demo's first, whose
// tracking number the connector sim refuses (so the demo has a shipment
// that failed and is being retried).
func (e *Env) ship(ctx context.Context, seq int64, items []map[string]any, at time.Time, first *bool) error {
	if len(items) == 0 {
		return nil
	}
	carriers := []string{"USPS", "UPS", "FedEx", "DHL"}
	b, err := json.Marshal(map[string]any{"shipment": map[string]any{
		"sb_order_seq": seq, "carrier_name": carriers[e.Rand.IntN(len(carriers))],
		"tracking_number": trackingNumber(seq, *first), "items": items,
	}})
	if err != nil {
		return fmt.Errorf("marshal shipment: %w", err)
	}
	body, err := lenient.DecodeObject(string(b))
	if err != nil {
		return fmt.Errorf("demo shipment %d: %w", seq, err)
	}
	req, err := shipments.ParseShipment(body)
	if err != nil {
		return fmt.Errorf("demo shipment %d: %w", seq, err)
	}
	svc := e.Deps.Shipments()
	svc.Now = func() time.Time { return at }
	if err := svc.Create(ctx, e.Account, req); err != nil {
		return fmt.Errorf("ship demo order %d: %w", seq, err)
	}
	*first = false
	return nil
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
	records, err := e.Deps.Inventory().All(ctx, e.Account)
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

// productTitle is the title a channel shows for p: its name, else its SKU.
func productTitle(p catalog.Product) string {
	if p.Name != nil {
		return *p.Name
	}
	return p.SKU
}

// cents is a price in cents (0 when unknown).
func cents(price *float64) int64 {
	if price == nil {
		return 0
	}
	return int64(math.Round(*price * 100))
}

// roundDiv is a/b rounded half up, for non-negative a and positive b.
func roundDiv(a, b int64) int64 { return (a + b/2) / b }
