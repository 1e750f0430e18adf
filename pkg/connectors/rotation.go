package connectors

import (
	"context"
	"errors"
	"fmt"
)

// RotatingAccessToken is AccessToken for channels whose refresh token rotates (Shopify's
// expiring offline tokens, Etsy): exchange trades the channel's newest refresh token for an
// access token and, in Token.Refresh, the refresh token that replaces it. The newest is kept
// sealed in the channel's token item for every instance, bound to the credentials it
// descends from: until an exchange stored one, and again after new credentials (a PATCH, a
// reconnection), it is initial, the credentials' own.
//
// One instance at a time exchanges (the lease of AccessToken), and the rotated refresh token
// and the access token are stored with one conditional write before the access token is
// used: the lease still this instance's, or, when it expired and another instance claimed
// it, no newer refresh token stored since. An exchange whose write lost (another instance
// stored the newer one) is discarded and the stored token used. A refused exchange counts
// toward the channel's disconnection as AccessToken's does, its reason telling the merchant
// to reconnect the channel; a refusal after another instance rotated the token meanwhile is
// not one. After any other failure the lease is released at once, and the next exchange
// spends the stored token again. A Verify session stores nothing: it spends initial and
// drops its replacement. docs/connectors.md, "Rotating refresh tokens", says why this
// recovers every lost write the marketplace lets a client recover.
func (s *Session) RotatingAccessToken(ctx context.Context, initial string, exchange func(ctx context.Context, refresh string) (Token, error)) (string, error) {
	return s.accessToken(ctx, func(ctx context.Context) (Token, error) { return exchange(ctx, initial) },
		func(ctx context.Context, id itemID, it tokenItem) (string, error) {
			return s.rotate(ctx, id, it, initial, exchange)
		})
}

// errRotated is a rotating exchange that found the token item changed under it: another
// instance stored a newer refresh token, which the next attempt uses.
var errRotated = errors.New("the refresh token was rotated by another instance")

// reconnect ends the reason of a refused rotating exchange.
const reconnect = " (the channel's refresh token was refused: spent, expired or revoked; reconnect the channel by consent, POST /v1/channels/authorizations)"

// rotate makes the exchange this instance claimed (it, the token item as the claim left it)
// with the channel's newest refresh token, and stores what it answered (putRotated).
func (s *Session) rotate(ctx context.Context, id itemID, it tokenItem, initial string, exchange func(context.Context, string) (Token, error)) (string, error) {
	refresh := initial
	if it.Refresh != nil && it.RefreshCreds == s.sealed {
		plain, err := s.rt.Sealer.Open(ctx, s.Account, s.Channel, it.Refresh)
		if err != nil {
			return "", fmt.Errorf("open the stored refresh token: %w", err)
		}
		refresh = string(plain)
	}
	t, err := exchange(ctx, refresh)
	ae := (*AuthError)(nil)
	if errors.As(err, &ae) {
		now, rerr := s.rt.readToken(ctx, id)
		if rerr != nil {
			return "", errors.Join(s.clean(err), rerr)
		}
		if now.RefreshGen != it.RefreshGen {
			return "", errRotated
		}
		err = &AuthError{Message: ae.Message + reconnect}
	}
	if err != nil {
		if ae == nil {
			// A failure that is no refusal (a 5xx, a lost answer): the marketplace may have
			// rotated the token, but the stored one is still the newest this channel knows,
			// which Shopify takes again (docs/connectors.md). The next exchange need not wait
			// for the lease to expire.
			err = errors.Join(err, s.rt.release(ctx, id, it.Lease))
		}
		return "", s.Refused(ctx, err)
	}
	if t.Refresh == "" {
		t.Refresh = refresh // the marketplace kept the refresh token this time
	}
	access, err := s.rt.Sealer.Seal(ctx, s.Account, s.Channel, []byte(t.Value))
	if err != nil {
		return "", fmt.Errorf("seal the access token: %w", err)
	}
	next, err := s.rt.Sealer.Seal(ctx, s.Account, s.Channel, []byte(t.Refresh))
	if err != nil {
		return "", fmt.Errorf("seal the refresh token: %w", err)
	}
	err = s.rt.putRotated(ctx, id, rotated{access: access, refresh: next, creds: s.sealed,
		exp: t.ExpiresAt.UnixMilli(), lease: it.Lease, gen: it.RefreshGen})
	if errors.Is(err, errConditionFailed) {
		return "", errRotated
	}
	if err != nil {
		return "", err
	}
	s.token, s.exp, s.refusals = t.Value, t.ExpiresAt, 0
	return t.Value, nil
}
