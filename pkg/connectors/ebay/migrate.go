package ebay

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/multisell/multisell/pkg/connectors"
)

// migratePath is bulkMigrateListing.
const migratePath = "/sell/inventory/v1/bulk_migrate_listing"

// MaxMigrate is the most listings one bulkMigrateListing takes.
const MaxMigrate = 5

// Migration is how the migration of one listing to the Inventory API went: OK with the SKU
// and the listing_ref the listing takes from then on (its offer), or eBay's error.
type Migration struct {
	ItemID     string `json:"listing_ref"`
	OK         bool   `json:"ok"`
	SKU        string `json:"sku,omitempty"`
	ListingRef string `json:"new_listing_ref,omitempty"`
	Error      string `json:"error,omitempty"`
}

// MigrateListings converts listings made outside the Inventory API, by ItemID, into
// Inventory API items and offers (bulkMigrateListing, MaxMigrate a call): only when the
// merchant asks for it (docs/connectors.md, "eBay"). Each listing eBay refuses fails alone,
// with eBay's message; a refused token or a limit fails the whole call.
func MigrateListings(ctx context.Context, s *connectors.Session, itemIDs []string) ([]Migration, error) {
	var out []Migration
	for chunk := range slices.Chunk(itemIDs, MaxMigrate) {
		in := BulkMigrateListing{}
		for _, id := range chunk {
			in.Requests = append(in.Requests, MigrateListing{ListingID: id})
		}
		resp, err := call(ctx, s, OpInventory, http.MethodPost, migratePath, in)
		if err != nil {
			return nil, err
		}
		var got BulkMigrateListingResponse
		if err := connectors.DecodeAnswer("ebay", "bulkMigrateListing", resp.Body, &got); err != nil {
			return nil, err
		}
		out = append(out, migrated(chunk, got)...)
	}
	return out, nil
}

// migrated is the migration of each listing asked, from eBay's answer.
func migrated(asked []string, got BulkMigrateListingResponse) []Migration {
	out := make([]Migration, len(asked))
	for i, id := range asked {
		m := Migration{ItemID: id, Error: "eBay gave no result for this listing"}
		for _, r := range got.Responses {
			if r.ListingID != id {
				continue
			}
			switch {
			case r.StatusCode/100 != 2 || len(r.Errors) > 0:
				m.Error = "eBay: " + messages(r.Errors)
				if len(r.Errors) == 0 {
					m.Error = fmt.Sprintf("eBay: status %d", r.StatusCode)
				}
			case len(r.InventoryItems) != 1:
				m.Error = "eBay migrated it as a listing of several SKUs (variations), which multisell does not sync"
			default:
				m = Migration{ItemID: id, OK: true, SKU: r.InventoryItems[0].SKU, ListingRef: offerRef + r.InventoryItems[0].OfferID}
			}
		}
		out[i] = m
	}
	return out
}
