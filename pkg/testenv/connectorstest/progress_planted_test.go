package connectorstest

import (
	"time"

	"github.com/multisell/multisell/pkg/connectors"
)

// The planted connectors that break the cases of a poll's progress (progress.go).
func init() {
	// Ignores the page token: a resumed poll reads the first page again.
	breaks[CaseProgress] = func(p *planted) {
		p.since = func(q connectors.OrdersQuery) connectors.OrdersQuery {
			q.Page = ""
			return q
		}
	}
	// Ignores the cursor: every poll reads every page.
	breaks[CaseQuiet] = func(p *planted) {
		p.since = func(q connectors.OrdersQuery) connectors.OrdersQuery {
			q.Since = time.Now().Add(-time.Hour)
			return q
		}
	}
}
