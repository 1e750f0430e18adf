package connectors

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestForbiddenNeverCounts: Refused passes a *Forbidden through as the operation's failure,
// never an *AuthError nor a counted refusal, its text cleaned of the channel's secrets and
// the channel's own error kept; one naming the access token drops the session's token.
func TestForbiddenNeverCounts(t *testing.T) {
	t.Parallel()
	own := errors.New("amazon patchListingsItem: status 403: Unauthorized: Access to requested resource is denied. (s3cr3t)")
	tests := []struct {
		name      string
		err       error
		wantToken string
	}{
		{"a role the app lacks", &Forbidden{Op: "patchListingsItem", Message: own.Error(), Err: own}, "Atza|kept"},
		{"wrapped", fmt.Errorf("push: %w", &Forbidden{Op: "patchListingsItem", Message: own.Error(), Err: own}), "Atza|kept"},
		{"the access token named", &Forbidden{Op: "getOrders", Message: "expired", Token: true}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := &Session{verify: true, token: "Atza|kept", secrets: []string{"s3cr3t"}}
			got := s.Refused(context.Background(), tt.err)
			var fb *Forbidden
			var ae *AuthError
			var counted *countedRefusal
			if !errors.As(got, &fb) || errors.As(got, &ae) || errors.As(got, &counted) {
				t.Errorf("Refused(%v) = %v, want the Forbidden as it is", tt.err, got)
			}
			if fb.Err != nil && !errors.Is(got, own) {
				t.Errorf("Refused lost the channel's own error: %v", got)
			}
			if s.token != tt.wantToken {
				t.Errorf("session token %q, want %q", s.token, tt.wantToken)
			}
			if msg := got.Error(); fb.Err != nil && (strings.Contains(msg, "s3cr3t") || !strings.Contains(msg, "does not allow patchListingsItem")) {
				t.Errorf("message %q: want the operation named and no secret", msg)
			}
		})
	}
}
