package walmart

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/multisell/multisell/pkg/connectors"
)

// inventoryPath is updateInventoryForAnItem.
const inventoryPath = "/v3/inventory"

// FeedThreshold is the most listings a push sets one by one (updateInventoryForAnItem);
// a larger push goes as one bulk inventory feed. Walmart allows 10 inventory feeds an hour
// (each processed in up to 30 minutes) and keeps the single update for few items: at the
// single update's bucket (burst 10, 5 a second) 25 listings go out within the runtime's
// wait (10 at once, 15 in 3 seconds), and more are worth one of the hour's feeds
// (docs/connectors.md, "Walmart", Quantities).
const FeedThreshold = 25

// unitEach is the unit of every quantity.
const unitEach = "EACH"

// PushQuantities implements connectors.Connector: up to FeedThreshold listings by
// updateInventoryForAnItem, one call each; more by one bulk inventory feed (feeds.go). A
// listing Walmart refuses (an unknown SKU, a quantity it does not take) fails alone, with
// Walmart's message; a listing the single update's limit puts off is pushed again later
// (QuantityResult.RetryAt).
func (c *connector) PushQuantities(ctx context.Context, s *connectors.Session, batch []connectors.QuantityPush) ([]connectors.QuantityResult, error) {
	if len(batch) > FeedThreshold {
		return pushFeed(ctx, s, batch)
	}
	out := make([]connectors.QuantityResult, 0, len(batch))
	for i, p := range batch {
		r, err := pushOne(ctx, s, p)
		var th *connectors.Throttled
		switch {
		case errors.As(err, &th) && i > 0:
			for _, rest := range batch[i:] {
				out = append(out, connectors.QuantityResult{ChannelSKU: rest.ChannelSKU, RetryAt: th.RetryAt})
			}
			return out, nil
		case err != nil:
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// pushOne sets one listing's quantity: a 2xx is the quantity Walmart answers, a refusal of
// the listing (a 4xx but 401) its failed result; anything else the push's error.
func pushOne(ctx context.Context, s *connectors.Session, p connectors.QuantityPush) (connectors.QuantityResult, error) {
	in := Inventory{SKU: p.ChannelSKU, Quantity: InputQty{Unit: unitEach, Amount: p.Quantity}}
	resp, err := call(ctx, s, OpInventory, http.MethodPut, inventoryPath+"?"+url.Values{"sku": {p.ChannelSKU}}.Encode(), in)
	r := connectors.QuantityResult{ChannelSKU: p.ChannelSKU}
	var ae *apiError
	switch {
	case errors.As(err, &ae) && ae.Status/100 == 4 && ae.Status != http.StatusUnauthorized && ae.Status != http.StatusTooManyRequests:
		r.Error = "Walmart: " + clip(messages(ae.Errors), fmt.Sprintf("status %d", ae.Status))
		return r, nil
	case err != nil:
		return r, err
	}
	var got Inventory
	if err := connectors.DecodeAnswer("walmart", OpInventory, resp.Body, &got); err != nil {
		return r, err
	}
	r.OK, r.ChannelQuantity = true, p.Quantity
	if got.SKU == p.ChannelSKU {
		r.ChannelQuantity = got.Quantity.Amount
	}
	return r, nil
}
