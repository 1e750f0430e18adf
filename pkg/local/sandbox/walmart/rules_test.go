package walmart_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/local/sandbox/walmart"
)

// client is a test's seller on a sandbox, with its access token.
type client struct {
	t     *testing.T
	sb    *walmart.Sandbox
	token string
}

const (
	seller  = "client-rules"
	secret  = "secret-rules"
	channel = "01a2b3c4-0000-7000-8000-0000000000cc"
)

// newClient starts a sandbox with a seller bound to channel, an item SKU-1 and a token.
func newClient(t *testing.T) *client {
	t.Helper()
	sb, err := walmart.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	sb.AddSeller(seller, secret)
	sb.BindChannel(seller, channel)
	sb.AddItem(seller, "SKU-1", 3)
	c := &client{t: t, sb: sb}
	status, body := c.do(http.MethodPost, walmart.TokenPath, tokenRequest(secret), []byte("grant_type=client_credentials"))
	var tok struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}
	if status != http.StatusOK || json.Unmarshal(body, &tok) != nil || tok.ExpiresIn != 900 {
		t.Fatalf("token: %d %s, want a token of 900 seconds", status, body)
	}
	c.token = tok.AccessToken
	return c
}

// tokenRequest is a Token API request of the client-credentials grant with secret.
func tokenRequest(secret string) func(*http.Request) {
	return func(r *http.Request) {
		r.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(seller+":"+secret)))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.Header.Del("WM_SEC.ACCESS_TOKEN")
	}
}

