package etsy

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/money"
	"github.com/multisell/multisell/pkg/wire"
)

// PageSize is the receipts asked for per page (getShopReceipts' most).
const PageSize = 100

// minTimestamp is the earliest min_last_modified Etsy takes (2000-01-01).
const minTimestamp = 946684800

// Receipt statuses the mapping reads.
const (
	statusCanceled       = "canceled"
	statusFullyRefunded  = "fully refunded"
	statusPartlyRefunded = "partially refunded"
)

// PollOrders implements connectors.Connector: getShopReceipts of the receipts changed since
// q.Since, oldest change first (sort_on=updated, sort_order=asc), PageSize at a time. Pages
// are keyed by the change time, not counted by offset: the page token is the last receipt's
// update time and the receipts of that second already sent (position), so a receipt that
// changes while the pages are read moves to a later page (sent again, changed) and never
// shifts another out of the walk (docs/connectors.md, "Etsy").
func (c *connector) PollOrders(ctx context.Context, s *connectors.Session, q connectors.OrdersQuery) (connectors.OrderPage, error) {
	pos, err := parsePosition(q.Page, q.Since)
	if err != nil {
		return connectors.OrderPage{}, err
	}
	v := url.Values{"min_last_modified": {strconv.FormatInt(pos.since, 10)}, "limit": {strconv.Itoa(PageSize)},
		"offset": {strconv.Itoa(pos.offset)}, "sort_on": {"updated"}, "sort_order": {"asc"}}
	resp, err := call(ctx, s, http.MethodGet, shopPath(s)+"/receipts?"+v.Encode(), nil)
	if err != nil {
		return connectors.OrderPage{}, err
	}
	page, err := parseReceipts(s.Channel, pos, resp.Body, func(receipt int64) (refunds, error) {
		return refunded(ctx, s, receipt)
	})
	for i, reason := range page.Refused {
		page.Refused[i] = s.Clean(reason)
		slog.WarnContext(ctx, "etsy: receipt not imported", "account", s.Account, "channel", s.Channel, "error", page.Refused[i])
	}
	return page, err
}

// position is where a page of receipts starts: the receipts changed at since or later, offset
// of them skipped, and those changed at since of seen (sent by the page before) left out.
type position struct {
	since  int64
	offset int
	seen   []int64
}

// parsePosition reads a page token ("since:offset:id,id,..."), or for the first page the
// poll's since.
func parsePosition(page string, since time.Time) (position, error) {
	if page == "" {
		return position{since: max(since.Unix(), minTimestamp)}, nil
	}
	bad := fmt.Errorf("etsy receipts: page token %q is not one of the connector's", page)
	parts := strings.Split(page, ":")
	if len(parts) != 3 {
		return position{}, bad
	}
	var p position
	var err1, err2 error
	p.since, err1 = strconv.ParseInt(parts[0], 10, 64)
	p.offset, err2 = strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil || p.since < minTimestamp || p.offset < 0 {
		return position{}, bad
	}
	for _, id := range strings.Split(parts[2], ",") {
		if id == "" {
			continue
		}
		n, err := strconv.ParseInt(id, 10, 64)
		if err != nil {
			return position{}, bad
		}
		p.seen = append(p.seen, n)
	}
	return p, nil
}

// token is the page token of p.
func (p position) token() string {
	ids := make([]string, len(p.seen))
	for i, id := range p.seen {
		ids[i] = strconv.FormatInt(id, 10)
	}
	return fmt.Sprintf("%d:%d:%s", p.since, p.offset, strings.Join(ids, ","))
}

// next is the position of the page after a full page rs read from p: the receipts changed
// at the last one's second or later, less those of that second this walk sent. When the whole
// page changed within that second, the next page skips them by offset as well (Etsy orders
// receipts of the same second by receipt id, docs/connectors.md).
func (p position) next(rs []ShopReceipt) position {
	last := rs[len(rs)-1].UpdatedTimestamp
	n := position{since: last}
	if last == p.since {
		n.seen = slices.Clone(p.seen)
	}
	for _, r := range rs {
		if r.UpdatedTimestamp == last {
			n.seen = append(n.seen, r.ReceiptID)
		}
	}
	if rs[0].UpdatedTimestamp == last {
		if last == p.since {
			n.offset = p.offset
		}
		n.offset += len(rs)
		n.seen = n.seen[len(n.seen)-len(rs):]
	}
	return n
}

