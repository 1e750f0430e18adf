package main

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// cli runs the CLI in-process against the test stack (named through the
// environment, as against AWS) and returns its exit code and outputs.
func cli(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	stdout, stderr = &out, &errOut
	t.Cleanup(func() { stdout, stderr = os.Stdout, os.Stderr })
	code := run(context.Background(), args)
	return code, out.String(), errOut.String()
}

// TestCLI walks the subcommands the README lists (they share the process-wide
// stdout, so the steps run in order, not in parallel, and a step that fails
// stops the ones after it).
func TestCLI(t *testing.T) {
	env := testenv.Get(t)
	cfg := env.Config
	for k, v := range map[string]string{
		"TABLE_NAME": cfg.TableName, "DYNAMODB_ENDPOINT": cfg.DynamoDBEndpoint, "SQS_ENDPOINT": cfg.SQSEndpoint,
		"ADJUSTMENTS_QUEUE_URL": cfg.AdjustmentsQueueURL, "CHANNEL_INBOX_QUEUE_URL": cfg.ChannelInboxQueueURL, "AWS_REGION": cfg.Region,
	} {
		t.Setenv(k, v)
	}
	step := func(name string, f func(t *testing.T)) {
		t.Helper()
		if !t.Run(name, f) {
			t.FailNow()
		}
	}

	var acct struct {
		AccountID    string `json:"account_id"`
		AccountToken string `json:"account_token"`
		SecretKey    string `json:"secret_key"`
	}
	step("accounts create", func(t *testing.T) {
		code, out, errOut := cli(t, "accounts", "create", "--name", "CLI Co", "--rps", "100", "--rpm", "1000")
		if code != 0 || json.Unmarshal([]byte(out), &acct) != nil || acct.SecretKey == "" {
			t.Fatalf("accounts create: %d %s %s", code, out, errOut)
		}
		if !strings.Contains(out, `"account_token"`) || !strings.Contains(out, `"secret_key"`) {
			t.Errorf("accounts create prints %s", out)
		}
	})

	var ch struct {
		UUID  string `json:"uuid"`
		State string `json:"state"`
	}
	step("channels create", func(t *testing.T) {
		code, out, _ := cli(t, "channels", "create", "--account", acct.AccountToken, "--name", "Amazon US", "--type", "Amazon", "--site-id", "ATVPDKIKX0DER")
		if code != 0 || json.Unmarshal([]byte(out), &ch) != nil || ch.State != "active" {
			t.Fatalf("channels create: %d %s", code, out)
		}
	})

	// Refused commands: exit 1 with a message on stderr.
	t.Run("refused", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			args   []string
			stderr string // what stderr contains besides being non-empty
		}{
			{"bad state", []string{"channels", "create", "--account", acct.AccountToken, "--name", "X", "--type", "Y", "--state", "paused"}, ""},
			{"unknown token", []string{"channels", "create", "--account", "no-such-token", "--name", "X", "--type", "Y"}, "no account"},
			{"link to an unknown product", []string{"listings", "link", "--account", acct.AccountToken, "--channel", ch.UUID, "--sku", "AMZ-2", "--product", "NOPE"}, ""},
			{"recount of an unknown token", []string{"recount", "--account", "no-such-token"}, "no account"},
			{"recount without a token", []string{"recount"}, "--account"},
			// No stack file of a serve: no sandbox's app, so Amazon has no app to approve.
			{"authorize without an app", []string{"channels", "authorize", "--account", acct.AccountToken, "--type", "amazon", "--marketplace-id", "ATVPDKIKX0DER"}, "has no app on this deployment"},
			{"authorize a type without consent", []string{"channels", "authorize", "--account", acct.AccountToken, "--type", "Generic Marketplace"}, "authorization.type"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				code, _, errOut := cli(t, tc.args...)
				if code != 1 || errOut == "" || !strings.Contains(errOut, tc.stderr) {
					t.Errorf("got exit %d, stderr %q; want exit 1, stderr with %q", code, errOut, tc.stderr)
				}
			})
		}
	})

	// client calls the API as the account, reporting to t.
	client := func(t *testing.T) *testenv.Client {
		return env.Client(t, testenv.Account{ID: acct.AccountID, Token: acct.AccountToken, Secret: acct.SecretKey})
	}
	step("listings link", func(t *testing.T) {
		c := client(t)
		if r := c.Do("PUT", "/products/WIDGET", `{"name":"Widget"}`); r.Status != 200 {
			t.Fatalf("create product: %d %s", r.Status, r)
		}
		if code, out, errOut := cli(t, "listings", "link", "--account", acct.AccountToken, "--channel", ch.UUID, "--sku", "AMZ-1", "--product", "WIDGET"); code != 0 {
			t.Fatalf("listings link: %d %s %s", code, out, errOut)
		}
	})
	step("listings list", func(t *testing.T) {
		code, out, errOut := cli(t, "listings", "list", "--account", acct.AccountToken, "--channel", ch.UUID)
		var ls []struct {
			ChannelSKU string  `json:"channel_sku"`
			SKU        *string `json:"sku"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &ls) != nil || len(ls) != 1 || ls[0].ChannelSKU != "AMZ-1" || ls[0].SKU == nil || *ls[0].SKU != "WIDGET" {
			t.Fatalf("listings list: exit %d, %s %s", code, out, errOut)
		}
		if code, _, errOut := cli(t, "listings", "list", "--account", acct.AccountToken, "--status", "done"); code == 0 || !strings.Contains(errOut, "sync_status") {
			t.Errorf("listings list --status done: exit %d, %s", code, errOut)
		}
	})

	step("orders import", func(t *testing.T) {
		c := client(t)
		file := filepath.Join(t.TempDir(), "orders.json")
		docs := `[{"channel_uuid":"` + ch.UUID + `","display_ref":"111-1","ordered_at":"2026-01-02","items":[{"order_item_ref":"1","sku":"AMZ-1","quantity":1}]},
		{"channel_uuid":"` + ch.UUID + `","display_ref":"111-2","items":[]}]`
		if err := os.WriteFile(file, []byte(docs), 0o600); err != nil {
			t.Fatal(err)
		}
		code, out, _ := cli(t, "orders", "import", "--account", acct.AccountToken, file)
		var results []struct {
			DisplayRef string `json:"display_ref"`
			Result     string `json:"result"`
			Error      string `json:"error"`
			Seq        *int64 `json:"sb_order_seq"`
		}
		if code != 1 || json.Unmarshal([]byte(out), &results) != nil || len(results) != 2 {
			t.Fatalf("orders import: exit %d, %s", code, out)
		}
		if results[0].Result != "created" || results[0].Seq == nil || results[1].Result != "error" || results[1].Error == "" {
			t.Errorf("import results %+v", results)
		}
		var order struct {
			Items []struct {
				InventorySKU *string `json:"inventory_sku"`
			} `json:"items"`
		}
		if r := c.Do("GET", "/orders/1", nil); r.Status != 200 {
			t.Fatalf("imported order: %d %s", r.Status, r)
		} else if r.JSON(t, &order); order.Items[0].InventorySKU == nil || *order.Items[0].InventorySKU != "WIDGET" {
			t.Errorf("the listing link did not map the channel SKU: %+v", order)
		}
		if code, out, _ := cli(t, "orders", "import", "--account", acct.AccountToken, file); code != 1 || !strings.Contains(out, `"unchanged"`) {
			t.Errorf("re-import: exit %d, %s", code, out)
		}
	})
	step("shipments list", func(t *testing.T) {
		code, out, errOut := cli(t, "shipments", "list", "--account", acct.AccountToken)
		if code != 0 || strings.TrimSpace(out) != "[]" {
			t.Fatalf("shipments list: exit %d, %s %s", code, out, errOut)
		}
		if code, _, errOut := cli(t, "shipments", "list", "--account", acct.AccountToken, "--order", "x"); code == 0 || errOut == "" {
			t.Errorf("shipments list --order x: exit %d, %s", code, errOut)
		}
	})

	step("seed", func(t *testing.T) {
		c := client(t)
		code, out, errOut := cli(t, "seed", "--account", acct.AccountToken, "--orders", "15", "--products", "8", "--warehouses", "2")
		// stderr is no terminal: one line a step once it is done, no bar redrawn with \r.
		if code != 0 || !strings.Contains(out, `"seeded"`) || !strings.Contains(errOut, "15/15") || strings.Contains(errOut, "\r") {
			t.Fatalf("seed: %d %s %s", code, out, errOut)
		}
		var ws []any
		if r := c.Do("GET", "/warehouses", nil); r.Status != 200 {
			t.Fatalf("warehouses after seed: %d", r.Status)
		} else if r.JSON(t, &ws); len(ws) != 2 {
			t.Errorf("seeded %d warehouses, want 2", len(ws))
		}
	})

	step("recount", func(t *testing.T) {
		c := client(t)
		lists := []string{"/orders", "/products", "/variation_groups", "/inventory", "/shipments", "/listings"}
		totalPages := func() map[string]string {
			out := map[string]string{}
			for _, l := range lists {
				r := c.Do("GET", l+"?limit=1", nil)
				if r.Status != 200 {
					t.Fatalf("GET %s: %d %s", l, r.Status, r)
				}
				out[l] = r.Header.Get("Total-Pages")
			}
			return out
		}
		want := totalPages()
		env.DeleteCounts(t, acct.AccountID)
		if got := totalPages(); got["/orders"] != "1" {
			t.Fatalf("Total-Pages without count items: %v, want 1 each", got)
		}
		code, out, errOut := cli(t, "recount", "--account", acct.AccountToken)
		var domains []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var l struct {
				Domain    string `json:"domain"`
				Recounted bool   `json:"recounted"`
			}
			if json.Unmarshal([]byte(line), &l) != nil || !l.Recounted {
				t.Errorf("recount line %q", line)
			}
			domains = append(domains, l.Domain)
		}
		if code != 0 || strings.Join(domains, " ") != "orders catalog inventory shipments listings" {
			t.Fatalf("recount: exit %d, domains %v, %s %s", code, domains, out, errOut)
		}
		if got := totalPages(); !maps.Equal(got, want) {
			t.Errorf("Total-Pages after recount: %v, want %v (as before the counts were deleted)", got, want)
		}
	})

	t.Run("unknown command", func(t *testing.T) {
		if code, _, _ := cli(t, "nope"); code != 2 {
			t.Errorf("unknown command: exit %d, want 2", code)
		}
	})
}

// TestHelpExitsZero: -h of every command, with subcommands or not, prints its usage and
// exits 0; a command with subcommands prints it on stdout.
func TestHelpExitsZero(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		stdout string // what stdout contains; "" for a leaf (its flag set prints on stderr)
	}{
		{[]string{"-h"}, "usage"},
		{[]string{"accounts", "-h"}, "multisell accounts create --name"},
		{[]string{"orders", "-h"}, "multisell orders import --account"},
		{[]string{"channels", "--help"}, "multisell channels list --account"},
		{[]string{"connector", "-help"}, "multisell connector sim [--fail-rate P]"},
		{[]string{"recount", "-h"}, ""},
		{[]string{"accounts", "create", "-h"}, ""},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errOut := cli(t, tc.args...)
			if code != 0 || !strings.Contains(out, tc.stdout) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 0, stdout with %q", code, out, errOut, tc.stdout)
			}
		})
	}
}