// do sends a call with the WM_* headers, Accept and the token (edit changes the request)
// and returns the status and body.
func (c *client) do(method, path string, edit func(*http.Request), body []byte) (int, []byte) {
	c.t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, c.sb.URL+path, bytes.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("WM_SVC.NAME", "Walmart Marketplace")
	req.Header.Set("WM_QOS.CORRELATION_ID", rand.Text())
	req.Header.Set("WM_SEC.ACCESS_TOKEN", c.token)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if edit != nil {
		edit(req)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// place places an order of the channel through the admin endpoint.
func (c *client) place(in sandbox.OrderRequest) string {
	c.t.Helper()
	in.ChannelUUID = channel
	o, err := sandbox.PlaceOrder(context.Background(), c.sb.URL, in)
	if err != nil {
		c.t.Fatal(err)
	}
	return o.ID
}

// shipBody is a shipping update of line 1 with quantity n, carrier and method.
func shipBody(n, carrier, other, url, method string) []byte {
	return []byte(`{"orderShipment":{"orderLines":{"orderLine":[{"lineNumber":"1","sellerOrderId":"S1","orderLineStatuses":{"orderLineStatus":[
		{"status":"Shipped","statusQuantity":{"unitOfMeasurement":"EACH","amount":"` + n + `"},"trackingInfo":{"shipDateTime":1700000000000,
		"carrierName":{"carrier":"` + carrier + `","otherCarrier":"` + other + `"},"methodCode":"` + method + `","trackingNumber":"T1","trackingURL":"` + url + `"}}]}}]}}}`)
}

// feedFile is a multipart upload of an inventory feed file.
func feedFile(t *testing.T, file []byte) (func(*http.Request), []byte) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	part, err := mw.CreateFormFile("file", "feed.json")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = part.Write(file)
	_ = mw.Close()
	return func(r *http.Request) { r.Header.Set("Content-Type", mw.FormDataContentType()) }, b.Bytes()
}

// TestRules: the sandbox enforces Walmart's rules of the calls it serves (docs/connectors.md,
// "Walmart rules"), each refusal with its status.
func TestRules(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	created := c.place(sandbox.OrderRequest{SKU: "SKU-1", Quantity: 2})
	shipped := c.place(sandbox.OrderRequest{SKU: "SKU-1", Shipped: true})
	same := func(r *http.Request) { r.Header.Set("WM_QOS.CORRELATION_ID", "fixed-id") }
	c.do(http.MethodGet, "/v3/orders?limit=1", same, nil)
	big := bytes.Repeat([]byte("x"), walmart.MaxFeedBytes+10)
	bigEdit, bigBody := feedFile(t, big)
	badEdit, badBody := feedFile(t, []byte(`{"InventoryHeader":{"version":"1.5"},"Inventory":[]}`))
	tests := []struct {
		name         string
		method, path string
		edit         func(*http.Request)
		body         []byte
		want         int
	}{
		{"no WM_SVC.NAME", "GET", "/v3/orders", func(r *http.Request) { r.Header.Del("WM_SVC.NAME") }, nil, 400},
		{"no correlation id", "GET", "/v3/orders", func(r *http.Request) { r.Header.Del("WM_QOS.CORRELATION_ID") }, nil, 400},
		{"a correlation id used before", "GET", "/v3/orders", same, nil, 400},
		{"Accept XML", "GET", "/v3/orders", func(r *http.Request) { r.Header.Set("Accept", "application/xml") }, nil, 406},
		{"no access token", "GET", "/v3/orders", func(r *http.Request) { r.Header.Del("WM_SEC.ACCESS_TOKEN") }, nil, 401},
		{"the token as a bearer", "GET", "/v3/orders", func(r *http.Request) {
			r.Header.Set("Authorization", "Bearer "+r.Header.Get("WM_SEC.ACCESS_TOKEN"))
			r.Header.Del("WM_SEC.ACCESS_TOKEN")
		}, nil, 401},
		{"a wrong secret", "POST", walmart.TokenPath, tokenRequest("wrong"), []byte("grant_type=client_credentials"), 401},
		{"a refresh grant", "POST", walmart.TokenPath, tokenRequest(secret), []byte("grant_type=refresh_token&refresh_token=x"), 400},
		{"limit over 200", "GET", "/v3/orders?limit=201", nil, nil, 400},
		{"a bad date", "GET", "/v3/orders?lastModifiedStartDate=yesterday", nil, nil, 400},
		{"an index not from a cursor", "GET", "/v3/orders?hasMoreElements=true&soIndex=x", nil, nil, 400},
		{"orders", "GET", "/v3/orders?limit=200", nil, nil, 200},
		{"acknowledge an unknown order", "POST", "/v3/orders/999/acknowledge", nil, nil, 404},
		{"acknowledge a shipped order", "POST", "/v3/orders/" + shipped + "/acknowledge", nil, nil, 400},
		{"acknowledge", "POST", "/v3/orders/" + created + "/acknowledge", nil, nil, 200},
		{"acknowledge again", "POST", "/v3/orders/" + created + "/acknowledge", nil, nil, 200},
		{"ship a carrier not Walmart's", "POST", "/v3/orders/" + created + "/shipping", nil, shipBody("1", "Evri", "", "", "Standard"), 400},
		{"ship otherCarrier without a URL", "POST", "/v3/orders/" + created + "/shipping", nil, shipBody("1", "", "Bob", "", "Standard"), 400},
		{"ship a method not Walmart's", "POST", "/v3/orders/" + created + "/shipping", nil, shipBody("1", "UPS", "", "", "Ground"), 400},
		{"ship more than is left", "POST", "/v3/orders/" + created + "/shipping", nil, shipBody("3", "UPS", "", "", "Standard"), 400},
		{"ship as text", "POST", "/v3/orders/" + created + "/shipping", func(r *http.Request) { r.Header.Set("Content-Type", "text/plain") },
			shipBody("1", "UPS", "", "", "Standard"), 415},
		{"ship", "POST", "/v3/orders/" + created + "/shipping", nil, shipBody("1", "", "Bob", "https://bob.example/T1", "OneDay"), 200},
		{"acknowledge a shipped line", "POST", "/v3/orders/" + created + "/acknowledge", nil, nil, 400},
		{"an unknown item", "PUT", "/v3/inventory?sku=NONE", nil, []byte(`{"sku":"NONE","quantity":{"unit":"EACH","amount":1}}`), 404},
		{"skus that differ", "PUT", "/v3/inventory?sku=SKU-1", nil, []byte(`{"sku":"SKU-2","quantity":{"unit":"EACH","amount":1}}`), 400},
		{"a negative quantity", "PUT", "/v3/inventory?sku=SKU-1", nil, []byte(`{"sku":"SKU-1","quantity":{"unit":"EACH","amount":-1}}`), 400},
		{"a quantity", "PUT", "/v3/inventory?sku=SKU-1", nil, []byte(`{"sku":"SKU-1","quantity":{"unit":"EACH","amount":9}}`), 200},
		{"a feed over 5 MB", "POST", "/v3/feeds?feedType=inventory", bigEdit, bigBody, 413},
		{"a feed of version 1.5", "POST", "/v3/feeds?feedType=inventory", badEdit, badBody, 400},
		{"a feed of another type", "POST", "/v3/feeds?feedType=item", badEdit, badBody, 400},
		{"the details of an unknown feed", "GET", "/v3/feeds/X?includeDetails=true", nil, nil, 404},
		{"an inventory feed's error report", "GET", "/v3/feeds/X/errorReport?feedType=inventory", nil, nil, 400},
	}
	for _, tc := range tests {
		if got, body := c.do(tc.method, tc.path, tc.edit, tc.body); got != tc.want {
			t.Errorf("%s: %d %s, want %d", tc.name, got, clip(body), tc.want)
		}
	}
	if q, _ := c.sb.Quantity(seller, "SKU-1"); q != 9 {
		t.Errorf("SKU-1 shows %d, want 9", q)
	}
	if got := c.sb.Acks(seller, created); got != 2 {
		t.Errorf("acknowledged %d times, want 2", got)
	}
}

// clip is the start of a body.
func clip(b []byte) string {
	if len(b) > 200 {
		b = b[:200]
	}
	return string(b)
}

// TestFeed: a feed is processed after FeedDelay: its known items set, the others failed
// with a DATA_ERROR, its details 50 at most a page.
func TestFeed(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	c.sb.FeedDelay = 0
	edit, body := feedFile(t, []byte(`{"InventoryHeader":{"version":"1.4"},"Inventory":[{"sku":"SKU-1","quantity":{"unit":"EACH","amount":4}},
		{"sku":"NONE","quantity":{"unit":"EACH","amount":4}}]}`))
	status, out := c.do(http.MethodPost, "/v3/feeds?feedType=inventory", edit, body)
	var id struct {
		FeedID string `json:"feedId"`
	}
	if status != http.StatusOK || json.Unmarshal(out, &id) != nil {
		t.Fatalf("upload: %d %s", status, out)
	}
	tests := []struct {
		path string
		want int
		has  string
	}{
		{"/v3/feeds/" + id.FeedID, 200, `"feedStatus":"PROCESSED"`},
		{"/v3/feeds/" + id.FeedID + "?includeDetails=true&limit=51", 400, ""},
		{"/v3/feeds/" + id.FeedID + "?includeDetails=true&offset=1&limit=1", 200, `"ingestionStatus":"DATA_ERROR"`},
		{"/v3/feeds?limit=10", 200, `"feedType":"inventory"`},
	}
	for _, tc := range tests {
		if got, b := c.do(http.MethodGet, tc.path, nil, nil); got != tc.want || !strings.Contains(string(b), tc.has) {
			t.Errorf("GET %s: %d %s, want %d with %s", tc.path, got, clip(b), tc.want, tc.has)
		}
	}
	if q, _ := c.sb.Quantity(seller, "SKU-1"); q != 4 {
		t.Errorf("SKU-1 shows %d after the feed, want 4", q)
	}
}

// TestPaging: getAllOrders pages by nextCursor, oldest change first, each order once; an
// order changed during the walk (acknowledged) is not in its later pages (the cursor pins the
// window's end).
func TestPaging(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	at := time.Now().Add(-time.Hour)
	for i := range 5 {
		o := walmart.NewOrder("180000000010"+string(rune('0'+i)), "SKU-1", 1, 1, "USD", at.Add(time.Duration(i)*time.Minute))
		c.sb.PutOrder(seller, o)
	}
	var got []string
	path := "/v3/orders?limit=2&lastModifiedStartDate=" + at.Add(-time.Minute).UTC().Format(time.RFC3339)
	for range 10 {
		status, body := c.do(http.MethodGet, path, nil, nil)
		var page struct {
			List struct {
				Meta struct {
					NextCursor string `json:"nextCursor"`
				} `json:"meta"`
				Elements struct {
					Order []walmart.PurchaseOrder `json:"order"`
				} `json:"elements"`
			} `json:"list"`
		}
		if status != 200 || json.Unmarshal(body, &page) != nil {
			t.Fatalf("page: %d %s", status, clip(body))
		}
		for _, o := range page.List.Elements.Order {
			got = append(got, o.PurchaseOrderID)
			c.do(http.MethodPost, "/v3/orders/"+o.PurchaseOrderID+"/acknowledge", nil, nil)
		}
		if page.List.Meta.NextCursor == "" {
			break
		}
		path = "/v3/orders" + page.List.Meta.NextCursor
	}
	if want := "[1800000000100 1800000000101 1800000000102 1800000000103 1800000000104]"; strings.Join(got, " ") != strings.Trim(want, "[]") {
		t.Errorf("orders read %v, want %s", got, want)
	}
}

// TestTokenExpires: a token past its life is refused (401).
func TestTokenExpires(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	c.sb.TokenTTL = time.Millisecond
	status, body := c.do(http.MethodPost, walmart.TokenPath, tokenRequest(secret), []byte("grant_type=client_credentials"))
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if status != 200 || json.Unmarshal(body, &tok) != nil {
		t.Fatalf("token: %d %s", status, body)
	}
	time.Sleep(5 * time.Millisecond)
	c.token = tok.AccessToken
	if got, _ := c.do(http.MethodGet, "/v3/orders", nil, nil); got != http.StatusUnauthorized {
		t.Errorf("an expired token: %d, want 401", got)
	}
}

// TestStateKept: a sandbox opened again on its state file serves on the same address with
// the sellers, items and orders it had.
func TestStateKept(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "sandbox", "walmart.json")
	first, err := walmart.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	first.AddSeller("client-1", "secret")
	first.AddItem("client-1", "SKU-1", 4)
	first.PutOrder("client-1", walmart.NewOrder("1800000000001", "SKU-1", 1, 1, "USD", time.Now()))
	url := first.URL
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := walmart.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = again.Close() })
	q, ok := again.Quantity("client-1", "SKU-1")
	_, has := again.Order("client-1", "1800000000001")
	if got, want := [4]any{again.URL, q, ok, has}, [4]any{url, int64(4), true, true}; got != want {
		t.Errorf("reopened: url, quantity, listed, order = %v, want %v", got, want)
	}
}

