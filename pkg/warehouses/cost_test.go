package warehouses_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/testenv"
)

// costCases are the platform endpoints with their DynamoDB budgets: each
// list is one Query, and every request pays the rate limiter's one write.
func costCases(tb testing.TB) []testenv.CostCase {
	env := testenv.Get(tb)
	acct := env.NewAccount(tb, testenv.AccountOptions{})
	c := env.Client(tb, acct)
	for i := range 3 {
		create(tb, c, fmt.Sprintf(`{"warehouse":{"name":"W%d"}}`, i))
		if _, err := env.Deps.Channels().Create(context.Background(), acct.ID, channels.Input{Name: "C", Type: "Amazon"}); err != nil {
			tb.Fatal(err)
		}
	}
	id := create(tb, c, `{"warehouse":{"name":"Target"}}`)
	limit := map[string]int{"UpdateItem": 1}
	plus := func(op string, n int) map[string]int {
		m := map[string]int{"UpdateItem": limit["UpdateItem"]}
		m[op] += n
		return m
	}
	return []testenv.CostCase{
		{Name: "GET /channels", Run: env.Request(acct, http.MethodGet, "/channels", 200, nil), Want: plus("Query", 1)},
		{Name: "GET /warehouses", Run: env.Request(acct, http.MethodGet, "/warehouses", 200, nil), Want: plus("Query", 1)},
		{Name: "POST /warehouses", Run: env.Request(acct, http.MethodPost, "/warehouses", 200, func(i int) any {
			return fmt.Sprintf(`{"warehouse":{"name":"New %d","priority":1}}`, i)
		}), Want: plus("PutItem", 1)},
		{Name: "PUT /warehouses/{uuid}", Run: env.Request(acct, http.MethodPut, "/warehouses/"+id, 200, func(i int) any {
			return fmt.Sprintf(`{"warehouse":{"city":"City %d"}}`, i)
		}), Want: map[string]int{"UpdateItem": 2}},
	}
}

func TestCost(t *testing.T) {
	t.Parallel()
	testenv.CheckCosts(t, costCases(t))
}

func BenchmarkCost(b *testing.B) { testenv.BenchCosts(b, costCases(b)) }
