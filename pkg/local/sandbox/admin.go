package sandbox

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/multisell/multisell/pkg/wire"
)

// AdminOrdersPath is the generic sandbox's own endpoint that places an order on a channel's
// shop as a buyer would (POST, an OrderRequest, answered 201 with the GenericOrder). It is
// no part of the marketplace's API: neither counted nor limited, and it needs no token.
const AdminOrdersPath = "/sandbox/orders"

// maxOrderQuantity bounds an OrderRequest's quantity, as the order import does.
const maxOrderQuantity = 1_000_000

// OrderRequest asks the sandbox for a new order on the shop of the seller bound to
// ChannelUUID (BindChannel): Lines lines (default 1), each Quantity (default 1) of the
// listing SKU (default: the first of the seller's listings, by SKU, that shows a quantity,
// else the first), in Currency (ISO 4217, default USD). Shipped places it already shipped
// whole on the marketplace (by the seller's own tools), with a carrier and tracking number
// of the marketplace's.
type OrderRequest struct {
	ChannelUUID string `json:"channel_uuid"`
	SKU         string `json:"sku,omitempty"`
	Quantity    int    `json:"quantity,omitempty"`
	Lines       int    `json:"lines,omitempty"`
	Currency    string `json:"currency,omitempty"`
	Shipped     bool   `json:"shipped,omitempty"`
}

// AdminLinesPath is a sandbox's own endpoint that changes a line of a placed order as the
// seller would outside multisell (POST, a LineChange, answered 200 with the changed order as
// AdminOrdersPath answers it): ships or cancels quantities of it on the marketplace, which
// also becomes the order's last change. Like AdminOrdersPath it is no part of the
// marketplace's API.
const AdminLinesPath = "/sandbox/lines"

// LineChange ships Shipped and cancels Cancelled more units of line Line (1 for the first
// line placed) of the order OrderID (the id AdminOrdersPath answered) of the seller bound to
// ChannelUUID. A shipment carries the marketplace's carrier and a tracking number.
type LineChange struct {
	ChannelUUID string `json:"channel_uuid"`
	OrderID     string `json:"order_id"`
	Line        int    `json:"line"`
	Shipped     int    `json:"shipped,omitempty"`
	Cancelled   int    `json:"cancelled,omitempty"`
}

// unitPrice is the price of every line of a placed order, in cents.
const unitPrice = 1999

// placeOrder places a new order of the seller's, updated now (the lock held).
func (s *seller) placeOrder(in OrderRequest) (GenericOrder, error) {
	now := time.Now().UTC()
	id := "GM-" + strconv.Itoa(1001+len(s.Orders))
	lineTotal := wire.Cents(int64(unitPrice * in.Quantity))
	total := wire.Cents(int64(unitPrice * in.Quantity * in.Lines))
	at := now.Format(time.RFC3339)
	items := make([]wire.OrderItem, in.Lines)
	for i := range items {
		items[i] = wire.OrderItem{OrderItemRef: strconv.Itoa(i + 1), SKU: in.SKU, Quantity: int64(in.Quantity), UnitPrice: wire.Cents(unitPrice), Price: lineTotal}
		if in.Shipped {
			shipLine(&items[i], id, int64(in.Quantity))
		}
	}
	doc, err := json.Marshal(wire.OrderDocument{
		ChannelUUID: in.ChannelUUID, DisplayRef: id, OrderedAt: at, PaidAt: at, PaymentStatus: "all", Subtotal: total, Total: total,
		Currency:            in.Currency,
		ShippingContactName: "Sandbox Buyer", ShippingAddress1: "1 Test Street", ShippingCity: "Springfield",
		ShippingPostalCode: "12345", ShippingCountryCode: "US", RequestedShippingService: "Standard",
		Items: items,
	})
	if err != nil {
		return GenericOrder{}, fmt.Errorf("sandbox order: %w", err)
	}
	o := GenericOrder{ID: id, UpdatedAt: now, Document: doc}
	s.Orders[id] = o
	return o, nil
}

