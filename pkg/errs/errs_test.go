package errs

import (
	"errors"
	"fmt"
	"io"
	"testing"
)

func TestKindOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		want Kind
	}{
		{"invalid", Invalid("sku must be a string"), KindInvalid},
		{"fields", Fields(map[string][]string{"name": {"can't be blank"}}), KindInvalid},
		{"not found wrapped", fmt.Errorf("ship: %w", NotFound("Order is not found.")), KindNotFound},
		{"conflict", Conflict("exists"), KindConflict},
		{"malformed", Malformed("Request body is not valid JSON"), KindMalformed},
		{"too large", TooLarge("big"), KindTooLarge},
		{"plain error", io.ErrUnexpectedEOF, KindInternal},
		{"explicit internal", Errorf(KindInternal, "broken %d", 1), KindInternal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := KindOf(tt.err); got != tt.want {
				t.Errorf("KindOf(%v) = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}

func TestErrorText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  *Error
		want string
	}{
		{"message", NotFound("Warehouse not found"), "not found: Warehouse not found"},
		{"fields", Fields(map[string][]string{"email": {"is invalid"}}), "invalid: map[email:[is invalid]]"},
		{"formatted", Invalid("%s must be an integer", "limit"), "invalid: limit must be an integer"},
		{"unknown kind", &Error{Kind: Kind(99), Message: "x"}, "kind(99): x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAs(t *testing.T) {
	t.Parallel()
	want := Conflict("raced")
	got, ok := As(fmt.Errorf("write: %w", want))
	if !ok || got != want {
		t.Fatalf("As(wrapped) = %v, %v; want %v, true", got, ok, want)
	}
	if got, ok := As(errors.New("plain")); ok || got != nil {
		t.Fatalf("As(plain) = %v, %v; want nil, false", got, ok)
	}
}
