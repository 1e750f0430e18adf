package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/testenv"
)

// TestAccountsRotateAndDisable: `accounts rotate-secret` prints a new
// secret that works while the old one is refused; `accounts disable`
// refuses the account. (Not parallel: the CLI writes to the process-wide
// stdout.) pkg/auth's tests show both apply at once despite the
// authorizer's cache.
func TestAccountsRotateAndDisable(t *testing.T) {
	env := testenv.Get(t)
	cfg := env.Config
	for k, v := range map[string]string{"TABLE_NAME": cfg.TableName, "DYNAMODB_ENDPOINT": cfg.DynamoDBEndpoint, "SQS_ENDPOINT": cfg.SQSEndpoint, "AWS_REGION": cfg.Region} {
		t.Setenv(k, v)
	}
	var created, rotated struct {
		AccountID    string `json:"account_id"`
		AccountToken string `json:"account_token"`
		SecretKey    string `json:"secret_key"`
	}
	if code, out, errOut := cli(t, "accounts", "create", "--name", "Rotating Co"); code != 0 || json.Unmarshal([]byte(out), &created) != nil {
		t.Fatalf("accounts create: %d %s %s", code, out, errOut)
	}
	as := func(secret string) testenv.Account {
		return testenv.Account{ID: created.AccountID, Token: created.AccountToken, Secret: secret}
	}
	code, out, errOut := cli(t, "accounts", "rotate-secret", "--account", created.AccountToken)
	if code != 0 || json.Unmarshal([]byte(out), &rotated) != nil || rotated.AccountID != created.AccountID || rotated.SecretKey == created.SecretKey {
		t.Fatalf("accounts rotate-secret: %d %s %s", code, out, errOut)
	}
	if r := env.Client(t, as(created.SecretKey)).Do(http.MethodGet, "/carriers", nil); r.Status != http.StatusUnauthorized {
		t.Errorf("old secret: %d %s", r.Status, r)
	}
	if r := env.Client(t, as(rotated.SecretKey)).Do(http.MethodGet, "/carriers", nil); r.Status != http.StatusOK {
		t.Errorf("new secret: %d %s", r.Status, r)
	}

	code, out, errOut = cli(t, "accounts", "disable", "--account", created.AccountToken)
	if code != 0 || !strings.Contains(out, `"disabled": true`) {
		t.Fatalf("accounts disable: %d %s %s", code, out, errOut)
	}
	if r := env.Client(t, as(rotated.SecretKey)).Do(http.MethodGet, "/carriers", nil); r.Status != http.StatusUnauthorized {
		t.Errorf("disabled account: %d %s", r.Status, r)
	}

	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"accounts", "rotate-secret"}, 1},
		{[]string{"accounts", "disable", "--account", "no-such-token"}, 1},
		{[]string{"accounts", "erase"}, 2}, // a usage error, as a bad flag is
	} {
		if got, _, errOut := cli(t, tc.args...); got != tc.want || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q; want %d with a message", tc.args, got, errOut, tc.want)
		}
	}
}
