package shipments

import (
	"slices"
	"strings"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/orders"
)

// Filter selects shipments for GET /shipments: one order's (Seq > 0), and
// those of one sync status ("" for any).
type Filter struct {
	Seq    int64
	Status string
}

// ParseFilter reads the filters sb_order_seq (a positive integer) and
// sync_status (pending, synced or failed, ignoring case); anything else is
// 422 naming the filter. Empty values select everything.
func ParseFilter(seq, status string) (Filter, error) {
	var f Filter
	if strings.TrimSpace(seq) != "" {
		var ok bool
		if f.Seq, ok = orders.ParseSeq(seq); !ok {
			return Filter{}, errs.Invalid("sb_order_seq must be a positive integer")
		}
	}
	f.Status = strings.ToLower(strings.TrimSpace(status))
	if f.Status != "" && !slices.Contains(statuses, f.Status) {
		return Filter{}, errs.Invalid("sync_status must be one of %s", strings.Join(statuses, ", "))
	}
	return f, nil
}
