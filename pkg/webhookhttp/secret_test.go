package webhookhttp

import (
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// The specification's published example.
const (
	specSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	specID     = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	specAt     = 1614265330
	specBody   = `{"test": 2432232314}`
	specSig    = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

// headers returns the webhook headers of a delivery.
func headers(id string, at time.Time, sig string) http.Header {
	h := http.Header{}
	h.Set(HeaderID, id)
	h.Set(HeaderTimestamp, strconv.FormatInt(at.Unix(), 10))
	h.Set(HeaderSignature, sig)
	return h
}

// newSecret is a fresh secret, failing t on error.
func newSecret(t *testing.T) string {
	t.Helper()
	s, err := NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSignSpecExample(t *testing.T) {
	t.Parallel()
	got, err := Sign([]string{specSecret}, specID, time.Unix(specAt, 0), []byte(specBody))
	if err != nil {
		t.Fatal(err)
	}
	if want := specSig; got != want {
		t.Errorf("Sign = %q, want %q", got, want)
	}
}

func TestSignRotation(t *testing.T) {
	t.Parallel()
	newest, oldest := newSecret(t), newSecret(t)
	at := time.Now()
	body := []byte(`{"seq":1,"id":"evt_1","type":"order.created"}`)
	got, err := Sign([]string{newest, oldest}, "evt_1", at, body)
	if err != nil {
		t.Fatal(err)
	}
	entries := strings.Split(got, " ")
	if len(entries) != 2 {
		t.Fatalf("Sign with two secrets = %q, want two entries separated by one space", got)
	}
	for i, secret := range []string{newest, oldest} {
		t.Run([]string{"newest", "oldest"}[i], func(t *testing.T) {
			t.Parallel()
			one, err := Sign([]string{secret}, "evt_1", at, body)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := entries[i], one; got != want {
				t.Errorf("entry %d = %q, want %q (the secrets' order)", i, got, want)
			}
			wh, err := standardwebhooks.NewWebhook(secret)
			if err != nil {
				t.Fatal(err)
			}
			if err := wh.Verify(body, headers("evt_1", at, entries[i])); err != nil {
				t.Errorf("the module refuses entry %d alone: %v", i, err)
			}
			if err := wh.Verify(body, headers("evt_1", at, got)); err != nil {
				t.Errorf("the module refuses the two-entry header with secret %d: %v", i, err)
			}
		})
	}
}

func TestSignRefuses(t *testing.T) {
	t.Parallel()
	good := newSecret(t)
	cases := []struct {
		name    string
		secrets []string
	}{
		{"no secret", nil},
		{"no prefix", []string{strings.TrimPrefix(good, SecretPrefix)}},
		{"not base64", []string{"whsec_not*base64!"}},
		{"empty key", []string{"whsec_"}},
		{"second secret bad", []string{good, "whsec_???secret-value???"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := Sign(c.secrets, "evt_1", time.Now(), []byte("{}"))
			if err == nil {
				t.Fatalf("Sign = %q, want an error", got)
			}
			for _, s := range c.secrets {
				if rest := strings.TrimPrefix(s, SecretPrefix); rest != "" && strings.Contains(err.Error(), rest) {
					t.Errorf("error %q shows a secret", err)
				}
			}
		})
	}
}

func TestNewSecret(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 20 {
		s := newSecret(t)
		if !ValidSecret(s) {
			t.Fatalf("ValidSecret(%q) = false", s)
		}
		key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(s, SecretPrefix))
		if err != nil || len(key) != 32 {
			t.Fatalf("secret %q: key of %d bytes (%v), want 32", s, len(key), err)
		}
		if seen[s] {
			t.Fatalf("NewSecret repeated %q", s)
		}
		seen[s] = true
	}
}

func TestValidSecret(t *testing.T) {
	t.Parallel()
	key32 := base64.StdEncoding.EncodeToString(make([]byte, 32))
	cases := []struct {
		name   string
		secret string
		want   bool
	}{
		{"32 bytes", "whsec_" + key32, true},
		{"no prefix", key32, false},
		{"other prefix", "whsk_" + key32, false},
		{"unpadded", "whsec_" + strings.TrimRight(key32, "="), false},
		{"url-safe alphabet", "whsec_" + base64.URLEncoding.EncodeToString([]byte{0xfb, 0xff, 0xfe, 30: 0xff, 31: 0xff}), false},
		{"24 bytes (the specification's example)", specSecret, false},
		{"33 bytes", "whsec_" + base64.StdEncoding.EncodeToString(make([]byte, 33)), false},
		{"empty", "", false},
		{"prefix only", "whsec_", false},
		{"trailing space", "whsec_" + key32 + " ", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := ValidSecret(c.secret); got != c.want {
				t.Errorf("ValidSecret(%q) = %v, want %v", c.secret, got, c.want)
			}
		})
	}
}

func TestVerify(t *testing.T) {
	t.Parallel()
	secret, other := newSecret(t), newSecret(t)
	body := []byte(`{"seq":7,"id":"evt_7","type":"order.created"}`)
	now := time.Now()
	sign := func(secrets []string, at time.Time) string {
		s, err := Sign(secrets, "evt_7", at, body)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	cases := []struct {
		name   string
		header http.Header
		body   []byte
		secret string
		want   error // nil: verified
	}{
		{"signed", headers("evt_7", now, sign([]string{secret}, now)), body, secret, nil},
		{"second entry of a rotation", headers("evt_7", now, sign([]string{other, secret}, now)), body, secret, nil},
		{"spec example is old", headers(specID, time.Unix(specAt, 0), specSig), []byte(specBody), specSecret, standardwebhooks.ErrMessageTooOld},
		{"other secret", headers("evt_7", now, sign([]string{other}, now)), body, secret, standardwebhooks.ErrNoMatchingSignature},
		{"body changed", headers("evt_7", now, sign([]string{secret}, now)), []byte(`{"seq":8}`), secret, standardwebhooks.ErrNoMatchingSignature},
		{"id changed", headers("evt_8", now, sign([]string{secret}, now)), body, secret, standardwebhooks.ErrNoMatchingSignature},
		{"six minutes old", headers("evt_7", now.Add(-6*time.Minute), sign([]string{secret}, now.Add(-6*time.Minute))), body, secret, standardwebhooks.ErrMessageTooOld},
		{"six minutes ahead", headers("evt_7", now.Add(6*time.Minute), sign([]string{secret}, now.Add(6*time.Minute))), body, secret, standardwebhooks.ErrMessageTooNew},
		{"no headers", http.Header{}, body, secret, standardwebhooks.ErrRequiredHeaders},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := Verify(c.secret, c.header, c.body)
			if !errors.Is(got, c.want) || (got == nil) != (c.want == nil) {
				t.Fatalf("Verify = %v, want %v", got, c.want)
			}
			var ve *VerifyError
			if got != nil && !errors.As(got, &ve) {
				t.Errorf("Verify = %T, want a *VerifyError", got)
			}
		})
	}
	t.Run("unusable secret", func(t *testing.T) {
		t.Parallel()
		err := Verify("whsec_%%secret%%", headers("evt_7", now, sign([]string{secret}, now)), body)
		if err == nil || strings.Contains(err.Error(), "%%secret%%") {
			t.Errorf("Verify with an unusable secret = %v, want an error that does not show it", err)
		}
	})
}
