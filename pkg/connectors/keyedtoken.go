package connectors

import (
	"context"
	"fmt"
)

// keyedTokenID names a token of the channel other than its access token (Amazon's
// Restricted Data Token): SK <channel>␟token␟<key>, kept as the access token is.
func keyedTokenID(account, channel, key string) itemID {
	return itemID{account, channel, []string{"token", key}}
}

// KeyedToken returns the channel's token key, a token the connector gets with its access
// token for some calls (Amazon's Restricted Data Token): the one cached in the table while
// it is more than TokenSkew from expiring and was got with the credentials the session
// holds, else a new one from get, cached sealed (the Sealer, as the access token) for every
// instance. Its refusal counts toward nothing: get's error is returned as it is. Two
// instances may each get one at the same moment; the later one cached wins. A Verify session
// caches nothing.
func (s *Session) KeyedToken(ctx context.Context, key string, get func(context.Context) (Token, error)) (string, error) {
	if s.verify {
		t, err := get(ctx)
		return t.Value, err
	}
	id := keyedTokenID(s.Account, s.Channel, key)
	it, err := s.rt.readToken(ctx, id)
	if err != nil {
		return "", err
	}
	if it.Sealed != nil && it.Creds == s.sealed && s.rt.now().Add(TokenSkew).UnixMilli() < it.Exp {
		plain, err := s.rt.Sealer.Open(ctx, s.Account, s.Channel, it.Sealed)
		if err != nil {
			return "", fmt.Errorf("open the cached %s token: %w", key, err)
		}
		return string(plain), nil
	}
	t, err := get(ctx)
	if err != nil {
		return "", err
	}
	sealed, err := s.rt.Sealer.Seal(ctx, s.Account, s.Channel, []byte(t.Value))
	if err != nil {
		return "", fmt.Errorf("seal the %s token: %w", key, err)
	}
	if err := s.rt.putToken(ctx, id, sealed, s.sealed, t.ExpiresAt.UnixMilli()); err != nil {
		return "", err
	}
	return t.Value, nil
}

// DropKeyedToken forgets the channel's cached token key (the channel refused it before its
// time), so that the next KeyedToken gets a new one.
func (s *Session) DropKeyedToken(ctx context.Context, key string) error {
	if s.verify {
		return nil
	}
	return s.rt.dropToken(ctx, keyedTokenID(s.Account, s.Channel, key), 0)
}
