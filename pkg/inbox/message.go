package inbox

import (
	"encoding/json"
	"strings"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/shipments"
	"github.com/multisell/multisell/pkg/wire"
)

// Message is one inbox message, parsed: its type and the input of the
// domain it concerns.
type Message struct {
	Type string
	// Orders holds the import documents of an order message (one, or a
	// JSON array of them), each validated on import.
	Orders  []json.RawMessage
	Listing listings.Input
	Result  listings.Result
	Retry   listings.Retry
	// ShipmentResult and ShipmentRetry are a shipment.result and a
	// shipment.retry.
	ShipmentResult shipments.Result
	ShipmentRetry  shipments.Retry
}

// Parse reads a message body. A body that is not JSON, an unknown type or
// a message missing what its type needs is an errs kind with the reason.
func Parse(body string) (Message, error) {
	if len(body) > lenient.MaxBodyBytes {
		return Message{}, errs.TooLarge("message is too large")
	}
	trimmed := strings.TrimSpace(body)
	if strings.HasPrefix(trimmed, "[") {
		docs, err := orders.SplitDocuments([]byte(trimmed))
		if err != nil {
			return Message{}, errs.Malformed(err.Error())
		}
		return Message{Type: wire.TypeOrder, Orders: docs}, nil
	}
	obj, err := lenient.DecodeObject(trimmed)
	if err != nil {
		return Message{}, err
	}
	typ, err := obj.Field("type").String()
	if err != nil {
		return Message{}, err
	}
	m := Message{Type: wire.TypeOrder}
	if typ != nil {
		m.Type = *typ
	}
	switch m.Type {
	case wire.TypeOrder:
		m.Orders = []json.RawMessage{json.RawMessage(trimmed)}
	case wire.TypeListing:
		m.Listing, err = listings.ParseReport(obj)
	case wire.TypeListingResult:
		m.Result, err = listings.ParseResult(obj)
	case listings.TypeRetry:
		m.Retry, err = listings.ParseRetry(obj)
	case wire.TypeShipmentResult:
		m.ShipmentResult, err = shipments.ParseResult(obj)
	case shipments.TypeRetry:
		m.ShipmentRetry, err = shipments.ParseRetry(obj)
	default:
		err = errs.Invalid("unknown message type %q", m.Type)
	}
	return m, err
}
