package secrets_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/google/uuid"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/secrets"
	"github.com/multisell/multisell/pkg/secrets/kmskeys"
	"github.com/multisell/multisell/pkg/testenv"
)

// credentials is a credentials document as a channel's connect sends it.
var credentials = []byte(`{"refresh_token":"Atzr|IwEBIO-secret-refresh","client_id":"amzn1.application-oa2-client.1",` +
	`"client_secret":"amzn1.oa2-cs.v1.top-secret","seller_id":"A1SELLER","marketplace_id":"ATVPDKIKX0DER"}`)

// sealer is the stack's sealer of credentials, and a new account and channel to seal for.
func sealer(t *testing.T) (env *testenv.Env, s secrets.Service, account, channel string) {
	t.Helper()
	env = testenv.Get(t)
	return env, env.Deps.Secrets(secrets.Credentials), env.NewAccount(t, testenv.AccountOptions{}).ID, uuid.NewString()
}

// sealedCredentials seals credentials with the stack's sealer for a new account and
// channel.
func sealedCredentials(t *testing.T) (env *testenv.Env, s secrets.Service, account, channel string, sealed secrets.Sealed) {
	t.Helper()
	env, s, account, channel = sealer(t)
	sealed, err := s.Seal(context.Background(), account, channel, credentials)
	if err != nil {
		t.Fatal(err)
	}
	return env, s, account, channel, sealed
}

func TestSealOpen(t *testing.T) {
	t.Parallel()
	for name, plain := range map[string][]byte{
		"credentials": credentials,
		"empty":       {},
		"largest":     bytes.Repeat([]byte("x"), secrets.MaxPlaintext),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, s, account, channel := sealer(t)
			ctx := context.Background()
			sealed, err := s.Seal(ctx, account, channel, plain)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Open(ctx, account, channel, sealed)
			if err != nil {
				t.Fatal(err)
			}
			if want := plain; !bytes.Equal(got, want) {
				t.Errorf("Open(Seal(x)) = %q, want %q", got, want)
			}
		})
	}
}

func TestSealTooLarge(t *testing.T) {
	t.Parallel()
	_, s, account, channel := sealer(t)
	_, err := s.Seal(context.Background(), account, channel, make([]byte, secrets.MaxPlaintext+1))
	if got, want := errs.KindOf(err), errs.KindTooLarge; err == nil || got != want {
		t.Errorf("Seal of %d bytes: %v (kind %v), want kind %v", secrets.MaxPlaintext+1, err, got, want)
	}
}

// TestSealedHoldsNoSecret: the stored form holds neither the credentials (nor any of their
// values) nor the data key in clear, and sealing the same value twice gives two values
// under two data keys.
func TestSealedHoldsNoSecret(t *testing.T) {
	t.Parallel()
	env, s, account, channel, sealed := sealedCredentials(t)
	ctx := context.Background()
	for _, secret := range []string{string(credentials), "Atzr|IwEBIO-secret-refresh", "amzn1.oa2-cs.v1.top-secret"} {
		if bytes.Contains(sealed, []byte(secret)) {
			t.Errorf("the sealed value holds %q in clear", secret)
		}
	}
	// The data key, as KMS gives it back for the blob the value holds (after the version
	// and its length).
	n := int(sealed[1])<<8 | int(sealed[2])
	key, err := env.Stack.KMS.Decrypt(ctx, &kms.DecryptInput{
		CiphertextBlob:    sealed[3 : 3+n],
		EncryptionContext: map[string]string{"purpose": string(secrets.Credentials), "account": account, "channel": channel},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(key.Plaintext), 32; got != want {
		t.Fatalf("data key of %d bytes, want %d", got, want)
	}
	if bytes.Contains(sealed, key.Plaintext) {
		t.Error("the sealed value holds its data key in clear")
	}
	again, err := s.Seal(ctx, account, channel, credentials)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(again, sealed) || bytes.Contains(again, key.Plaintext) {
		t.Error("sealing the same value again gave the same value, or used the same data key")
	}
}

// TestOpenRefuses: a value opens only for its account, channel and purpose, under its key,
// and unaltered; anything else is ErrCannotOpen, of kind conflict.
func TestOpenRefuses(t *testing.T) {
	t.Parallel()
	env, s, account, channel, sealed := sealedCredentials(t)
	ctx := context.Background()
	other, err := env.Stack.KMS.CreateKey(ctx, &kms.CreateKeyInput{Description: aws.String(t.Name())})
	if err != nil {
		t.Fatal(err)
	}
	otherKey := s
	otherKey.Keys = kmskeys.Keys{Client: env.Stack.KMS, KeyID: aws.ToString(other.KeyMetadata.KeyId)}
	tampered := func(i int) secrets.Sealed {
		out := bytes.Clone(sealed)
		out[i] ^= 0x01
		return out
	}
	n := int(sealed[1])<<8 | int(sealed[2])
	anotherAccount := env.NewAccount(t, testenv.AccountOptions{}).ID
	tests := []struct {
		name             string
		s                secrets.Service
		account, channel string
		sealed           secrets.Sealed
	}{
		{"another key", otherKey, account, channel, sealed},
		{"another account", s, anotherAccount, channel, sealed},
		{"another channel", s, account, uuid.NewString(), sealed},
		{"account and channel swapped", s, channel, account, sealed},
		{"another purpose", env.Deps.Secrets(secrets.AccessToken), account, channel, sealed},
		{"version altered", s, account, channel, tampered(0)},
		{"data key length altered", s, account, channel, tampered(2)},
		// The end of the blob: local-kms does not authenticate the key ARN at its start
		// when Decrypt names the key, as Open does; KMS does.
		{"data key altered", s, account, channel, tampered(3 + n - 1)},
		{"nonce altered", s, account, channel, tampered(3 + n)},
		{"ciphertext altered", s, account, channel, tampered(3 + n + 12)},
		{"tag altered", s, account, channel, tampered(len(sealed) - 1)},
		{"truncated", s, account, channel, sealed[:len(sealed)-1]},
		{"empty", s, account, channel, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := tc.s.Open(ctx, tc.account, tc.channel, tc.sealed)
			if err == nil {
				t.Fatalf("Open succeeded: %q", got)
			}
			if !errors.Is(err, secrets.ErrCannotOpen) || errs.KindOf(err) != errs.KindConflict {
				t.Errorf("Open: %v (kind %v), want ErrCannotOpen of kind %v", err, errs.KindOf(err), errs.KindConflict)
			}
			if strings.Contains(err.Error(), "top-secret") {
				t.Errorf("the error tells a secret: %v", err)
			}
		})
	}
}
