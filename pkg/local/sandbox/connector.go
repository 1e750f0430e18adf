package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
)

// GenericConnector is the connector of the generic marketplace (name "generic", channel
// type "Generic"), published limits of 1 call per second for each operation but the
// token's. The code that needs it registers it (connectors.Register(sandbox.GenericConnector)).
var GenericConnector = &Connector{Limits: map[string]connectors.Limit{
	OpShop: {Rate: 1, Burst: 1}, OpOrders: {Rate: 1, Burst: 1},
	OpInventory: {Rate: 1, Burst: 1}, OpFulfillments: {Rate: 1, Burst: 1},
}}

// Connector calls a Generic marketplace.
type Connector struct {
	// Name and ChannelType default to "generic" and "Generic": a test registers a connector
	// of other limits under another name.
	Name, ChannelType string
	// Limits are the published limits it declares, by operation.
	Limits map[string]connectors.Limit
}

// credentials are a generic channel's credentials.
type credentials struct {
	ClientID, ClientSecret, RefreshToken string
}

// Spec implements connectors.Connector.
func (c *Connector) Spec() connectors.Spec {
	name, typ := c.Name, c.ChannelType
	if name == "" {
		name, typ = "generic", "Generic"
	}
	return connectors.Spec{Name: name, ChannelType: typ, Limits: c.Limits,
		RateHeader: "X-RateLimit-Limit", QuantityBatch: MaxInventoryBatch}
}

// ParseCredentials implements connectors.Connector: client_id, client_secret, refresh_token.
func (c *Connector) ParseCredentials(raw []byte) (any, error) {
	f, err := connectors.ParseFields(raw, connectors.Field{Name: "client_id", Max: 128},
		connectors.Field{Name: "client_secret", Max: 256}, connectors.Field{Name: "refresh_token", Max: 2048})
	if err != nil {
		return nil, err
	}
	return credentials{ClientID: f["client_id"], ClientSecret: f["client_secret"], RefreshToken: f["refresh_token"]}, nil
}

// Verify implements connectors.Connector: a token exchange and GET /v1/shop.
func (c *Connector) Verify(ctx context.Context, s *connectors.Session) error {
	_, err := c.call(ctx, s, OpShop, http.MethodGet, "/v1/shop", nil)
	return err
}

// GenericPageSize is the most orders a page of the connector's poll asks for.
const GenericPageSize = 50

// PollOrders implements connectors.Connector. An order whose document is not a JSON object
// is skipped (logged): it does not hold up the orders after it.
func (c *Connector) PollOrders(ctx context.Context, s *connectors.Session, q connectors.OrdersQuery) (connectors.OrderPage, error) {
	v := url.Values{"updated_since": {q.Since.UTC().Format(time.RFC3339Nano)}, "limit": {strconv.Itoa(GenericPageSize)}}
	if q.Page != "" {
		v.Set("page_token", q.Page)
	}
	body, err := c.call(ctx, s, OpOrders, http.MethodGet, "/v1/orders?"+v.Encode(), nil)
	if err != nil {
		return connectors.OrderPage{}, err
	}
	var page struct {
		Orders []GenericOrder `json:"orders"`
		Next   string         `json:"next_page_token"`
	}
	if err := json.Unmarshal(body, &page); err != nil {
		return connectors.OrderPage{}, fmt.Errorf("generic orders: %w", err)
	}
	out := connectors.OrderPage{Next: page.Next}
	for _, o := range page.Orders {
		if !bytes.HasPrefix(bytes.TrimSpace(o.Document), []byte("{")) {
			slog.WarnContext(ctx, "generic: an order without a document skipped", "order", o.ID, "channel", s.Channel)
			continue
		}
		out.Orders = append(out.Orders, connectors.Order{Ref: o.ID, UpdatedAt: o.UpdatedAt, Document: o.Document})
	}
	return out, nil
}

