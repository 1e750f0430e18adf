package amazon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/multisell/multisell/pkg/connectors"
)

// productType is the product type of every patch: a patch of an offer's
// fulfillment_availability alone does not need the listing's own.
const productType = "PRODUCT"

// availabilityPath is the listing attribute of the quantity a seller fulfills itself.
const availabilityPath = "/attributes/fulfillment_availability"

// defaultChannel is the fulfillment channel code of the seller's own fulfillment.
const defaultChannel = "DEFAULT"

// patchOp is one operation of a ListingsItemPatchRequest.
type patchOp struct {
	Op    string           `json:"op"`
	Path  string           `json:"path"`
	Value []map[string]any `json:"value"`
}

// quantityPatch is the patch that shows quantity, fulfilled by the seller: a merge, which
// keeps the attribute's other sub-attributes (the seller's handling time,
// lead_time_to_ship_max_days, which a replace would clear).
func quantityPatch(quantity int64) []patchOp {
	return []patchOp{{Op: "merge", Path: availabilityPath,
		Value: []map[string]any{{"fulfillment_channel_code": defaultChannel, "quantity": quantity}}}}
}

// issue is a listing's issue as Amazon states it.
type issue struct {
	Code           string   `json:"code"`
	Message        string   `json:"message"`
	Severity       string   `json:"severity"`
	AttributeNames []string `json:"attributeNames"`
	AttributeName  string   `json:"attributeName"`
}

// availability is a listing's fulfillment availability.
type availability struct {
	Code     string `json:"fulfillmentChannelCode"`
	Quantity *int64 `json:"quantity"`
}

// PushQuantities implements connectors.Connector: a batch of more than FeedThreshold
// listings goes as one JSON_LISTINGS_FEED (feeds.go), a smaller one as one
// patchListingsItem each. A listing Amazon fulfills (FBA) is answered Off.
func (c *Connector) PushQuantities(ctx context.Context, s *connectors.Session, batch []connectors.QuantityPush) ([]connectors.QuantityResult, error) {
	if len(batch) > setting(c.FeedThreshold, DefaultFeedThreshold) {
		return c.pushFeed(ctx, s, batch)
	}
	return patchAll(ctx, s, batch)
}