// DecodeOrderRequest reads the OrderRequest of a call of AdminOrdersPath (its quantity 1 by
// default), or answers 400 with the reason and false.
func DecodeOrderRequest(w http.ResponseWriter, r *http.Request) (OrderRequest, bool) {
	var in OrderRequest
	if json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&in) != nil || in.ChannelUUID == "" {
		adminError(w, http.StatusBadRequest, "a JSON object with channel_uuid required")
		return in, false
	}
	in.Quantity, in.Lines, in.Currency = cmp.Or(in.Quantity, 1), cmp.Or(in.Lines, 1), cmp.Or(in.Currency, "USD")
	if in.Quantity < 1 || in.Quantity > maxOrderQuantity {
		adminError(w, http.StatusBadRequest, "quantity must be from 1 to 1000000")
		return in, false
	}
	if in.Lines < 1 || in.Lines > maxLines {
		adminError(w, http.StatusBadRequest, "lines must be from 1 to 50")
		return in, false
	}
	return in, true
}

// maxLines bounds an OrderRequest's lines.
const maxLines = 50

// shipLine marks n more units of it shipped on the marketplace, with the marketplace's
// carrier and a tracking number of the order's.
func shipLine(it *wire.OrderItem, order string, n int64) {
	it.QuantityShipped += n
	it.CarrierName, it.TrackingNumber = "Generic Post", "GP"+order+"-"+it.OrderItemRef
}

// changeLine changes a line of an order of the seller's: the line's shipped and cancelled
// quantities in the order's document grow, and the order becomes the last changed (the
// lock held).
func (s *seller) changeLine(in LineChange) (GenericOrder, error) {
	o, ok := s.Orders[in.OrderID]
	if !ok {
		return o, Refuse(http.StatusNotFound, "no order "+in.OrderID+" on the shop of channel "+in.ChannelUUID)
	}
	var doc wire.OrderDocument
	if err := json.Unmarshal(o.Document, &doc); err != nil || in.Line > len(doc.Items) {
		return o, Refuse(http.StatusBadRequest, "the order has no line "+strconv.Itoa(in.Line))
	}
	it := &doc.Items[in.Line-1]
	if it.QuantityShipped+it.QuantityCancelled+int64(in.Shipped+in.Cancelled) > it.Quantity {
		return o, Refuse(http.StatusConflict, "more than is left of the line")
	}
	if in.Shipped > 0 {
		shipLine(it, o.ID, int64(in.Shipped))
	}
	it.QuantityCancelled += int64(in.Cancelled)
	b, err := json.Marshal(doc)
	if err != nil {
		return o, fmt.Errorf("sandbox order: %w", err)
	}
	o.Document, o.UpdatedAt = b, time.Now().UTC()
	s.Orders[o.ID] = o
	return o, nil
}

// PlaceOrder asks the generic sandbox at baseURL for a new order (AdminOrdersPath) and
// returns it; a refusal is an error with the sandbox's message.
func PlaceOrder(ctx context.Context, baseURL string, in OrderRequest) (GenericOrder, error) {
	var o GenericOrder
	err := adminPost(ctx, baseURL+AdminOrdersPath, http.StatusCreated, in, &o)
	return o, err
}

// ChangeLine asks the sandbox at baseURL to ship or cancel quantities of an order's line as
// the seller would on the marketplace (AdminLinesPath); a refusal is an error with the
// sandbox's message.
func ChangeLine(ctx context.Context, baseURL string, in LineChange) error {
	return adminPost(ctx, baseURL+AdminLinesPath, http.StatusOK, in, nil)
}

// adminPost posts in to a sandbox's admin endpoint url and reads its answer of status want
// into out (nil: read nothing).
func adminPost(ctx context.Context, url string, want int, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("sandbox admin: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		return fmt.Errorf("sandbox admin: %w", err)
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("sandbox admin: %w", err)
	}
	if resp.StatusCode != want {
		var e struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(data, &e) != nil || e.Error == "" {
			return fmt.Errorf("sandbox admin: %s answered %d: not a sandbox", url, resp.StatusCode)
		}
		return fmt.Errorf("sandbox admin: %s", e.Error)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("sandbox admin: %w", err)
	}
	return nil
}
