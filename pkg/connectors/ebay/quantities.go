package ebay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/multisell/multisell/pkg/connectors"
)

// bulkPath is bulkUpdatePriceQuantity.
const bulkPath = "/sell/inventory/v1/bulk_update_price_quantity"

// PushQuantities implements connectors.Connector. Each SKU first takes one of its listing's
// revisions (RevisionLimit, per SKU across the fleet); a listing at its daily limit is not
// sent but put off (QuantityResult.RetryAt) until its bucket has a revision again, when the
// newest quantity of the listing by then is pushed. A listing is then found on eBay once
// (locate) and its reference kept on the listing (QuantityResult.ListingRef): an Inventory
// API offer goes in one bulkUpdatePriceQuantity of the batch's offers (at most MaxBatch),
// setting the item's quantity and its offer's availableQuantity together; a listing the
// Inventory API does not manage goes by its ItemID in the Trading API's
// ReviseInventoryStatus, four a call (revise). A per-listing error in eBay's answer fails
// only that listing, with eBay's message.
func (c *connector) PushQuantities(ctx context.Context, s *connectors.Session, batch []connectors.QuantityPush) ([]connectors.QuantityResult, error) {
	var out, later []connectors.QuantityResult
	var pushes []connectors.QuantityPush
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
		pushes = append(pushes, p)
	}
	located, failed, err := locate(ctx, s, pushes)
	if err != nil {
		return nil, err
	}
	out = append(out, failed...)
	var in BulkPriceQuantity
	var unmanaged []listing
	for _, l := range located {
		if !strings.HasPrefix(l.ref, offerRef) {
			unmanaged = append(unmanaged, l)
			continue
		}
		in.Requests = append(in.Requests, PriceQuantity{SKU: l.push.ChannelSKU,
			ShipToLocationAvailability: &ShipToLocationAvailability{Quantity: l.push.Quantity},
			Offers:                     []OfferPriceQuantity{{OfferID: l.offerID(), AvailableQuantity: l.push.Quantity}}})
	}
	if len(in.Requests) > 0 {
		resp, err := call(ctx, s, OpInventory, http.MethodPost, bulkPath, in)
		if err != nil {
			return nil, err
		}
		res, err := parseBulk(in.Requests, resp.Body)
		if err != nil {
			return nil, err
		}
		out = append(out, withRefs(res, located)...)
	}
	res, err := revise(ctx, s, unmanaged)
	if err != nil {
		return nil, err
	}
	out = append(out, withRefs(res, located)...)
	return append(out, later...), nil
}

// withRefs sets on each result the listing reference found in this push, if any.
func withRefs(res []connectors.QuantityResult, located []listing) []connectors.QuantityResult {
	found := map[string]string{}
	for _, l := range located {
		if l.push.ListingRef == "" {
			found[l.push.ChannelSKU] = l.ref
		}
	}
	for i := range res {
		res[i].ListingRef = found[res[i].ChannelSKU]
	}
	return res
}

// parseBulk reads a bulkUpdatePriceQuantity answer to the requests: one result per SKU
// asked, OK when every response of the SKU (its item's and its offer's) is a 200 without
// errors, else eBay's message. A SKU the answer does not name is failed as such.
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
