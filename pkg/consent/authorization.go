package consent

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
	"github.com/multisell/multisell/pkg/redact"
)

// Lifetime is how long an authorization's state may come back: ten minutes.
const Lifetime = 10 * time.Minute

// MaxBody is the largest body of POST /channels/authorizations.
const MaxBody = 16 << 10

// Limits of an authorization's fields, in characters.
const (
	maxName  = 200
	maxType  = 64
	maxField = 256
)

// Input is the body of POST /channels/authorizations: the channel type, the channel's name
// ("": the type's display name), where the browser goes when the consent is done ("": a
// page of multisell's says how it went) and the type's own fields (marketplace_id,
// shop_domain, ...).
type Input struct {
	Type, Name, ReturnURL string
	Fields                map[string]string
}

// Authorization is an authorization as POST /channels/authorizations answers it: the URL
// of the marketplace's consent page the merchant opens, and when its state expires.
type Authorization struct {
	Type       string
	Name       string
	ReturnURL  string
	Fields     map[string]string
	ConsentURL string
	ExpiresAt  string
}

// MarshalJSON is the authorization with the type's fields beside the others, as the
// request had them: {"type","name","return_url",...fields,"consent_url","expires_at"}.
func (a Authorization) MarshalJSON() ([]byte, error) {
	m := map[string]any{"type": a.Type, "name": a.Name, "return_url": nullable(a.ReturnURL),
		"consent_url": a.ConsentURL, "expires_at": a.ExpiresAt}
	for k, v := range a.Fields {
		m[k] = v
	}
	return json.Marshal(m)
}

// nullable is s, or nil for "".
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// known are the members of an authorization that are not the type's own fields.
var known = []string{"type", "name", "return_url"}

// ParseInput reads the body {"authorization":{"type","name","return_url",...fields}}: the
// type's own fields are every other member, each a string (checked against the type's
// ConsentFields by the Service).
func ParseInput(body lenient.Object) (Input, error) {
	f := body.Field("authorization")
	f.Name = "authorization"
	if !f.Set() {
		return Input{}, errs.Invalid("authorization is required")
	}
	obj, err := f.Object()
	if err != nil {
		return Input{}, err
	}
	var in Input
	if in.Type, err = text(obj, "type", maxType, true); err != nil {
		return Input{}, err
	}
	if in.Name, err = text(obj, "name", maxName, false); err != nil {
		return Input{}, err
	}
	if in.ReturnURL, err = text(obj, "return_url", maxURL, false); err != nil {
		return Input{}, err
	}
	in.Fields = map[string]string{}
	for k := range obj {
		if slices.Contains(known, k) {
			continue
		}
		if utf8.RuneCountInString(k) > maxType || lenient.HasControl(k) {
			return Input{}, errs.Invalid("authorization has a member whose name is not a field of any channel type")
		}
		if in.Fields[k], err = text(obj, k, maxField, true); err != nil {
			return Input{}, err
		}
	}
	return in, nil
}

// maxURL is the longest return_url (the webhook URL rules' own limit applies too).
const maxURL = 2048

// text reads the member name of obj: a string of at most max characters without control
// characters, required or "" when absent or null. Its value is never quoted.
func text(obj lenient.Object, name string, max int, required bool) (string, error) {
	f := obj.Field(name)
	f.Name = "authorization." + name
	s, err := f.String()
	switch {
	case err != nil:
		return "", err
	case s == nil || strings.TrimSpace(*s) == "":
		if required {
			return "", errs.Invalid("%s is required", f.Name)
		}
		return "", nil
	case utf8.RuneCountInString(*s) > max:
		return "", errs.Invalid("%s must be at most %d characters", f.Name, max)
	case lenient.HasControl(*s):
		return "", errs.Invalid("%s must not contain control characters", f.Name)
	}
	return *s, nil
}

// checkFields holds the input's fields to the type's: every one it requires, no other.
func checkFields(display string, want []string, got map[string]string) error {
	for _, k := range want {
		if got[k] == "" {
			return errs.Invalid("authorization.%s is required for %s", k, display)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if !slices.Contains(want, k) {
			return errs.Invalid("authorization.%s is not a field of %s authorizations (they take %s)", redact.Clip(k, maxType), display, strings.Join(append(slices.Clone(known), want...), ", "))
		}
	}
	return nil
}

// stateSep separates the account from the secret part of a state.
const stateSep = "."

// newState is a new state of the account: the account id (which keys the pending
// authorization) and 130 random bits (rand.Text) that only the browser and the marketplace
// see. The table keeps the secret part's digest only (secretDigest).
func newState(account string) (state, secret string) {
	secret = rand.Text()
	return account + stateSep + secret, secret
}

// splitState is a state's account and secret part; false for anything not shaped like one.
func splitState(state string) (account, secret string, ok bool) {
	account, secret, ok = strings.Cut(state, stateSep)
	if !ok || account == "" || len(secret) != len(rand.Text()) || len(account) > 64 || lenient.HasControl(account) {
		return "", "", false
	}
	return account, secret, true
}

// secretDigest is the hex SHA-256 of a state's secret part: the pending authorization's key.
func secretDigest(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// newVerifier is a new PKCE code verifier (RFC 7636: 32 random bytes, base64url, 43
// characters) and its S256 challenge. Every authorization has one; the connectors of
// marketplaces that take PKCE (Etsy) send them.
func newVerifier() (verifier, challenge string) {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	verifier = base64.RawURLEncoding.EncodeToString(b)
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

// CallbackURL is the callback route of the connector name under the API's base URL (with
// its stage, https://api.example.com/v1): the redirect URI its app registers with the
// marketplace.
func CallbackURL(base, name string) string {
	return strings.TrimSuffix(base, "/") + "/channels/authorizations/" + name + "/callback"
}
