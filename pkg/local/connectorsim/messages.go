package connectorsim

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/multisell/multisell/pkg/wire"
)

// RejectedTrackingPrefix starts the tracking numbers the simulated channels never accept
// (any case): a shipment that stays failed and is retried, as a channel refusing a
// malformed number would leave it.
const RejectedTrackingPrefix = "INVALID"

// The logical ids of the two queues in template.yaml.
const (
	// OutboxQueue is the channel outbox: what multisell asks the channels to do.
	OutboxQueue = "ChannelOutboxQueue"
	// InboxQueue is the channel inbox: what the connectors answer.
	InboxQueue = "ChannelInboxQueue"
)

// SimulatedError is the error of a result the sim fails on purpose (Sim.FailRate).
const SimulatedError = "simulated channel error"

// ListingReport (inbox, type listing) tells multisell about a listing the channel has;
// pkg/wire has no type for it.
type ListingReport struct {
	Type            string `json:"type"`
	ChannelUUID     string `json:"channel_uuid"`
	ChannelSKU      string `json:"channel_sku"`
	ListingRef      string `json:"listing_ref"`
	ChannelQuantity int64  `json:"channel_quantity"`
}

// idPattern is what an account id or a channel uuid may look like: they name the sim's
// folders and files, so nothing that could leave the state directory.
var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$`)

// gzipBase64 starts a body made by multisell's internal queue codec (gzip in base64).
const gzipBase64 = "H4sI"

// decode reads an outbox message body into a *wire.QuantityMessage or a
// *wire.TrackingMessage.
// attrAccount is the message's account_id attribute, used when the body has none. An error
// means the message cannot be applied at all (the sim drops it).
func decode(body, attrAccount string) (any, error) {
	trimmed := strings.TrimSpace(body)
	if strings.HasPrefix(trimmed, gzipBase64) {
		return nil, errors.New("the body is gzip in base64 (multisell's internal queue codec); the channel outbox carries plain JSON")
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal([]byte(trimmed), &keys); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	var typ string
	if err := json.Unmarshal(keys["type"], &typ); err != nil || typ == "" {
		return nil, errors.New(`no "type"`)
	}
	var (
		msg      any
		required []string
	)
	switch typ {
	case wire.TypeListingQuantity:
		msg, required = &wire.QuantityMessage{}, []string{"channel_uuid", "channel_sku", "quantity", "version"}
	case wire.TypeShipmentTracking:
		msg, required = &wire.TrackingMessage{}, []string{"channel_uuid", "shipment_id"}
	default:
		return nil, fmt.Errorf("unknown type %q", typ)
	}
	for _, k := range required {
		if v, ok := keys[k]; !ok || bytes.Equal(v, []byte("null")) {
			return nil, fmt.Errorf("%s: no %q", typ, k)
		}
	}
	if err := json.Unmarshal([]byte(trimmed), msg); err != nil {
		return nil, fmt.Errorf("%s: %w", typ, err)
	}
	var account, channel *string
	switch m := msg.(type) {
	case *wire.QuantityMessage:
		account, channel = &m.AccountID, &m.ChannelUUID
		if m.ChannelSKU == "" {
			return nil, fmt.Errorf("%s: empty channel_sku", typ)
		}
	case *wire.TrackingMessage:
		account, channel = &m.AccountID, &m.ChannelUUID
		if m.ShipmentID == "" {
			return nil, fmt.Errorf("%s: empty shipment_id", typ)
		}
	}
	if *account == "" {
		*account = attrAccount
	}
	if !idPattern.MatchString(*account) {
		return nil, fmt.Errorf("%s: account_id %q is missing or not an id", typ, *account)
	}
	if !idPattern.MatchString(*channel) {
		return nil, fmt.Errorf("%s: channel_uuid %q is not an id", typ, *channel)
	}
	return msg, nil
}

// encode is the JSON body of an inbox message, with every character beyond ASCII escaped:
// SQS accepts only some Unicode in a body (fauxqs less than AWS), and any JSON reader reads
// \u escapes back.
func encode(v any) (string, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for len(data) > 0 {
		r, size := utf8.DecodeRune(data)
		data = data[size:]
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case r > 0xFFFF:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String(), nil
}

// dedupID is the deduplication id of an inbox message: the body's hash with a nonce, so two
// identical answers to different deliveries are both kept.
func dedupID(body, nonce string) string {
	sum := sha256.Sum256([]byte(body + "\x00" + nonce))
	return hex.EncodeToString(sum[:])
}

// clip shortens s for a log line.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "..."
}
