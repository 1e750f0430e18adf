package consent_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/testenv"
)

// costCases are the consent endpoints with their DynamoDB budgets. POST pays the rate
// limiter's write and one PutItem of the pending authorization; a callback whose state does
// not check out pays one conditional UpdateItem, which writes nothing.
func costCases(tb testing.TB) []testenv.CostCase {
	env := testenv.Get(tb)
	sb, ok := sandboxes(tb)["amazon"]
	if !ok {
		tb.Fatal("no Amazon consent sandbox")
	}
	seller, fields := sb.AddSeller()
	acct := env.NewAccount(tb, testenv.AccountOptions{})
	return []testenv.CostCase{
		{Name: "POST /channels/authorizations", Run: env.Request(acct, http.MethodPost, "/channels/authorizations", http.StatusCreated, func(int) any {
			return map[string]any{"authorization": body("amazon", fields, "")}
		}), Want: map[string]int{"UpdateItem": 1, "PutItem": 1}},
		{Name: "GET callback, an unknown state", Run: func(ctx context.Context, i int) error {
			h, err := env.Handler("channels-authorize-callback")
			if err != nil {
				return err
			}
			q := map[string]string{"state": fmt.Sprintf("%s.%026d", acct.ID, i), "spapi_oauth_code": "x", "selling_partner_id": seller}
			resp, err := h.(func(context.Context, events.APIGatewayProxyRequest) (events.APIGatewayProxyResponse, error))(ctx,
				events.APIGatewayProxyRequest{HTTPMethod: http.MethodGet, PathParameters: map[string]string{"type": "amazon"}, QueryStringParameters: q})
			if err == nil && resp.StatusCode != http.StatusNotFound {
				err = fmt.Errorf("callback: %d %s", resp.StatusCode, resp.Body)
			}
			return err
		}, Want: map[string]int{"UpdateItem": 1}},
	}
}

// TestCost holds the endpoints to their budgets.
func TestCost(t *testing.T) {
	testenv.CheckCosts(t, costCases(t))
}
