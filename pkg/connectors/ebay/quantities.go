package ebay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/multisell/multisell/pkg/connectors"
)

// bulkPath is bulkUpdatePriceQuantity.
const bulkPath = "/sell/inventory/v1/bulk_update_price_quantity"

// PushQuantities implements connectors.Connector: one bulkUpdatePriceQuantity of the batch's
// SKUs (at most MaxBatch), each setting the quantity available to buyers. Each SKU first
// takes one of its listing's revisions (RevisionLimit, per SKU across the fleet); a listing
// at its daily limit is not sent but put off (QuantityResult.RetryAt) until its bucket has a
// revision again, when the newest quantity of the listing by then is pushed. A per-SKU error
// in eBay's answer fails only that listing, with eBay's message.
func (c *connector) PushQuantities(ctx context.Context, s *connectors.Session, batch []connectors.QuantityPush) ([]connectors.QuantityResult, error) {
	var in BulkPriceQuantity
	var later []connectors.QuantityResult
	for _, p := range batch {
		err := s.TakeKeyed(ctx, OpRevision, p.ChannelSKU, RevisionLimit)
		var th *connectors.Throttled
		switch {
		case errors.As(err, &th):
			later = append(later, connectors.QuantityResult{ChannelSKU: p.ChannelSKU, RetryAt: th.RetryAt})
			continue
		case err != nil:
			return nil, err
		}
		in.Requests = append(in.Requests, PriceQuantity{SKU: p.ChannelSKU,
			ShipToLocationAvailability: &ShipToLocationAvailability{Quantity: p.Quantity}})
	}
	if len(in.Requests) == 0 {
		return later, nil
	}
	resp, err := call(ctx, s, OpInventory, http.MethodPost, bulkPath, in)
	if err != nil {
		return nil, err
	}
	res, err := parseBulk(in.Requests, resp.Body)
	if err != nil {
		return nil, err
	}
	return append(res, later...), nil
}

// parseBulk reads a bulkUpdatePriceQuantity answer to the requests: one result per SKU
// asked, OK when every response of the SKU is a 200 without errors, else eBay's message. A
// SKU the answer does not name is failed as such.
func parseBulk(asked []PriceQuantity, body []byte) ([]connectors.QuantityResult, error) {
	var out BulkPriceQuantityResponse
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, fmt.Errorf("ebay bulk_update_price_quantity: unreadable answer: %w", err)
	}
	failed := map[string]string{}
	seen := map[string]bool{}
	for _, r := range out.Responses {
		seen[r.SKU] = true
		if r.StatusCode/100 != 2 || len(r.Errors) > 0 {
			msg := messages(r.Errors)
			if msg == "" {
				msg = fmt.Sprintf("status %d", r.StatusCode)
			}
			failed[r.SKU] = msg
		}
	}
	res := make([]connectors.QuantityResult, len(asked))
	for i, a := range asked {
		r := connectors.QuantityResult{ChannelSKU: a.SKU}
		switch msg, bad := failed[a.SKU]; {
		case bad:
			r.Error = "eBay: " + msg
		case !seen[a.SKU]:
			r.Error = "eBay gave no result for this SKU"
		default:
			r.OK, r.ChannelQuantity = true, a.ShipToLocationAvailability.Quantity
		}
		res[i] = r
	}
	return res, nil
}
