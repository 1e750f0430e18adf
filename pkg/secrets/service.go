package secrets

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"fmt"

	"github.com/multisell/multisell/pkg/errs"
)

// Service seals and opens the secrets of one purpose under the KMS key of Keys.
type Service struct {
	Keys    Keys
	Purpose Purpose
}

// Seal encrypts plaintext for the channel of the account: a new data key from KMS, bound
// to the account, the channel and the purpose, and AES-256-GCM with a random nonce. A
// plaintext over MaxPlaintext is a KindTooLarge error; a KMS outage is KindUnavailable.
func (s Service) Seal(ctx context.Context, account, channel string, plaintext []byte) (Sealed, error) {
	sub := subject{purpose: s.Purpose, account: account, channel: channel}
	if err := sub.check(); err != nil {
		return nil, err
	}
	if len(plaintext) > MaxPlaintext {
		return nil, errs.TooLarge(fmt.Sprintf("a secret may have %d bytes at most", MaxPlaintext))
	}
	key, blob, err := s.Keys.DataKey(ctx, sub.encryptionContext())
	if err != nil {
		return nil, fmt.Errorf("seal %s of channel %s: %w", s.Purpose, channel, err)
	}
	defer clear(key)
	aead, err := gcm(key)
	if err != nil {
		return nil, fmt.Errorf("seal %s of channel %s: %w", s.Purpose, channel, err)
	}
	nonce := make([]byte, nonceSize)
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("seal %s of channel %s: nonce: %w", s.Purpose, channel, err)
	}
	ct := aead.Seal(nil, nonce, plaintext, sub.additionalData())
	return envelope{keyBlob: blob, nonce: nonce, ciphertext: ct}.encode(), nil
}

// Open decrypts what Seal sealed for the same account, channel and purpose under the same
// key. A value that does not open has ErrCannotOpen in its error's chain (kind conflict); a
// KMS outage is KindUnavailable. The caller owns the plaintext, and clears it when done.
func (s Service) Open(ctx context.Context, account, channel string, sealed Sealed) ([]byte, error) {
	sub := subject{purpose: s.Purpose, account: account, channel: channel}
	if err := sub.check(); err != nil {
		return nil, err
	}
	env, err := parse(sealed)
	if err != nil {
		return nil, fmt.Errorf("open %s of channel %s: %w", s.Purpose, channel, CannotOpen(err))
	}
	key, err := s.Keys.DecryptKey(ctx, env.keyBlob, sub.encryptionContext())
	if err != nil {
		return nil, fmt.Errorf("open %s of channel %s: %w", s.Purpose, channel, err)
	}
	defer clear(key)
	aead, err := gcm(key)
	if err != nil {
		return nil, fmt.Errorf("open %s of channel %s: %w", s.Purpose, channel, CannotOpen(err))
	}
	plain, err := aead.Open(nil, env.nonce, env.ciphertext, sub.additionalData())
	if err != nil {
		return nil, fmt.Errorf("open %s of channel %s: %w", s.Purpose, channel, CannotOpen(err))
	}
	return plain, nil
}

// gcm is AES-256-GCM under key (which must be 32 bytes: AES_256 data keys are).
func gcm(key []byte) (cipher.AEAD, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("data key of %d bytes, want 32", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}
