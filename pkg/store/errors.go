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

// TransactionConflict reports whether a transaction was cancelled only
// because another transaction touched the same items, so retrying is right.
func TransactionConflict(err error) bool {
	for _, r := range CancellationReasons(err) {
		if r == "TransactionConflict" {
			return true
		}
	}
	return false
}
