package secrets

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/multisell/multisell/pkg/errs"
)

// Sealed is a sealed secret in its stored form (version 1):
//
//	byte 0         the format's version, 1
//	bytes 1-2      n, the length of the encrypted data key (big endian)
//	n bytes        the data key as KMS encrypted it (a KMS ciphertext blob)
//	12 bytes       the AES-GCM nonce
//	the rest       the AES-256-GCM ciphertext of the secret, with its 16-byte tag
//
// It holds neither the secret nor the data key in clear.
type Sealed []byte

// Purpose says what a sealed value is; it is part of what the value is bound to, so a value
// sealed for one purpose never opens as another (a cached token as credentials).
type Purpose string

// The purposes of sealed values.
const (
	// Credentials is a channel's credentials document (JSON).
	Credentials Purpose = "channel-credentials"
	// AccessToken is an access token cached for a channel.
	AccessToken Purpose = "access-token"
)

// Limits of the stored form.
const (
	// MaxPlaintext is the largest secret Seal takes: a credentials document or a token is
	// a few kilobytes at most.
	MaxPlaintext = 16 << 10
	// maxKeyBlob bounds the encrypted data key (KMS's own blobs of a symmetric key are
	// under 200 bytes; its ciphertexts are at most 6,144).
	maxKeyBlob = 6144
	version1   = 1
	nonceSize  = 12
	tagSize    = 16
	headerSize = 3
)

// ErrCannotOpen is in the chain of Open's error for a value that does not open: not of
// this format, altered, sealed under another key, or for another account, channel or
// purpose. Sealing the secret again (the channel's credentials given anew) is the only
// remedy; a retry is not.
var ErrCannotOpen = errors.New("the sealed value cannot be opened")

// CannotOpen is the error of a value that does not open, of kind conflict (the stored
// value is unusable), with why for the logs; ErrCannotOpen is in its chain.
func CannotOpen(why error) error {
	return &errs.Error{Kind: errs.KindConflict, Message: "the stored secret cannot be opened; set it again",
		Err: errors.Join(ErrCannotOpen, why)}
}

// envelope is the parts of a Sealed value.
type envelope struct {
	keyBlob, nonce, ciphertext []byte
}

// encode returns the stored form of e.
func (e envelope) encode() Sealed {
	out := make([]byte, 0, headerSize+len(e.keyBlob)+len(e.nonce)+len(e.ciphertext))
	out = append(out, version1)
	out = binary.BigEndian.AppendUint16(out, uint16(len(e.keyBlob)))
	out = append(out, e.keyBlob...)
	out = append(out, e.nonce...)
	return append(out, e.ciphertext...)
}

// parse reads a stored form; the parts alias s.
func parse(s Sealed) (envelope, error) {
	if len(s) < headerSize {
		return envelope{}, fmt.Errorf("%d bytes, shorter than the header", len(s))
	}
	if s[0] != version1 {
		return envelope{}, fmt.Errorf("unknown version %d", s[0])
	}
	n := int(binary.BigEndian.Uint16(s[1:headerSize]))
	if n == 0 || n > maxKeyBlob {
		return envelope{}, fmt.Errorf("encrypted data key of %d bytes", n)
	}
	rest := s[headerSize:]
	if len(rest) < n+nonceSize+tagSize {
		return envelope{}, fmt.Errorf("%d bytes, too short for a data key of %d bytes, a nonce and a tag", len(s), n)
	}
	if len(rest)-n-nonceSize-tagSize > MaxPlaintext {
		return envelope{}, fmt.Errorf("ciphertext of %d bytes, over the limit", len(rest)-n-nonceSize)
	}
	return envelope{keyBlob: rest[:n], nonce: rest[n : n+nonceSize], ciphertext: rest[n+nonceSize:]}, nil
}

// subject is what a sealed value is bound to.
type subject struct {
	purpose          Purpose
	account, channel string
}

// check refuses a subject without an account or a channel (a caller's bug).
func (s subject) check() error {
	if s.purpose == "" || s.account == "" || s.channel == "" {
		return fmt.Errorf("seal or open needs a purpose, an account and a channel (got %q, %q, %q)", s.purpose, s.account, s.channel)
	}
	return nil
}

// additionalData is the GCM additional data: the format's version, then the purpose, the
// account and the channel, each preceded by its length, so no two subjects share it.
func (s subject) additionalData() []byte {
	out := []byte{version1}
	for _, f := range []string{string(s.purpose), s.account, s.channel} {
		out = binary.BigEndian.AppendUint32(out, uint32(len(f)))
		out = append(out, f...)
	}
	return out
}

// encryptionContext is the KMS encryption context of the data key: the same subject, which
// KMS binds the encrypted data key to (and writes in CloudTrail).
func (s subject) encryptionContext() map[string]string {
	return map[string]string{"purpose": string(s.purpose), "account": s.account, "channel": s.channel}
}
