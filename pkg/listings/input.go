package listings

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
	"github.com/multisell/multisell/pkg/sku"
	"github.com/multisell/multisell/pkg/store"
)

// maxListingRef is the longest listing_ref (a marketplace's own id).
const maxListingRef = 255

// Input creates or updates one listing: PUT /listings, the CLI's `listings
// link`, and a connector's listing message. Only what is set changes.
type Input struct {
	ChannelUUID, ChannelSKU string
	// ListingRefSet: ListingRef replaces the listing's (nil clears it).
	ListingRefSet bool
	ListingRef    *string
	// LinkSet: SKU links the listing explicitly (nil: explicitly unlinked).
	// A new listing without it links by itself to the product whose SKU
	// equals its channel SKU.
	LinkSet bool
	SKU     *string
	// RulesSet: Rules replaces the listing's overrides.
	RulesSet bool
	Rules    channels.Override
	// ChannelQuantity, when set, is what the channel reports it shows (only
	// connectors send it).
	ChannelQuantity *int64
}

// Filter selects listings: by channel, by inventory SKU, by sync status.
type Filter struct{ Channel, SKU, Status string }

// ParseFilter checks the filters of GET /listings (422 for a bad value).
func ParseFilter(channel, inventorySKU, status string) (Filter, error) {
	f := Filter{Channel: channel, SKU: inventorySKU, Status: strings.ToLower(strings.TrimSpace(status))}
	if inventorySKU != "" {
		if err := sku.Check("sku", inventorySKU); err != nil {
			return Filter{}, err
		}
	}
	if f.Status != "" && !slices.Contains(statuses, f.Status) {
		return Filter{}, errs.Invalid("sync_status must be one of %s", strings.Join(statuses, ", "))
	}
	return f, nil
}

// ParseKey checks a listing's key: the channel's uuid and the channel SKU
// (the SKU rule: 1 to 255 characters, no control characters).
func ParseKey(channel, channelSKU string) error {
	if channel == "" {
		return errs.Invalid("channel_uuid is required")
	}
	if channelSKU == "" {
		return errs.Invalid("channel_sku is required")
	}
	return sku.Check("channel_sku", channelSKU)
}

// ParseListing reads the body of PUT /listings, {"listing":{...}}.
func ParseListing(body lenient.Object) (Input, error) {
	l := body.Field("listing")
	var obj lenient.Object
	if !l.Set() || json.Unmarshal(l.Raw, &obj) != nil || obj == nil {
		return Input{}, errs.Invalid("listing must be an object")
	}
	return parseInput(obj)
}

// parseInput reads a listing object (the API's, or a connector's listing
// message).
func parseInput(obj lenient.Object) (Input, error) {
	var in Input
	for name, dst := range map[string]*string{"channel_uuid": &in.ChannelUUID, "channel_sku": &in.ChannelSKU} {
		v, err := obj.Field(name).String()
		if err != nil {
			return Input{}, err
		}
		if v != nil {
			*dst = *v
		}
	}
	if err := ParseKey(in.ChannelUUID, in.ChannelSKU); err != nil {
		return Input{}, err
	}
	if f := obj.Field("listing_ref"); f.Present {
		v, err := listingRef(f)
		if err != nil {
			return Input{}, err
		}
		in.ListingRefSet, in.ListingRef = true, v
	}
	if f := obj.Field("sku"); f.Present {
		v, err := f.String()
		if err != nil {
			return Input{}, err
		}
		if v != nil {
			if err := sku.Check("sku", *v); err != nil {
				return Input{}, err
			}
		}
		in.LinkSet, in.SKU = true, v
	}
	if f := obj.Field("inventory_rules"); f.Present {
		o, err := channels.ParseOverride(f)
		if err != nil {
			return Input{}, err
		}
		in.RulesSet, in.Rules = true, o
	}
	return in, nil
}

// ParseReport reads a connector's listing message: a listing the channel
// has, with what it shows.
func ParseReport(obj lenient.Object) (Input, error) {
	in, err := parseInput(obj)
	if err != nil {
		return Input{}, err
	}
	in.LinkSet, in.RulesSet = false, false // a connector reports; it does not link
	if in.ChannelQuantity, err = quantity(obj, "channel_quantity"); err != nil {
		return Input{}, err
	}
	return in, nil
}

// validChannel reports whether s is shaped like a channel uuid.
func validChannel(s string) bool { return store.ValidID(s) }

// listingRef reads a listing_ref: null, or 1 to maxListingRef characters
// without control characters.
func listingRef(f lenient.Field) (*string, error) {
	v, err := f.String()
	if err != nil {
		return nil, err
	}
	if v != nil && (len(*v) > maxListingRef || !sku.Valid(*v)) {
		return nil, errs.Invalid("listing_ref must be 1 to %d characters without control characters", maxListingRef)
	}
	return v, nil
}
