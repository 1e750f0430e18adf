package store

import (
	"errors"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// cancelled is a cancelled transaction with the given reasons, wrapped as
// Commit wraps it.
func cancelled(reasons ...string) error {
	tce := &types.TransactionCanceledException{}
	for _, r := range reasons {
		tce.CancellationReasons = append(tce.CancellationReasons, types.CancellationReason{Code: aws.String(r)})
	}
	return fmt.Errorf("transaction of %d writes: %w", len(reasons), tce)
}

func TestCommitErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		err          error
		wantIndex    int
		wantFailed   bool
		wantConflict bool
	}{
		{"single write, condition", fmt.Errorf("write: %w", &types.ConditionalCheckFailedException{}), 0, true, false},
		{"single write, conflict", fmt.Errorf("write: %w", &types.TransactionConflictException{}), 0, false, true},
		{"transaction, second condition", cancelled("None", "ConditionalCheckFailed", "ConditionalCheckFailed"), 1, true, false},
		{"transaction, conflict", cancelled("None", "TransactionConflict"), 0, false, true},
		{"transaction, both", cancelled("TransactionConflict", "ConditionalCheckFailed"), 1, true, true},
		{"other failure", errors.New("throttled"), 0, false, false},
		{"nil", nil, 0, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			gotIndex, gotFailed := FailedWrite(tt.err)
			if gotIndex != tt.wantIndex || gotFailed != tt.wantFailed {
				t.Errorf("FailedWrite = %d, %v; want %d, %v", gotIndex, gotFailed, tt.wantIndex, tt.wantFailed)
			}
			if got := TransactionConflict(tt.err); got != tt.wantConflict {
				t.Errorf("TransactionConflict = %v, want %v", got, tt.wantConflict)
			}
		})
	}
}
