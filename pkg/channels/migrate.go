package channels

import (
	"context"
	"strconv"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
)

// MaxMigrations is the most listings one migration request names.
const MaxMigrations = 25

// Migrator migrates listings of a connected channel that its marketplace's listing API does
// not manage into that API (eBay's listings made outside the Inventory API:
// docs/connectors.md, "eBay"); wired in pkg/app over the connectors' runtime.
type Migrator interface {
	// Migrate migrates the listings of the account's channel uuid named by their marketplace
	// reference: one Migration each; ErrNotFound for a channel not connected, errs.Invalid for
	// a channel whose marketplace has no migration.
	Migrate(ctx context.Context, account, uuid string, refs []string) ([]Migration, error)
}

// Migration is how one listing's migration went: OK with its SKU and the listing_ref it
// takes from then on, or the marketplace's error.
type Migration struct {
	ListingRef    string `json:"listing_ref"`
	OK            bool   `json:"ok"`
	SKU           string `json:"sku,omitempty"`
	NewListingRef string `json:"new_listing_ref,omitempty"`
	Error         string `json:"error,omitempty"`
}

// ParseMigrations reads the body of POST /channels/{uuid}/migrations:
// {"listing_refs": [...]}, 1 to MaxMigrations eBay ItemIDs (digits), none twice.
func ParseMigrations(body lenient.Object) ([]string, error) {
	f := body.Field("listing_refs")
	refs, err := f.Strings()
	if err != nil || !f.Set() || len(refs) == 0 || len(refs) > MaxMigrations {
		return nil, errs.Invalid("listing_refs must be an array of 1 to %d listing references", MaxMigrations)
	}
	seen := map[string]bool{}
	for _, r := range refs {
		if _, err := strconv.ParseUint(r, 10, 64); err != nil {
			return nil, errs.Invalid("listing_refs must hold eBay ItemIDs (digits)")
		}
		if seen[r] {
			return nil, errs.Invalid("listing_refs: %s is named twice", r)
		}
		seen[r] = true
	}
	return refs, nil
}

// Migrate migrates the listings refs of the account's channel uuid when the merchant asks
// for it (never on its own): one Migration each.
func (s Service) Migrate(ctx context.Context, account, uuid string, refs []string) ([]Migration, error) {
	if s.Migrator == nil {
		return nil, errs.Invalid("listing migration is not available")
	}
	return s.Migrator.Migrate(ctx, account, uuid, refs)
}
