package connectors

import (
	"context"
	"errors"
	"fmt"
)

// Forbidden is the channel refusing one operation to this seller while it takes its token
// (Amazon's 403 for a role the app lacks, such as Product Listing): the operation's failure,
// never a refusal of the credentials. It never counts toward the channel's disconnection: a
// push of that operation is answered failed with the channel's message, and the channel's
// other operations (its orders) go on. Token says the channel named the access token
// itself (expired or revoked): the cached token is dropped, so the next call exchanges a new
// one, whose refusal at the token endpoint is what counts. Err is the channel's own error.
type Forbidden struct {
	Op, Message string
	Token       bool
	Err         error
}

// Error implements the error interface.
func (e *Forbidden) Error() string {
	return fmt.Sprintf("the channel does not allow %s: %s", e.Op, e.Message)
}

// Unwrap returns the channel's own error.
func (e *Forbidden) Unwrap() error { return e.Err }

// forbidden is Refused's answer to a *Forbidden: err as it is, the cached access token
// dropped first when the channel named it (DropToken).
func (s *Session) forbidden(ctx context.Context, err error) error {
	var fb *Forbidden
	if !errors.As(err, &fb) || !fb.Token {
		return err
	}
	if derr := s.DropToken(ctx); derr != nil {
		return errors.Join(err, derr)
	}
	return err
}

// DropToken forgets the channel's cached access token, counting no refusal: the channel
// said the token is expired or revoked before its time, so the next call exchanges a new
// one (whose refusal at the token endpoint counts). Only that token is dropped: one another
// instance stored since stays. A Verify session drops its own only.
func (s *Session) DropToken(ctx context.Context) error {
	held := s.token != ""
	s.token = ""
	if s.verify || !held {
		return nil
	}
	return s.rt.dropToken(ctx, tokenID(s.Account, s.Channel), s.exp.UnixMilli())
}