// PushQuantities implements connectors.Connector: one POST /v1/inventory. It answers the
// marketplace's item id as the listing's reference when the listing holds another one, and
// an item the marketplace keeps the quantity of as off.
func (c *Connector) PushQuantities(ctx context.Context, s *connectors.Session, batch []connectors.QuantityPush) ([]connectors.QuantityResult, error) {
	type item struct {
		SKU      string `json:"sku"`
		Quantity int64  `json:"quantity"`
	}
	in := struct {
		Items []item `json:"items"`
	}{}
	for _, p := range batch {
		in.Items = append(in.Items, item{SKU: p.ChannelSKU, Quantity: p.Quantity})
	}
	body, err := c.call(ctx, s, OpInventory, http.MethodPost, "/v1/inventory", in)
	if err != nil {
		return nil, err
	}
	var out struct {
		Results []struct {
			SKU      string `json:"sku"`
			ItemID   string `json:"item_id"`
			OK       bool   `json:"ok"`
			Quantity int64  `json:"quantity"`
			Error    string `json:"error"`
			Managed  string `json:"managed"`
		} `json:"results"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, fmt.Errorf("generic inventory: %w", err)
	}
	refs := make(map[string]string, len(batch))
	for _, p := range batch {
		refs[p.ChannelSKU] = p.ListingRef
	}
	res := make([]connectors.QuantityResult, len(out.Results))
	for i, r := range out.Results {
		res[i] = connectors.QuantityResult{ChannelSKU: r.SKU, OK: r.OK, Error: r.Error, ChannelQuantity: r.Quantity, Off: r.Managed}
		if r.ItemID != refs[r.SKU] {
			res[i].ListingRef = r.ItemID // the marketplace's id of the item, kept on the listing
		}
	}
	return res, nil
}

// PostTracking implements connectors.Connector: POST /v1/orders/{display_ref}/fulfillments.
func (c *Connector) PostTracking(ctx context.Context, s *connectors.Session, t connectors.Tracking) error {
	items := make([]map[string]any, len(t.Items))
	for i, it := range t.Items {
		items[i] = map[string]any{"order_item_ref": it.OrderItemRef, "sku": it.SKU, "quantity": it.Quantity}
	}
	in := map[string]any{"shipment_id": t.ShipmentID, "carrier": t.CarrierName,
		"tracking_number": t.TrackingNumber, "tracking_url": t.TrackingURL, "items": items}
	_, err := c.call(ctx, s, OpFulfillments, http.MethodPost, "/v1/orders/"+url.PathEscape(t.DisplayRef)+"/fulfillments", in)
	return err
}

// call makes an authorized call of op and returns the body of a 2xx answer; a 401 is a
// *connectors.AuthError, another status an error with the marketplace's message.
func (c *Connector) call(ctx context.Context, s *connectors.Session, op, method, path string, in any) ([]byte, error) {
	req, err := connectors.JSONRequest(method, s.Endpoints.API+path, nil, in)
	if err != nil {
		return nil, err
	}
	resp, err := s.Authorized(ctx, op, req, connectors.Authorized{Exchange: exchange, Error: answerError})
	if err != nil {
		return nil, err
	}
	return resp.Body, nil
}

// exchange trades the refresh token for an access token at the auth endpoint.
func exchange(ctx context.Context, s *connectors.Session) (connectors.Token, error) {
	cr := s.Credentials.(credentials)
	body, _ := json.Marshal(map[string]string{"client_id": cr.ClientID, "client_secret": cr.ClientSecret, "refresh_token": cr.RefreshToken})
	resp, err := s.Call(ctx, OpToken, connectors.Request{Method: http.MethodPost, URL: s.Endpoints.Auth,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: body})
	if err != nil {
		return connectors.Token{}, err
	}
	return connectors.ParseTokenAnswer("generic", resp.Status, resp.Body, time.Now())
}

// answerError is the error of an answer other than 2xx: the marketplace's message.
func answerError(_ string, status int, body []byte) error {
	return fmt.Errorf("generic: status %d: %s", status, connectors.ParseOAuthError(body).Message())
}
