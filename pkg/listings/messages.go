package listings

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
	"github.com/multisell/multisell/pkg/push"
	"github.com/multisell/multisell/pkg/queue"
)

// TypeRetry is the listing.retry message of the retry queue; the
// messages the connectors see are pkg/wire's (docs/channel-sync.md).
const TypeRetry = "listing.retry"

// Result is a connector's listing.result message (a wire.ListingResult): how the push of a
// version went.
type Result struct {
	ChannelUUID, ChannelSKU string
	Version                 int64
	OK                      bool
	Error                   *string
	// ChannelQuantity is what the channel shows now (nil: not reported).
	ChannelQuantity *int64
	// ListingRef is the channel's reference of the listing the connector
	// found (nil: none), kept on the listing.
	ListingRef *string
	// Off, when set, is why the channel keeps the listing's quantity
	// itself: the listing goes off with it as the reason.
	Off *string
}

// Retry is the listing.retry message the channel-sync function sends to
// the retry queue, delayed, after a failed push: send the version again
// unless it was confirmed or replaced meanwhile. Attempt 0 is the end of a
// hold (the minimum interval between pushes, docs/channel-sync.md) that
// started at Version: send the version current then.
type Retry struct {
	Type        string `json:"type"`
	ChannelUUID string `json:"channel_uuid"`
	ChannelSKU  string `json:"channel_sku"`
	Version     int64  `json:"version"`
	Attempt     int64  `json:"attempt"`
}

// ParseResult reads a listing.result message.
func ParseResult(obj lenient.Object) (Result, error) {
	var res Result
	in, err := parseKeyFields(obj)
	if err != nil {
		return Result{}, err
	}
	res.ChannelUUID, res.ChannelSKU = in.ChannelUUID, in.ChannelSKU
	if res.Version, err = positive(obj, "version"); err != nil {
		return Result{}, err
	}
	outcome, err := push.ParseOutcome(obj)
	if err != nil {
		return Result{}, err
	}
	res.OK, res.Error = outcome.OK, outcome.Error
	if res.ChannelQuantity, err = quantity(obj, "channel_quantity"); err != nil {
		return Result{}, err
	}
	if res.ListingRef, err = listingRef(obj.Field("listing_ref")); err != nil {
		return Result{}, err
	}
	if res.Off, err = offReason(obj.Field("off")); err != nil {
		return Result{}, err
	}
	return res, nil
}

// ParseRetry reads a listing.retry message.
func ParseRetry(obj lenient.Object) (Retry, error) {
	in, err := parseKeyFields(obj)
	if err != nil {
		return Retry{}, err
	}
	r := Retry{Type: TypeRetry, ChannelUUID: in.ChannelUUID, ChannelSKU: in.ChannelSKU}
	if r.Version, err = positive(obj, "version"); err != nil {
		return Retry{}, err
	}
	a, err := quantity(obj, "attempt")
	if err != nil || a == nil {
		return Retry{}, errs.Invalid("attempt must be an integer from 0 to %d", 1<<31-1)
	}
	r.Attempt = *a
	return r, nil
}

// parseKeyFields reads channel_uuid and channel_sku only.
func parseKeyFields(obj lenient.Object) (Input, error) {
	return parseInput(lenient.Object{"channel_uuid": obj["channel_uuid"], "channel_sku": obj["channel_sku"]})
}

// positive reads a required integer >= 1.
func positive(obj lenient.Object, name string) (int64, error) {
	v, err := obj.Field(name).Int()
	if err != nil || v == nil || *v < 1 {
		return 0, errs.Invalid("%s must be an integer of at least 1", name)
	}
	return *v, nil
}

// quantity reads an optional quantity: null or an integer from 0 to 2^31-1.
func quantity(obj lenient.Object, name string) (*int64, error) {
	q, err := obj.Field(name).Int()
	if err != nil || (q != nil && (*q < 0 || *q > 1<<31-1)) {
		return nil, errs.Invalid("%s must be an integer from 0 to %d", name, 1<<31-1)
	}
	return q, nil
}

// maxOffReason bounds the reason of a listing.result's off.
const maxOffReason = 1024

// offReason reads a listing.result's off: null, absent or "" (nil), or a
// reason of at most maxOffReason bytes without control characters.
func offReason(f lenient.Field) (*string, error) {
	v, err := f.String()
	if err != nil || (v != nil && (len(*v) > maxOffReason || strings.ContainsFunc(*v, unicode.IsControl))) {
		return nil, errs.Invalid("off must be a string of at most %d characters without control characters", maxOffReason)
	}
	if v != nil && *v == "" {
		return nil, nil
	}
	return v, nil
}

// group is the outbox message group of a listing: one per listing, so one
// listing's versions arrive in order and listings do not wait for each
// other.
func group(account, channel, channelSKU string) string {
	return queue.Group("listing", account, channel, channelSKU)
}

// dedup is the deduplication id of a send: one per version and push.
func dedup(groupID string, version, push int64) string {
	return fmt.Sprintf("%s-v%d-p%d", groupID, version, push)
}