// refunds are what a receipt's refunds pay back, by transaction id, in the minor units of
// its currency.
type refunds map[int64]int64

// refunded reads the refunds of a partly refunded receipt, by transaction
// (getShopPaymentByReceiptId: its payments' successful adjustments, item by item).
func refunded(ctx context.Context, s *connectors.Session, receipt int64) (refunds, error) {
	resp, err := call(ctx, s, http.MethodGet, shopPath(s)+"/receipts/"+strconv.FormatInt(receipt, 10)+"/payments", nil)
	if err != nil {
		return nil, err
	}
	var ps Payments
	if err := connectors.DecodeAnswer("etsy", "getShopPaymentByReceiptId", resp.Body, &ps); err != nil {
		return nil, err
	}
	out := refunds{}
	for _, p := range ps.Results {
		for _, a := range p.PaymentAdjustments {
			for _, it := range a.PaymentAdjustmentItems {
				if a.IsSuccess {
					out[it.TransactionID] += it.Amount
				}
			}
		}
	}
	return out, nil
}

// parseReceipts reads a getShopReceipts answer asked from pos into the channel's order
// documents, reading the refunds of a partly refunded receipt through refundsOf (nil: none
// are read). An unreadable answer, or refunds that cannot be read, fail the whole page; a
// receipt it cannot map is left out, its reason in the page's Refused.
func parseReceipts(channel string, pos position, body []byte, refundsOf func(receipt int64) (refunds, error)) (connectors.OrderPage, error) {
	var page ShopReceipts
	if err := json.Unmarshal(body, &page); err != nil {
		return connectors.OrderPage{}, fmt.Errorf("etsy receipts: unreadable answer: %w", err)
	}
	out := connectors.OrderPage{Orders: make([]connectors.Order, 0, len(page.Results))}
	for i, r := range page.Results {
		if r.UpdatedTimestamp == pos.since && slices.Contains(pos.seen, r.ReceiptID) {
			continue
		}
		var rf refunds
		if r.Status == statusPartlyRefunded && refundsOf != nil && r.ReceiptID > 0 {
			var err error
			if rf, err = refundsOf(r.ReceiptID); err != nil {
				return connectors.OrderPage{}, err
			}
		}
		doc, err := document(channel, r, rf)
		if err != nil {
			out.Refused = append(out.Refused, fmt.Sprintf("etsy receipts: receipt %d of the page (since %d): %v", i, pos.since, err))
			continue
		}
		out.Orders = append(out.Orders, connectors.Order{Ref: strconv.FormatInt(r.ReceiptID, 10),
			UpdatedAt: time.Unix(r.UpdatedTimestamp, 0).UTC(), Document: doc})
	}
	if len(page.Results) >= PageSize {
		out.Next = pos.next(page.Results).token()
	}
	return out, nil
}

// stamp is an epoch time as the document's text.
func stamp(sec int64) string { return time.Unix(sec, 0).UTC().Format(time.RFC3339) }

