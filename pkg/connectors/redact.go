package connectors

import (
	"encoding/json"
	"errors"

	"github.com/multisell/multisell/pkg/redact"
)

// secretsOf are the values of a channel's plaintext credentials (JSON) that redact.Text takes
// out of what the channel answers: all but those that name the marketplace account or its
// address (identities), which every error would lose and which are no secret.
func secretsOf(credentials []byte) []string {
	var v map[string]any
	_ = json.Unmarshal(credentials, &v)
	for _, k := range Identities {
		delete(v, k)
	}
	return redact.Secrets(v)
}

// Identities are the credential fields that name the account on the marketplace, its shop
// or its location: no secrets, so an error may name them (docs/connectors.md, "What a channel
// answers").
var Identities = []string{"shop_domain", "seller_id", "marketplace_id", "location_id", "shop_id"}

// Clean is s with the session's credential values and access token, and anything shaped like
// a secret, taken out (redact.Text): what the channel's words may carry before anything of
// them is stored, logged or published.
func (s *Session) Clean(text string) string {
	return redact.Text(text, append(s.secrets, s.token)...)
}

// clean is err with its text cleaned (Clean); the errors it wraps are still found by
// errors.As, an *AuthError's Message cleaned in place.
func (s *Session) clean(err error) error {
	if err == nil {
		return nil
	}
	var c *cleaned
	if errors.As(err, &c) {
		return err
	}
	var ae *AuthError
	if errors.As(err, &ae) {
		ae.Message = s.Clean(ae.Message)
	}
	return &cleaned{text: s.Clean(err.Error()), err: err}
}

// cleaned is an error of the channel's words with its text cleaned.
type cleaned struct {
	text string
	err  error
}

// Error implements the error interface: the cleaned text.
func (c *cleaned) Error() string { return c.text }

// Unwrap returns the error as the connector returned it.
func (c *cleaned) Unwrap() error { return c.err }
