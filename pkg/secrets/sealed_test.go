package secrets

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/multisell/multisell/pkg/errs"
)

// valid is a well-formed stored form with a data key blob of n bytes and a ciphertext of
// m bytes (tag included).
func valid(n, m int) Sealed {
	return envelope{keyBlob: bytes.Repeat([]byte{0xab}, n), nonce: bytes.Repeat([]byte{0xcd}, nonceSize), ciphertext: bytes.Repeat([]byte{0xef}, m)}.encode()
}

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   Sealed
		ok   bool
	}{
		{"smallest", valid(1, tagSize), true},
		{"typical", valid(184, 200), true},
		{"largest", valid(maxKeyBlob, MaxPlaintext+tagSize), true},
		{"empty", nil, false},
		{"header only", Sealed{version1, 0, 1}, false},
		{"version 0", append(Sealed{0}, valid(1, tagSize)[1:]...), false},
		{"version 2", append(Sealed{2}, valid(1, tagSize)[1:]...), false},
		{"no data key", valid(0, tagSize), false},
		{"data key over the limit", valid(maxKeyBlob+1, tagSize), false},
		{"no tag", valid(1, tagSize-1), false},
		{"ciphertext over the limit", valid(1, MaxPlaintext+tagSize+1), false},
		{"data key longer than the rest", binary.BigEndian.AppendUint16(Sealed{version1}, 500), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, err := parse(tc.in)
			if got, want := err == nil, tc.ok; got != want {
				t.Fatalf("parse: %v, want ok=%v", err, want)
			}
			if err == nil && !bytes.Equal(e.encode(), tc.in) {
				t.Errorf("encode(parse(x)) = %x, want %x", e.encode(), tc.in)
			}
		})
	}
}

// FuzzParse: parse never panics, and what it accepts it gives back unchanged by encode,
// with parts within the limits.
func FuzzParse(f *testing.F) {
	for _, seed := range []Sealed{valid(1, tagSize), valid(184, 200), {version1, 0, 1}, {}, {2, 0, 0}, valid(3, 0)} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		e, err := parse(in)
		if err != nil {
			return
		}
		if !bytes.Equal(e.encode(), in) {
			t.Fatalf("encode(parse(%x)) = %x", in, e.encode())
		}
		if len(e.keyBlob) == 0 || len(e.keyBlob) > maxKeyBlob || len(e.nonce) != nonceSize ||
			len(e.ciphertext) < tagSize || len(e.ciphertext) > MaxPlaintext+tagSize {
			t.Fatalf("parse(%x) = parts of %d, %d, %d bytes", in, len(e.keyBlob), len(e.nonce), len(e.ciphertext))
		}
	})
}

// TestAdditionalData: subjects that differ in any field (even only in where one field
// ends and the next begins) have different additional data and encryption contexts.
func TestAdditionalData(t *testing.T) {
	t.Parallel()
	subjects := []subject{
		{Credentials, "acct", "chan"},
		{AccessToken, "acct", "chan"},
		{Credentials, "acc", "tchan"},
		{Credentials, "acct", "chan2"},
		{Credentials, "acct2", "chan"},
		{Credentials, "chan", "acct"},
	}
	for i, a := range subjects {
		for _, b := range subjects[i+1:] {
			if bytes.Equal(a.additionalData(), b.additionalData()) {
				t.Errorf("%+v and %+v share additional data", a, b)
			}
			if ea, eb := a.encryptionContext(), b.encryptionContext(); ea["purpose"] == eb["purpose"] && ea["account"] == eb["account"] && ea["channel"] == eb["channel"] {
				t.Errorf("%+v and %+v share an encryption context", a, b)
			}
		}
	}
}

func TestCannotOpen(t *testing.T) {
	t.Parallel()
	err := CannotOpen(errors.New("tag mismatch"))
	if got, want := errs.KindOf(err), errs.KindConflict; got != want {
		t.Errorf("kind %v, want %v", got, want)
	}
	if !errors.Is(err, ErrCannotOpen) {
		t.Errorf("%v is not ErrCannotOpen", err)
	}
}