// patchAll patches each listing of the batch. Amazon forbidding the patch to the seller (a
// 403: the app lacks the Product Listing role) fails that listing and the batch's others
// with Amazon's message, without asking again: a role is the seller's, not the listing's.
func patchAll(ctx context.Context, s *connectors.Session, batch []connectors.QuantityPush) ([]connectors.QuantityResult, error) {
	out := make([]connectors.QuantityResult, 0, len(batch))
	denied := ""
	for _, p := range batch {
		if denied != "" {
			out = append(out, connectors.QuantityResult{ChannelSKU: p.ChannelSKU, Error: denied})
			continue
		}
		r, err := patch(ctx, s, p)
		var fb *connectors.Forbidden
		if errors.As(err, &fb) && !fb.Token {
			denied, err = fb.Error(), nil
			r = connectors.QuantityResult{ChannelSKU: p.ChannelSKU, Error: denied}
		}
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// listingPath is the Listings Items API path of the seller's sku.
func listingPath(cr credentials, sku string) string {
	return "/listings/2021-08-01/items/" + url.PathEscape(cr.SellerID) + "/" + url.PathEscape(sku)
}

// patch sets one listing's quantity. Amazon refusing the patch of this listing (INVALID, or
// a 4xx other than the token's) is the listing's failed result; an INVALID patch of
// fulfillment_availability reads the listing's availability once to tell an FBA listing
// (answered Off) from another refusal.
func patch(ctx context.Context, s *connectors.Session, p connectors.QuantityPush) (connectors.QuantityResult, error) {
	cr := s.Credentials.(credentials)
	res := connectors.QuantityResult{ChannelSKU: p.ChannelSKU}
	in := map[string]any{"productType": productType, "patches": quantityPatch(p.Quantity)}
	body, err := call(ctx, s, OpPatchListingsItem, "PATCH", listingPath(cr, p.ChannelSKU), url.Values{"marketplaceIds": {cr.MarketplaceID}}, in)
	if err != nil {
		return listingRefusal(res, err)
	}
	var out struct {
		Status string  `json:"status"`
		Issues []issue `json:"issues"`
	}
	if err := decode(ctx, s, OpPatchListingsItem, body, &out); err != nil {
		return res, err
	}
	switch {
	case out.Status == "ACCEPTED" || out.Status == "VALID":
		res.OK, res.ChannelQuantity = true, p.Quantity
		return res, nil
	case out.Status != "INVALID":
		return res, fmt.Errorf("amazon %s: unknown status %q", OpPatchListingsItem, out.Status)
	}
	res.Error = issuesText(out.Issues)
	if !aboutAvailability(out.Issues) {
		return res, nil
	}
	off, err := fulfilledByAmazon(ctx, s, p.ChannelSKU)
	if err != nil {
		return listingRefusal(res, err)
	}
	if off != "" {
		res.Error, res.Off = "", off
	}
	return res, nil
}

// listingRefusal is the result of a listing whose call failed with err: Amazon's 4xx
// refusal of this listing (not the token's, a *connectors.AuthError, nor the seller's, a
// *connectors.Forbidden: those stay errors) is its failed result; any other error fails the
// batch.
func listingRefusal(res connectors.QuantityResult, err error) (connectors.QuantityResult, error) {
	var ae *apiError
	var fb *connectors.Forbidden
	if errors.As(err, &ae) && !errors.As(err, &fb) && ae.Status/100 == 4 && ae.Status != 429 {
		res.Error = ae.Error()
		return res, nil
	}
	return res, err
}

// aboutAvailability reports whether an ERROR issue is about fulfillment_availability.
func aboutAvailability(issues []issue) bool {
	for _, i := range issues {
		if i.Severity == "ERROR" && (i.AttributeName == "fulfillment_availability" || strings.Contains(strings.Join(i.AttributeNames, ","), "fulfillment_availability")) {
			return true
		}
	}
	return false
}

// issuesText is Amazon's ERROR issues as one message.
func issuesText(issues []issue) string {
	var msgs []string
	for _, i := range issues {
		if i.Severity == "ERROR" {
			msgs = append(msgs, i.Code+": "+i.Message)
		}
	}
	if len(msgs) == 0 {
		return "Amazon refused the listing's patch without saying why"
	}
	return "Amazon refused the quantity: " + strings.Join(msgs, "; ")
}

// fulfilledByAmazon reads the listing's fulfillment availability (getListingsItem) and
// returns the Off reason when Amazon fulfills it, "" when the seller does.
func fulfilledByAmazon(ctx context.Context, s *connectors.Session, sku string) (string, error) {
	cr := s.Credentials.(credentials)
	body, err := call(ctx, s, OpGetListingsItem, "GET", listingPath(cr, sku),
		url.Values{"marketplaceIds": {cr.MarketplaceID}, "includedData": {"fulfillmentAvailability"}}, nil)
	if err != nil {
		return "", err
	}
	var item struct {
		FulfillmentAvailability []availability `json:"fulfillmentAvailability"`
	}
	if err := decode(ctx, s, OpGetListingsItem, body, &item); err != nil {
		return "", err
	}
	return offReason(item.FulfillmentAvailability), nil
}

// offReason is why a listing of this availability is off: fulfilled by Amazon (a channel
// code other than DEFAULT), "" when the seller fulfills it.
func offReason(av []availability) string {
	for _, a := range av {
		if a.Code != "" && a.Code != defaultChannel {
			return "fulfilled by Amazon (" + a.Code + "): Amazon keeps its quantity"
		}
	}
	return ""
}

// jsonOf is v as JSON (plain maps and structs of strings and numbers).
func jsonOf(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