// document maps a receipt and the refunds of its transactions (rf, of a partly refunded
// receipt) to an order import document (docs/orders.md, the table in docs/connectors.md
// "Etsy").
func document(channel string, r ShopReceipt, rf refunds) (json.RawMessage, error) {
	switch {
	case r.ReceiptID <= 0:
		return nil, errors.New("no receipt_id")
	case r.CreatedTimestamp <= 0 || r.UpdatedTimestamp <= 0:
		return nil, fmt.Errorf("receipt %d: no created_timestamp or updated_timestamp", r.ReceiptID)
	case len(r.Transactions) == 0:
		return nil, fmt.Errorf("receipt %d: no transactions", r.ReceiptID)
	}
	d := wire.OrderDocument{ChannelUUID: channel, DisplayRef: strconv.FormatInt(r.ReceiptID, 10), OrderedAt: stamp(r.CreatedTimestamp),
		CustomerNotes: r.MessageFromBuyer, ShippingContactName: r.Name, ShippingEmail: r.BuyerEmail,
		ShippingAddress1: r.FirstLine, ShippingAddress2: r.SecondLine, ShippingCity: r.City, ShippingStateRegion: r.State,
		ShippingPostalCode: r.Zip, ShippingCountryCode: r.CountryISO, PaymentStatus: "none"}
	if r.IsPaid {
		d.PaymentStatus, d.PaidAt = "all", stamp(paidAt(r))
	}
	if r.Status == statusCanceled {
		d.CancelledAt = stamp(r.UpdatedTimestamp)
	}
	a := &amounts{}
	totals(&d, r, a)
	var carrier, tracking string
	if n := len(r.Shipments); n > 0 {
		carrier, tracking = r.Shipments[n-1].CarrierName, r.Shipments[n-1].TrackingCode
	}
	for _, t := range r.Transactions {
		if t.TransactionID <= 0 || t.Quantity < 1 {
			return nil, fmt.Errorf("receipt %d: a transaction without transaction_id or quantity", r.ReceiptID)
		}
		it := wire.OrderItem{OrderItemRef: strconv.FormatInt(t.TransactionID, 10), Quantity: t.Quantity,
			SKU: cmp.Or(t.SKU, fmt.Sprintf("etsy-listing-%d-%d", t.ListingID, t.ProductID)), Title: t.Title, Status: r.Status}
		if unit, ok := a.value(t.Price); ok {
			it.UnitPrice, it.Price = wire.Amount(unit.String()), wire.Amount((unit * money.Amount(t.Quantity)).String())
		}
		switch {
		case r.IsShipped || t.ShippedTimestamp != nil:
			it.QuantityShipped, it.CarrierName, it.TrackingNumber = t.Quantity, carrier, tracking
		case r.Status == statusCanceled || r.Status == statusFullyRefunded:
			it.QuantityCancelled = t.Quantity
		case rf[t.TransactionID] > 0 && t.Price != nil && t.Price.Amount > 0:
			it.QuantityCancelled = min(t.Quantity, rf[t.TransactionID]/t.Price.Amount)
		}
		d.Items = append(d.Items, it)
	}
	if a.err != nil {
		return nil, fmt.Errorf("receipt %d: %w", r.ReceiptID, a.err)
	}
	d.Currency = a.currency
	return json.Marshal(d)
}

// paidAt is when the receipt was paid: its first transaction's paid_timestamp, else its last
// change.
func paidAt(r ShopReceipt) int64 {
	for _, t := range r.Transactions {
		if t.PaidTimestamp != nil && *t.PaidTimestamp > 0 {
			return *t.PaidTimestamp
		}
	}
	return r.UpdatedTimestamp
}

// totals sets the document's money from the receipt: subtotal total_price (the items),
// discount discount_amt, shipping_cost total_shipping_cost, total grandtotal, and tax the
// rest of grandtotal (Etsy's sales tax, VAT and gift wrap), so that subtotal - discount +
// shipping_cost + tax is total exactly.
func totals(d *wire.OrderDocument, r ShopReceipt, a *amounts) {
	sub, okSub := a.value(r.TotalPrice)
	disc, okDisc := a.value(r.DiscountAmt)
	ship, okShip := a.value(r.TotalShippingCost)
	total, okTotal := a.value(r.Grandtotal)
	if okSub {
		d.Subtotal = wire.Amount(sub.String())
	}
	if okDisc && disc != 0 {
		d.Discount = wire.Amount(disc.String())
	}
	if okShip {
		d.ShippingCost = wire.Amount(ship.String())
	}
	if !okTotal {
		return
	}
	d.Total = wire.Amount(total.String())
	if okSub {
		d.Tax = wire.Amount((total - sub + disc - ship).String())
	}
}
