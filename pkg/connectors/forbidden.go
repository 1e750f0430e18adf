package connectors

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
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
// one (whose refusal at the token endpoint counts). A Verify session drops its own only.
func (s *Session) DropToken(ctx context.Context) error {
	s.token = ""
	if s.verify {
		return nil
	}
	return s.rt.dropToken(ctx, tokenID(s.Account, s.Channel))
}

// dropToken removes the channel's cached access token, counting no refusal.
func (r *Runtime) dropToken(ctx context.Context, id itemID) error {
	u := store.Update{Remove: []string{"sealed", "exp"}}
	if _, err := r.update(ctx, id, u, types.ReturnValueNone); err != nil {
		return fmt.Errorf("drop the access token: %w", err)
	}
	return nil
}
