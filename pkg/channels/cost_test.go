package channels_test

import (
	"net/http"
	"testing"

	"github.com/multisell/multisell/pkg/testenv"
)

// costCases are the channel endpoints with their DynamoDB budgets; every
// request pays the rate limiter's one write. POST is one transaction of the
// channel, its status and its sealed credentials (the verification and the
// sealing call the channel and KMS, not DynamoDB); GET is one Query of the
// channels' partition, statuses included.
func costCases(tb testing.TB) []testenv.CostCase {
	env := testenv.Get(tb)
	sb := marketplace(tb)
	acct := env.NewAccount(tb, testenv.AccountOptions{})
	return []testenv.CostCase{
		{Name: "POST /channels", Run: env.Request(acct, http.MethodPost, "/channels", http.StatusCreated, func(int) any {
			return connectBody(sb, "generic", creds(nil))
		}), Want: map[string]int{"UpdateItem": 1, "TransactWriteItems": 1}},
		{Name: "GET /channels", Run: env.Request(acct, http.MethodGet, "/channels", http.StatusOK, nil),
			Want: map[string]int{"UpdateItem": 1, "Query": 1}},
	}
}

func TestCost(t *testing.T) {
	t.Parallel()
	testenv.CheckCosts(t, costCases(t))
}

func BenchmarkCost(b *testing.B) { testenv.BenchCosts(b, costCases(b)) }
