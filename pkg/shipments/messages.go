package shipments

import (
	"fmt"
	"strconv"

	"github.com/multisell/multisell/pkg/carriers"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
	"github.com/multisell/multisell/pkg/push"
	"github.com/multisell/multisell/pkg/queue"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/wire"
)

// TypeRetry is the shipment.retry message of the retry queue; the
// messages the connectors see are pkg/wire's (docs/channel-sync.md).
const TypeRetry = "shipment.retry"

// Result is a connector's shipment.result message (a wire.ShipmentResult): how the post of a
// shipment's tracking went.
type Result struct {
	ChannelUUID, ShipmentID string
	OK                      bool
	Error                   *string
}

// Retry is the shipment.retry message the channel-sync function sends to
// the retry queue, delayed, after a failed post: send the tracking again
// unless it was confirmed or failed again meanwhile.
type Retry struct {
	Type       string `json:"type"`
	ShipmentID string `json:"shipment_id"`
	Attempt    int64  `json:"attempt"`
}

// tracking is the shipment.tracking message of sh in the account, with the
// channel type's carrier and method rules applied.
func tracking(account string, sh *Shipment) wire.TrackingMessage {
	rules := carriers.RulesFor(sh.ChannelType)
	m := wire.TrackingMessage{
		Header:     wire.Header{Type: wire.TypeShipmentTracking, AccountID: account, ChannelUUID: sh.ChannelUUID, ChannelType: sh.ChannelType},
		DisplayRef: sh.DisplayRef, ShipmentID: sh.ID, CarrierName: rules.Carrier(sh.CarrierGiven),
		CarrierNameGiven: sh.CarrierGiven, TrackingNumber: sh.TrackingNumber, TrackingURL: sh.TrackingURL,
		Items: make([]wire.TrackingItem, 0, len(sh.OrderItems)), ShippedAt: sh.ShippedAt,
	}
	if rules.MethodRequired {
		m.ShippingMethod = sh.ShippingMethod
	}
	for _, it := range sh.OrderItems {
		m.Items = append(m.Items, wire.TrackingItem{OrderItemRef: it.OrderItemRef, SKU: it.SKU, Quantity: it.Quantity})
	}
	return m
}

// group is the outbox message group of a shipment: one per order, so the
// tracking of an order's shipments arrives in order.
func group(account string, seq int64) string {
	return queue.Group("shipment", account, strconv.FormatInt(seq, 10))
}

// dedup is the deduplication id of a send: one per shipment and push.
func dedup(id string, push int64) string { return fmt.Sprintf("shipment-%s-p%d", id, push) }

// ParseResult reads a shipment.result message.
func ParseResult(obj lenient.Object) (Result, error) {
	var res Result
	var err error
	if res.ChannelUUID, err = requiredText(obj, "channel_uuid"); err != nil {
		return Result{}, err
	}
	if res.ShipmentID, err = shipmentID(obj); err != nil {
		return Result{}, err
	}
	outcome, err := push.ParseOutcome(obj)
	if err != nil {
		return Result{}, err
	}
	res.OK, res.Error = outcome.OK, outcome.Error
	return res, nil
}

// ParseRetry reads a shipment.retry message.
func ParseRetry(obj lenient.Object) (Retry, error) {
	id, err := shipmentID(obj)
	if err != nil {
		return Retry{}, err
	}
	a, err := obj.Field("attempt").Int()
	if err != nil || a == nil || *a < 1 {
		return Retry{}, errs.Invalid("attempt must be an integer of at least 1")
	}
	return Retry{Type: TypeRetry, ShipmentID: id, Attempt: *a}, nil
}

// shipmentID reads a required shipment_id: a shipment's uuid.
func shipmentID(obj lenient.Object) (string, error) {
	id, err := requiredText(obj, "shipment_id")
	if err != nil {
		return "", err
	}
	if !store.ValidID(id) {
		return "", errs.Invalid("shipment_id must be a shipment's id")
	}
	return id, nil
}

// requiredText reads a required non-empty string.
func requiredText(obj lenient.Object, name string) (string, error) {
	v, err := obj.Field(name).String()
	if err != nil {
		return "", err
	}
	if v == nil || *v == "" || len(*v) > maxText {
		return "", errs.Invalid("%s must be a non-empty string", name)
	}
	return *v, nil
}