// TestLines: the admin endpoints place an order of several lines in a currency, shipped when
// asked, and ship or cancel more of a line, refusing more than is left.
func TestLines(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	ctx := context.Background()
	id := c.place(sandbox.OrderRequest{SKU: "SKU-1", Quantity: 2, Lines: 2, Currency: "CAD"})
	tests := []struct {
		name    string
		change  sandbox.LineChange
		wantErr bool
	}{
		{"cancel line 2", sandbox.LineChange{Line: 2, Cancelled: 2}, false},
		{"ship line 1 in part", sandbox.LineChange{Line: 1, Shipped: 1}, false},
		{"more than is left", sandbox.LineChange{Line: 1, Shipped: 2}, true},
		{"no such line", sandbox.LineChange{Line: 3, Shipped: 1}, true},
	}
	for _, tc := range tests {
		tc.change.ChannelUUID, tc.change.OrderID = channel, id
		if err := sandbox.ChangeLine(ctx, c.sb.URL, tc.change); (err != nil) != tc.wantErr {
			t.Errorf("%s: error %v, want error %v", tc.name, err, tc.wantErr)
		}
	}
	o, _ := c.sb.Order(seller, id)
	var got []string
	for _, l := range o.OrderLines.OrderLine {
		for _, st := range l.OrderLineStatuses.OrderLineStatus {
			got = append(got, l.LineNumber+":"+st.Status+"="+st.StatusQuantity.Amount)
		}
	}
	if want := "1:Created=1 1:Shipped=1 2:Cancelled=2"; strings.Join(got, " ") != want {
		t.Errorf("statuses %v, want %s", got, want)
	}
	if cur := o.OrderLines.OrderLine[0].Charges.Charge[0].ChargeAmount.Currency; cur != "CAD" {
		t.Errorf("currency %s, want CAD", cur)
	}
}
