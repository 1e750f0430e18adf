package webhookhttp

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// The headers of a delivery.
const (
	// HeaderID is the event's id; a receiver dedupes on it.
	HeaderID = "webhook-id"
	// HeaderTimestamp is when the attempt was signed, in unix seconds.
	HeaderTimestamp = "webhook-timestamp"
	// HeaderSignature holds one "v1,<base64 signature>" entry per secret, separated by
	// a space.
	HeaderSignature = "webhook-signature"
)

// SecretPrefix starts every secret; the rest is the key's bytes in base64.
const SecretPrefix = "whsec_"

// secretBytes is the size of the key of a secret NewSecret makes.
const secretBytes = 32

// errNoKey is a secret that is not "whsec_" and base64. Its message never holds the
// secret.
var errNoKey = errors.New(`not a secret of the form "whsec_" and base64`)

// NewSecret returns a new signing secret: "whsec_" and the standard, padded base64 of 32
// random bytes.
func NewSecret() (string, error) {
	key := make([]byte, secretBytes)
	if _, err := rand.Read(key); err != nil {
		return "", fmt.Errorf("new webhook secret: %w", err)
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(key), nil
}

// ValidSecret reports whether s has the form NewSecret gives: "whsec_" and the standard,
// padded base64 of exactly 32 bytes.
func ValidSecret(s string) bool {
	rest, ok := strings.CutPrefix(s, SecretPrefix)
	if !ok || len(rest) != base64.StdEncoding.EncodedLen(secretBytes) {
		return false
	}
	key, err := base64.StdEncoding.Strict().DecodeString(rest)
	return err == nil && len(key) == secretBytes
}

// webhook returns the reference implementation's signer for secret, which must be
// "whsec_" and the standard base64 of a non-empty key (any length, so the
// specification's own example, a 24-byte key, signs too).
func webhook(secret string) (*standardwebhooks.Webhook, error) {
	rest, ok := strings.CutPrefix(secret, SecretPrefix)
	if !ok {
		return nil, errNoKey
	}
	key, err := base64.StdEncoding.DecodeString(rest)
	if err != nil || len(key) == 0 {
		return nil, errNoKey // err names a byte offset only, but the secret is no one's business
	}
	wh, err := standardwebhooks.NewWebhookRaw(key)
	if err != nil {
		return nil, fmt.Errorf("webhook signer: %w", err)
	}
	return wh, nil
}

// Sign returns the webhook-signature header of a delivery of body with event id id,
// signed at at: one "v1,<signature>" entry per secret, in the order given (newest first
// during a rotation), separated by one space. The error never holds a secret.
func Sign(secrets []string, id string, at time.Time, body []byte) (string, error) {
	if len(secrets) == 0 {
		return "", errors.New("sign webhook: no secret")
	}
	entries := make([]string, 0, len(secrets))
	for i, s := range secrets {
		wh, err := webhook(s)
		if err != nil {
			return "", fmt.Errorf("sign webhook: secret %d of %d: %w", i+1, len(secrets), err)
		}
		sig, err := wh.Sign(id, at, body)
		if err != nil {
			return "", fmt.Errorf("sign webhook: %w", err)
		}
		entries = append(entries, sig)
	}
	return strings.Join(entries, " "), nil
}

// VerifyError is a delivery Verify refuses. Reason is short and fit to print ("no
// matching signature", "timestamp too old"); the error wraps the reference
// implementation's error, so errors.Is finds its sentinels.
type VerifyError struct {
	Reason string
	err    error
}

// Error implements the error interface.
func (e *VerifyError) Error() string { return "verify webhook: " + e.Reason }

// Unwrap returns the reference implementation's error.
func (e *VerifyError) Unwrap() error { return e.err }

// Verify checks a delivery as a receiver does, with the Standard Webhooks reference
// implementation: the three headers are present, the timestamp is within 5 minutes of
// now, and one of the signature's v1 entries is body's signature under secret. A nil
// error means verified; otherwise the error is a *VerifyError, or says that the secret
// itself is unusable (without showing it).
func Verify(secret string, header http.Header, body []byte) error {
	wh, err := webhook(secret)
	if err != nil {
		return fmt.Errorf("verify webhook: the secret is %w", err)
	}
	err = wh.Verify(body, header)
	if err == nil {
		return nil
	}
	reason := "invalid delivery"
	switch {
	case errors.Is(err, standardwebhooks.ErrRequiredHeaders):
		reason = "missing webhook-id, webhook-timestamp or webhook-signature header"
	case errors.Is(err, standardwebhooks.ErrInvalidHeaders):
		reason = "webhook-timestamp is not unix seconds"
	case errors.Is(err, standardwebhooks.ErrMessageTooOld):
		reason = "timestamp too old"
	case errors.Is(err, standardwebhooks.ErrMessageTooNew):
		reason = "timestamp too far in the future"
	case errors.Is(err, standardwebhooks.ErrNoMatchingSignature):
		reason = "no matching signature"
	}
	return &VerifyError{Reason: reason, err: err}
}
