package push

import (
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
)

// Header is what every outbox message starts with: what it is (its type,
// "listing.quantity", "shipment.tracking", ...), the account and the
// channel it is for, so a connector can route it before reading the rest.
// A domain's message embeds it first.
type Header struct {
	Type        string `json:"type"`
	AccountID   string `json:"account_id"`
	ChannelUUID string `json:"channel_uuid"`
	ChannelType string `json:"channel_type"`
}

// PushHeader returns h: a message that embeds a Header is a Message.
func (h Header) PushHeader() Header { return h }

// ParseOutcome reads what every result message says of the push: ok
// (required, true or false) and error (optional text). The domain reads
// what names the item and the version.
func ParseOutcome(obj lenient.Object) (Result, error) {
	ok, err := obj.Field("ok").Bool()
	if err != nil || ok == nil {
		return Result{}, errs.Invalid("ok must be true or false")
	}
	res := Result{OK: *ok}
	if res.Error, err = obj.Field("error").String(); err != nil {
		return Result{}, err
	}
	return res, nil
}
