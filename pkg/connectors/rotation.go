package connectors

import "context"

// RotatingAccessToken is AccessToken for channels whose refresh token rotates: exchange
// gets the channel's current refresh token (initial, the credentials' one, until an
// exchange answered a new one in Token.Refresh) and the runtime keeps the newest sealed for
// every instance, stored before the new access token is used (docs/connectors.md,
// "Rotating refresh tokens").
//
// CONTRACT: this first version does not keep the rotated token yet; the rotation work
// replaces it with the stored, conditional one.
func (s *Session) RotatingAccessToken(ctx context.Context, initial string, exchange func(ctx context.Context, refresh string) (Token, error)) (string, error) {
	return s.AccessToken(ctx, func(ctx context.Context) (Token, error) { return exchange(ctx, initial) })
}
