package connectors

import (
	"context"
	"errors"
	"fmt"

	"github.com/multisell/multisell/pkg/store"
)

// A notice is something the channel does not allow that the connector works around, which
// the merchant should know of once (Amazon refusing the Restricted Data Token of the orders'
// addresses: orders import without them). It is kept per channel and key in the item
//
//	SK <channel>␟notice␟<key>  message
//
// so that a poll reports it once (OrderPage.Notices, PollResult.Notices: the Service records
// it as the connection's last error), not at every poll, until EndNotice.
func noticeID(account, channel, key string) itemID {
	return itemID{account, channel, []string{"notice", key}}
}

// Notice records message as the channel's notice key and reports whether it is new (no
// notice of key, or another message, was recorded): only then does the connector put it in
// its page's Notices. A Verify session records nothing: every notice is new to it.
func (s *Session) Notice(ctx context.Context, key, message string) (bool, error) {
	if s.verify {
		return true, nil
	}
	var u store.Update
	u.SetValue("message", store.S(message))
	u.Condition = "attribute_not_exists(#message) OR #message <> :message"
	err := s.rt.write(ctx, noticeID(s.Account, s.Channel, key), u)
	switch {
	case errors.Is(err, errConditionFailed):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("record the channel's notice: %w", err)
	}
	return true, nil
}

// EndNotice forgets the channel's notice key (what it said no longer holds), so that it is
// reported again if it comes back.
func (s *Session) EndNotice(ctx context.Context, key string) error {
	if s.verify {
		return nil
	}
	u := store.Update{Remove: []string{"message"}, Condition: "attribute_exists(#message)"}
	err := s.rt.write(ctx, noticeID(s.Account, s.Channel, key), u)
	if err != nil && !errors.Is(err, errConditionFailed) {
		return fmt.Errorf("end the channel's notice: %w", err)
	}
	return nil
}
