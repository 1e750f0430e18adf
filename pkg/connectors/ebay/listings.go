package ebay

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/multisell/multisell/pkg/connectors"
)

// offersPath is getOffers.
const offersPath = "/sell/inventory/v1/offer"

// offerRef prefixes the listing_ref of a listing the Inventory API manages: "offer:" and the
// offerId of its published offer on the channel's marketplace.
const offerRef = "offer:"

// Errors eBay answers getOffers and bulkUpdatePriceQuantity with for a SKU the Inventory API
// does not manage: 25702 (no such inventory item) and 25713 (no such offer).
var notInventory = []int{25702, 25713}

// listing is a push and the eBay listing it goes to (its listing_ref).
type listing struct {
	push connectors.QuantityPush
	ref  string
}

// offerID is the offer of a listing the Inventory API manages.
func (l listing) offerID() string { return strings.TrimPrefix(l.ref, offerRef) }

// locate finds the eBay listing of each push: the reference the listing keeps, else its
// published offer on the channel's marketplace (one getOffers by SKU), else, for a SKU the
// Inventory API does not manage, the ItemID of the seller's active listing of that SKU (the
// Trading API's GetMyeBaySelling, read once for all such SKUs of the batch). A listing eBay
// cannot find is failed with the reason; a refused token or a limit fails the whole batch.
func locate(ctx context.Context, s *connectors.Session, pushes []connectors.QuantityPush) (located []listing, failed []connectors.QuantityResult, err error) {
	var unmanaged []connectors.QuantityPush
	fail := func(p connectors.QuantityPush, err error) {
		failed = append(failed, connectors.QuantityResult{ChannelSKU: p.ChannelSKU, Error: s.Clean(err.Error())})
	}
	for _, p := range pushes {
		switch {
		case strings.HasPrefix(p.ListingRef, offerRef) || isItemID(p.ListingRef):
			located = append(located, listing{push: p, ref: p.ListingRef})
			continue
		case p.ListingRef != "":
			fail(p, fmt.Errorf("ebay: listing_ref %q is neither %sOFFERID nor an eBay ItemID", p.ListingRef, offerRef))
			continue
		}
		id, err := findOffer(ctx, s, p.ChannelSKU)
		switch {
		case err == nil:
			located = append(located, listing{push: p, ref: offerRef + id})
		case errors.Is(err, errNoOffer):
			unmanaged = append(unmanaged, p)
		case fatal(ctx, err):
			return nil, nil, err
		default:
			fail(p, err)
		}
	}
	if len(unmanaged) == 0 {
		return located, failed, nil
	}
	skus := make([]string, len(unmanaged))
	for i, p := range unmanaged {
		skus[i] = p.ChannelSKU
	}
	items, err := activeItems(ctx, s, skus)
	if fatal(ctx, err) {
		return nil, nil, err
	}
	for _, p := range unmanaged {
		switch id := items[p.ChannelSKU]; {
		case err != nil:
			fail(p, err)
		case id == "":
			fail(p, fmt.Errorf("ebay SKU %s: no published offer on %s and no active listing of the seller with this SKU; link the listing with its eBay ItemID as listing_ref",
				p.ChannelSKU, s.Credentials.(credentials).MarketplaceID))
		default:
			located = append(located, listing{push: p, ref: id})
		}
	}
	return located, failed, nil
}

// fatal reports whether err fails a whole push rather than one listing: a refused token, a
// limit, the context ending.
func fatal(ctx context.Context, err error) bool {
	var ae *connectors.AuthError
	var th *connectors.Throttled
	return errors.As(err, &ae) || errors.As(err, &th) || ctx.Err() != nil
}

// errNoOffer is a SKU without a published fixed-price offer on the channel's marketplace.
var errNoOffer = errors.New("no published fixed-price offer on the marketplace")

// findOffer is the offerId of the SKU's published fixed-price offer on the channel's
// marketplace (errNoOffer when eBay has none).
func findOffer(ctx context.Context, s *connectors.Session, sku string) (string, error) {
	market := s.Credentials.(credentials).MarketplaceID
	v := url.Values{"sku": {sku}, "marketplace_id": {market}}
	resp, err := call(ctx, s, OpInventory, http.MethodGet, offersPath+"?"+v.Encode(), nil)
	var ae *apiError
	if errors.As(err, &ae) && (ae.Status == http.StatusNotFound || ae.has(notInventory...)) {
		return "", fmt.Errorf("ebay SKU %s: %w", sku, errNoOffer)
	}
	if err != nil {
		return "", err
	}
	var got Offers
	if err := connectors.DecodeAnswer("ebay", "getOffers", resp.Body, &got); err != nil {
		return "", err
	}
	for _, o := range got.Offers {
		if o.OfferID != "" && o.MarketplaceID == market && o.Status == "PUBLISHED" && o.Format != "AUCTION" {
			return o.OfferID, nil
		}
	}
	return "", fmt.Errorf("ebay SKU %s: %w", sku, errNoOffer)
}
