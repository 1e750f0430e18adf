package store

import (
	"errors"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ConditionFailed reports whether err is a failed condition of a single-item
// write.
func ConditionFailed(err error) bool {
	var ccf *types.ConditionalCheckFailedException
	return errors.As(err, &ccf)
}

// CancellationReasons returns the per-item reason codes of a cancelled
// transaction ("None", "ConditionalCheckFailed", ...), or nil if err is not
// a cancelled transaction.
func CancellationReasons(err error) []string {
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		return nil
	}
	out := make([]string, len(tce.CancellationReasons))
	for i, r := range tce.CancellationReasons {
		if r.Code != nil {
			out[i] = *r.Code
		}
	}
	return out
}

// FailedWrite returns the index of the write of a Commit whose condition
// failed, if that is why it failed: 0 for a single-item call, the first
// write whose reason is ConditionalCheckFailed for a transaction.
func FailedWrite(err error) (int, bool) {
	if ConditionFailed(err) {
		return 0, true
	}
	for i, r := range CancellationReasons(err) {
		if r == "ConditionalCheckFailed" {
			return i, true
		}
	}
	return 0, false
}

// TransactionConflict reports whether a Commit failed because another
// transaction touched the same items at that moment, so retrying is right:
// a single-item call's TransactionConflictException, or a transaction
// cancelled for a TransactionConflict.
func TransactionConflict(err error) bool {
	var tce *types.TransactionConflictException
	if errors.As(err, &tce) {
		return true
	}
	for _, r := range CancellationReasons(err) {
		if r == "TransactionConflict" {
			return true
		}
	}
	return false
}
