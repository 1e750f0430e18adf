package connectors

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/multisell/multisell/pkg/redact"
)

// MaxPollPages bounds the pages of orders one poll reads (50 orders a page on the generic
// marketplace): a poll that reads them all stores its cursor and leaves the rest to the next
// tick (docs/connectors.md).
const MaxPollPages = 100

// BadAnswer is a channel's answer the runtime refuses: a page token it answered before, an
// order document that names another channel, or an order the connector could not map. A
// poll that ends on one keeps its cursor; the Service records it as the channel's last error
// and counts it (ChannelBadAnswer).
type BadAnswer struct {
	Channel, Reason string
}

// Error implements the error interface.
func (e *BadAnswer) Error() string {
	return fmt.Sprintf("channel %s answered badly: %s", e.Channel, e.Reason)
}

// pager follows the page tokens of one poll: it refuses a token answered before and stops at
// MaxPollPages.
type pager struct {
	seen map[string]bool
}

// next judges the token next of the page just read, the pages-th: done when the poll reads
// no further page (the last page, or MaxPollPages read), a *BadAnswer for a token the poll
// answered before.
func (p *pager) next(s *Session, token string, pages int) (done bool, err error) {
	if token == "" {
		return true, nil
	}
	if p.seen[token] {
		return true, &BadAnswer{Channel: s.Channel, Reason: fmt.Sprintf(
			"page %d answered the page token %q again: the poll ended there", pages, redact.Clip(s.Clean(token), 64))}
	}
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	p.seen[token] = true
	return pages >= MaxPollPages, nil
}

// bind keeps the orders whose document names the polled channel (channel_uuid); it returns
// them and the reasons of the others, which the runtime refuses: a channel answers for
// itself only, never for the account's other channels.
func bind(channel string, orders []Order) (kept []Order, refused []string) {
	for _, o := range orders {
		var doc struct {
			ChannelUUID *string `json:"channel_uuid"`
		}
		switch err := json.Unmarshal(o.Document, &doc); {
		case err != nil:
			refused = append(refused, fmt.Sprintf("order %q is no JSON object", o.Ref))
		case doc.ChannelUUID == nil:
			refused = append(refused, fmt.Sprintf("order %q names no channel_uuid", o.Ref))
		case *doc.ChannelUUID != channel:
			refused = append(refused, fmt.Sprintf("order %q names channel %q", o.Ref, redact.Clip(*doc.ChannelUUID, 40)))
		default:
			kept = append(kept, o)
		}
	}
	return kept, refused
}

// refusedOrders is the *BadAnswer of the orders a poll refused: those bind refused and those
// the connector could not map.
func refusedOrders(s *Session, refused []string) *BadAnswer {
	return &BadAnswer{Channel: s.Channel, Reason: fmt.Sprintf("%d orders refused: %s",
		len(refused), s.Clean(strings.Join(refused, "; ")))}
}
