package shopify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/testenv"
)

func TestTerms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		q    string
		want string
	}{
		{`updated_at:>='2026-11-01T00:00:00Z'`, `[{updated_at >= 2026-11-01T00:00:00Z}]`},
		{`sku:"A 1" OR sku:B`, `[{sku  A 1} {sku  B}]`},
		{`sku:"say \"hi\""`, `[{sku  say "hi"}]`},
		{`name:"#1001"`, `[{name  #1001}]`},
		{`plain words`, `[]`},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			t.Parallel()
			if got := fmt.Sprint(terms(tt.q)); got != tt.want {
				t.Errorf("terms = %s, want %s", got, tt.want)
			}
		})
	}
}

// post sends a GraphQL request to the sandbox and returns the status and the answer.
func post(t *testing.T, url, token, query string, vars map[string]any) (int, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(b))
	req.Header.Set(tokenHeader, token)
	return send(t, req)
}

// send sends req and returns the status and the JSON answer.
func send(t *testing.T, req *http.Request) (int, map[string]any) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// TestGraphQL: version, token, validation against the schema, cost extensions, a query over
// the single query limit (MAX_COST_EXCEEDED, whatever the bucket holds) and THROTTLED.
func TestGraphQL(t *testing.T) {
	t.Parallel()
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	loc := s.AddShop("tok", "x.myshopify.com")
	s.SetBucket("tok", 10, 1)
	url := s.URL + "/admin/api/" + Version + "/graphql.json"
	tests := []struct {
		name, url, token, query string
		want                    string
	}{
		{"old version", s.URL + "/admin/api/2025-01/graphql.json", "tok", `{ shop { name } }`, "404 <nil> Not Found: this sandbox serves API version 2026-07"},
		{"unknown token", url, "nope", `{ shop { name } }`, "401 <nil> [API] Invalid API key or access token (unrecognized login or wrong password)"},
		{"unknown field", url, "tok", `{ shop { nope } }`, `200 <nil> [map[extensions:map[code:GRAPHQL_VALIDATION_FAILED] message:Cannot query field "nope" on type "Shop". Did you mean "name"?]]`},
		{"a query", url, "tok", `{ shop { name } location(id: "` + loc + `") { id } }`,
			"200 map[location:map[id:" + loc + "] shop:map[name:x.myshopify.com]] <nil>"},
		{"over the single query limit", url, "tok", `{ orders(first: 250) { nodes { id lineItems(first: 10) { nodes { id } } } } }`,
			"200 <nil> [map[extensions:map[code:MAX_COST_EXCEEDED cost:3252 maxCost:1000] message:Query cost is 3252, which exceeds the single query max cost limit (1000).]]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.Contains(tt.want, "GRAPHQL_VALIDATION_FAILED") {
				testenv.ChannelModel(t, schemaModel) // validation needs Shopify's schema
			}
			status, out := post(t, tt.url, tt.token, tt.query, nil)
			if got := fmt.Sprint(status, " ", out["data"], " ", out["errors"]); got != tt.want {
				t.Errorf("%s\nwant %s", got, tt.want)
			}
		})
	}
	for range 10 {
		post(t, url, "tok", `{ shop { name } }`, nil)
	}
	_, out := post(t, url, "tok", `{ shop { name } }`, nil)
	if code := fmt.Sprint(out["errors"]); code != "[map[extensions:map[code:THROTTLED] message:Throttled]]" {
		t.Errorf("an empty bucket answered %v", out)
	}
	if cost := fmt.Sprint(out["extensions"]); cost != "map[cost:map[requestedQueryCost:1 throttleStatus:map[currentlyAvailable:0 maximumAvailable:10 restoreRate:1]]]" {
		t.Errorf("cost extension %s", cost)
	}
}

// TestOpenKeepsState: a reopened sandbox has its shops and its address; an order placed for
// a channel through the admin endpoint is its shop's.
func TestOpenKeepsState(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "shopify.json")
	s, err := Open(file)
	if err != nil {
		t.Fatal(err)
	}
	s.AddShop("tok", "x.myshopify.com")
	s.BindChannel("tok", "ch-1")
	item := s.AddVariant("tok", "MUG", 4)
	o, err := sandbox.PlaceOrder(context.Background(), s.URL, sandbox.OrderRequest{ChannelUUID: "ch-1", Quantity: 2})
	if err != nil {
		t.Fatal(err)
	}
	url := s.URL
	_ = s.Close()
	s, err = Open(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	got, _ := s.Available("tok", item)
	placed, ok := s.GetOrder("tok", o.ID)
	if s.URL != url || got != 4 || !ok || placed.Lines[0].SKU != "MUG" || placed.Lines[0].Quantity != 2 {
		t.Errorf("reopened: url %s (was %s), available %d, order %+v", s.URL, url, got, placed)
	}
}

// TestClientCredentials: an app of the shop gets an access token of 24 hours by the
// client-credentials grant, and the token reaches the shop's API; a wrong secret is refused.
func TestClientCredentials(t *testing.T) {
	t.Parallel()
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	s.AddShop("shpat_static", "cc.myshopify.com")
	s.SetApp("shpat_static", "app-id", "app-secret")
	tests := []struct {
		name, secret string
		wantStatus   int
	}{
		{"the app's secret", "app-secret", http.StatusOK},
		{"a wrong secret", "wrong", http.StatusUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			form := url.Values{"grant_type": {"client_credentials"}, "client_id": {"app-id"}, "client_secret": {tt.secret}}
			resp, err := http.PostForm(s.URL+TokenPath, form)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = resp.Body.Close() }()
			var got struct {
				AccessToken string `json:"access_token"`
				ExpiresIn   int    `json:"expires_in"`
			}
			_ = json.NewDecoder(resp.Body).Decode(&got)
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			if tt.wantStatus != http.StatusOK {
				return
			}
			if got.ExpiresIn != int(ClientCredentialsTTL.Seconds()) {
				t.Errorf("expires_in %d, want %d", got.ExpiresIn, int(ClientCredentialsTTL.Seconds()))
			}
			if status, answer := post(t, s.URL+"/admin/api/"+Version+"/graphql.json", got.AccessToken, "{ shop { name } }", nil); status != http.StatusOK || answer["data"] == nil {
				t.Errorf("the token's call: %d %v", status, answer)
			}
		})
	}
}
