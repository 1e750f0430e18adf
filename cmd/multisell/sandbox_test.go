package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/app/sdkchain"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/consent"
	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/local/demo"
	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/testenv"
)

// TestSandbox: serve starts the generic sandbox and, on a first start, connects the demo
// channel "Generic Marketplace" to it (connector generic, its listings pushed to the
// sandbox and synced); `sandbox order` places an order there, which `sandbox poll` has the
// stack import; an unknown channel, a channel without a sandbox and a missing --channel
// are refused with a message and exit 1.
func TestSandbox(t *testing.T) {
	testenv.SkipShort(t)
	before := demoSizes
	demoSizes = demo.Sizes{Warehouses: 1, Products: 6, Orders: 3}
	t.Cleanup(func() { demoSizes = before })
	dir, out, errOut, serve := startServe(t)
	for deadline := time.Now().Add(3 * time.Minute); !strings.Contains(out.String(), "local stack is up"); {
		select {
		case <-serve.done:
			t.Fatalf("serve exited %d: %s", serve.code, errOut.String())
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve not up within 3 minutes: %s %s", out.String(), errOut.String())
		}
	}
	if !strings.Contains(out.String(), "sandbox: generic marketplace on http://127.0.0.1:") {
		t.Errorf("the banner names no sandbox:\n%s", out.String())
	}
	sf, err := readStackFile(dir)
	if err != nil || sf == nil || sf.Sandboxes["generic"] == "" {
		t.Fatalf("stack.json: %+v %v, want the generic sandbox's URL", sf, err)
	}
	if !strings.Contains(out.String(), "sandbox channel: "+demo.SandboxChannel) {
		t.Errorf("the banner does not list the demo's sandbox channel %q:\n%s", demo.SandboxChannel, out.String())
	}
	// The reference page names this stack as its server, on whatever port it runs.
	resp, err := http.Get(strings.TrimSuffix(sf.APIURL, "/v1") + "/docs")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if want := `"servers":[{"url":"` + sf.APIURL + `"}]`; resp.StatusCode != http.StatusOK || !strings.Contains(string(page), want) {
		t.Errorf("GET /docs: %d, want a page holding %s", resp.StatusCode, want)
	}
	var creds demoCredentials
	if data, err := os.ReadFile(filepath.Join(dir, "demo.json")); err != nil || json.Unmarshal(data, &creds) != nil {
		t.Fatalf("demo.json: %v %s", err, data)
	}
	// The account's API limit is 40 requests a minute: one GET /channels through the API,
	// the waits read through the services.
	ctx := context.Background()
	d, err := sdkchain.New(ctx, sf.config())
	if err != nil {
		t.Fatal(err)
	}
	var chs []channels.Channel
	stackAPI{t: t, url: sf.APIURL, token: creds.AccountToken, secret: creds.SecretKey}.call(http.MethodGet, "/channels", "", &chs)
	var generic, external channels.Channel
	for _, c := range chs {
		switch c.Name {
		case demo.SandboxChannel:
			generic = c
		case "Amazon US (connector sim)":
			external = c
		}
	}
	if generic.Connection.Connector != "generic" || external.UUID == "" {
		t.Fatalf("the demo's channels: %+v, want %q with connector generic, and Amazon US (connector sim)", chs, demo.SandboxChannel)
	}
	testenv.WaitFor(t, func() bool {
		ls, err := d.Listings().List(ctx, creds.AccountID, listings.Filter{Channel: generic.UUID}, paging.Page{Number: 1, Limit: 10})
		return err == nil && len(ls.Items) == 2 && ls.Items[0].SyncStatus == "synced" && ls.Items[1].SyncStatus == "synced"
	}, "the sandbox channel's listings synced")

	// A channel connected to a marketplace that is none of the stack's sandboxes.
	elsewhere, err := sandbox.NewGeneric()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = elsewhere.Close() })
	elsewhere.AddSeller("other", "secret", "refresh")
	other, err := d.Channels().Connect(ctx, creds.AccountID, channels.ConnectInput{Name: "Elsewhere", Type: "generic",
		Credentials: []byte(`{"client_id":"other","client_secret":"secret","refresh_token":"refresh"}`),
		Endpoints:   channels.Endpoints{API: elsewhere.URL, Auth: elsewhere.URL + "/oauth/token"}})
	if err != nil {
		t.Fatal(err)
	}

	useStack(t, sf, nil)
	t.Run("refused", func(t *testing.T) {
		for _, tc := range []struct {
			name, stderr string
			args         []string
			exit         int
		}{
			{"unknown channel", "is not connected", []string{"sandbox", "order", "--channel", "00000000-0000-4000-8000-000000000000"}, 1},
			{"external", "is not connected", []string{"sandbox", "order", "--channel", external.UUID}, 1},
			{"no sandbox", "has no sandbox", []string{"sandbox", "order", "--channel", other.UUID}, 1},
			{"no channel", "--channel UUID is required", []string{"sandbox", "poll"}, 1},
			{"unknown verb", "multisell sandbox order --channel UUID", []string{"sandbox", "refund", "--channel", generic.UUID}, 2},
		} {
			t.Run(tc.name, func(t *testing.T) {
				code, _, errOut := cli(t, tc.args...)
				if code != tc.exit || !strings.Contains(errOut, tc.stderr) {
					t.Errorf("got exit %d, stderr %q; want exit %d, stderr with %q", code, errOut, tc.exit, tc.stderr)
				}
			})
		}
	})

	var placed sandbox.GenericOrder
	exit, stdoutText, stderrText := cli(t, "sandbox", "order", "--channel", generic.UUID, "--quantity", "2")
	if exit != 0 || json.Unmarshal([]byte(stdoutText), &placed) != nil || placed.ID == "" {
		t.Fatalf("sandbox order: exit %d, %s %s", exit, stdoutText, stderrText)
	}
	if code, stdoutText, stderrText := cli(t, "sandbox", "poll", "--channel", generic.UUID); code != 0 || !strings.Contains(stdoutText, `"queued"`) {
		t.Fatalf("sandbox poll: exit %d, %s %s", code, stdoutText, stderrText)
	}
	testenv.WaitFor(t, func() bool {
		list, err := d.Orders().List(ctx, creds.AccountID, orders.Filter{}, paging.Page{Number: 1, Limit: paging.MaxLimit})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range list.Items {
			if o.DisplayRef == placed.ID && o.ChannelUUID == generic.UUID {
				return len(o.Items) == 1 && o.Items[0].Quantity == 2
			}
		}
		return false
	}, "the sandbox's order "+placed.ID+" imported")

	// Connecting by consent on the local stack: its apps are the sandboxes' (the stack file
	// has them for channels authorize), and opening the consent URL of an authorization
	// without return_url connects a channel to the sandbox and ends on the stack's page.
	if err := d.LocalApps.Load(sf.ConsentApps); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ typ, marketplace string }{{"amazon", "ATVPDKIKX0DER"}, {"ebay", "EBAY_US"}} {
		a, err := d.Consent().Authorize(ctx, creds.AccountID, consent.Input{Type: tc.typ, Fields: map[string]string{"marketplace_id": tc.marketplace}})
		if err != nil {
			t.Fatalf("authorize %s: %v", tc.typ, err)
		}
		back, err := sandbox.Consent(ctx, a.ConsentURL, "", "")
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.Get(back.String())
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), "is connected") {
			t.Errorf("the %s consent ended %d %s, want the stack's page of the connected channel", tc.typ, resp.StatusCode, page)
		}
	}
}
