package errs

import (
	"context"
	"errors"
	"fmt"
	"net"
	"syscall"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

// timeoutErr is a net.Error that timed out.
type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

func TestOutage(t *testing.T) {
	t.Parallel()
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	tests := []struct {
		name                   string
		err                    error
		wantOutage, wantTimely bool
	}{
		{"nil", nil, false, false},
		{"a bug", errors.New("unmarshal: bad"), false, false},
		{"a client error", Invalid("sku is required"), false, false},
		{"deadline", fmt.Errorf("query: %w", context.DeadlineExceeded), true, true},
		{"network timeout", fmt.Errorf("send: %w", timeoutErr{}), true, true},
		{"refused", fmt.Errorf("put: %w", refused), true, false},
		{"throttled", &smithy.GenericAPIError{Code: "ThrottlingException"}, true, false},
		{"throughput", &types.ProvisionedThroughputExceededException{}, true, false},
		{"condition failed", &types.ConditionalCheckFailedException{}, false, false},
		{"canceled by the caller", context.Canceled, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Outage(tt.err); got != tt.wantOutage {
				t.Errorf("Outage(%v) = %v, want %v", tt.err, got, tt.wantOutage)
			}
			if got := tt.err != nil && TimedOut(tt.err); got != tt.wantTimely {
				t.Errorf("TimedOut(%v) = %v, want %v", tt.err, got, tt.wantTimely)
			}
			wantKind := KindInternal
			if tt.wantOutage {
				wantKind = KindUnavailable
			}
			if e, ok := As(tt.err); ok {
				wantKind = e.Kind
			}
			if tt.err != nil && KindOf(tt.err) != wantKind {
				t.Errorf("KindOf(%v) = %v, want %v", tt.err, KindOf(tt.err), wantKind)
			}
		})
	}
}

func TestOutcomeUnknown(t *testing.T) {
	t.Parallel()
	cause := context.DeadlineExceeded
	e := OutcomeUnknown("req-1", cause)
	if e.Kind != KindUnavailable || !e.OutcomeUnknown || e.RequestID != "req-1" || e.Message != UnavailableMessage {
		t.Errorf("OutcomeUnknown = %+v", e)
	}
	if !errors.Is(e, cause) {
		t.Error("the cause is not in the chain")
	}
	if KindUnavailable.Client() || KindInternal.Client() || !KindInvalid.Client() {
		t.Error("Client() sorts the kinds wrongly")
	}
}
