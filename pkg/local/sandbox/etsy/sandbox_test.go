package etsy

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// testShop is the shop of these tests, with its app and first refresh token.
const (
	testShop    int64 = 5550001
	testKey           = "key-1"
	testSecret        = "secret-1"
	testRefresh       = "5550001.first"
)

// started is a sandbox with the test shop.
func started(t *testing.T) *Sandbox {
	t.Helper()
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	s.AddShop(testShop, testShop, testKey, testSecret, testRefresh)
	return s
}

// post posts a form to the sandbox's path and returns the status and the JSON answer.
func post(t *testing.T, s *Sandbox, path string, form url.Values) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(s.URL+path, "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// refreshWith is a refresh grant of rt: its status and the refresh token answered.
func refreshWith(t *testing.T, s *Sandbox, rt string) (int, string) {
	t.Helper()
	status, out := post(t, s, TokenPath, url.Values{"grant_type": {"refresh_token"}, "client_id": {testKey}, "refresh_token": {rt}})
	next, _ := out["refresh_token"].(string)
	return status, next
}

// TestRotation: each refresh answers a new refresh token; a refresh token stays good until
// one given for it is used, then it is spent (invalid_grant).
func TestRotation(t *testing.T) {
	t.Parallel()
	s := started(t)
	status, r1 := refreshWith(t, s, testRefresh)
	if status != http.StatusOK || r1 == "" || r1 == testRefresh || !strings.HasPrefix(r1, "5550001.") {
		t.Fatalf("first refresh: %d %q", status, r1)
	}
	if status, r2 := refreshWith(t, s, testRefresh); status != http.StatusOK || r2 == r1 {
		t.Fatalf("the first token again, before its successor was used: %d %q", status, r2)
	}
	status, r3 := refreshWith(t, s, r1)
	if status != http.StatusOK {
		t.Fatalf("the successor: %d", status)
	}
	for _, tc := range []struct {
		name, token string
		want        int
	}{{"the first, spent", testRefresh, http.StatusBadRequest}, {"the newest", r3, http.StatusOK}, {"unknown", "5550001.x", http.StatusBadRequest}} {
		if status, _ := refreshWith(t, s, tc.token); status != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, status, tc.want)
		}
	}
}

// TestConsentPKCE: the consent page gives a code for the S256 challenge; the code is traded
// once, for the right verifier and redirect_uri only; a denied consent redirects with
// access_denied.
func TestConsentPKCE(t *testing.T) {
	t.Parallel()
	s := started(t)
	verifier := strings.Repeat("v", 50)
	sum := sha256.Sum256([]byte(verifier))
	redirect := "https://example.com/cb"
	consent := func(decision string) url.Values {
		q := url.Values{"response_type": {"code"}, "client_id": {testKey}, "redirect_uri": {redirect}, "scope": {"listings_r transactions_r"},
			"state": {"st"}, "code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
			"sandbox_decision": {decision}}
		c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := c.Get(s.URL + ConsentPath + "?" + q.Encode())
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		u, _ := url.Parse(resp.Header.Get("Location"))
		return u.Query()
	}
	if q := consent("deny"); q.Get("error") != "access_denied" || q.Get("state") != "st" {
		t.Errorf("denied: %v", q)
	}
	code := consent("approve").Get("code")
	trade := func(verifier, redirect string) int {
		status, _ := post(t, s, TokenPath, url.Values{"grant_type": {"authorization_code"}, "client_id": {testKey},
			"redirect_uri": {redirect}, "code": {code}, "code_verifier": {verifier}})
		return status
	}
	for _, tc := range []struct {
		name, verifier, redirect string
		want                     int
	}{
		{"another verifier", strings.Repeat("w", 50), redirect, http.StatusBadRequest},
		{"another redirect", verifier, "https://evil.example/cb", http.StatusBadRequest},
		{"a short verifier", "short", redirect, http.StatusBadRequest},
		{"the right ones", verifier, redirect, http.StatusOK},
		{"the code again", verifier, redirect, http.StatusBadRequest},
	} {
		if got := trade(tc.verifier, tc.redirect); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

// call makes an API call of the test shop with an access token of its and the app's key.
func call(t *testing.T, s *Sandbox, method, path, key string, body []byte) (int, []byte) {
	t.Helper()
	_, out := post(t, s, TokenPath, url.Values{"grant_type": {"refresh_token"}, "client_id": {testKey}, "refresh_token": {testRefresh}})
	tok, _ := out["access_token"].(string)
	req, _ := http.NewRequest(method, s.URL+path, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("X-Api-Key", key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	return resp.StatusCode, b.Bytes()
}

// TestAPIKey: every call needs the app's keystring:shared_secret.
func TestAPIKey(t *testing.T) {
	t.Parallel()
	s := started(t)
	path := "/v3/application/shops/" + strconv.FormatInt(testShop, 10) + "/receipts"
	for _, tc := range []struct {
		name, key string
		want      int
	}{{"keystring alone", testKey, http.StatusForbidden}, {"wrong secret", testKey + ":x", http.StatusForbidden},
		{"another app", "other:" + testSecret, http.StatusForbidden}, {"keystring:secret", testKey + ":" + testSecret, http.StatusOK}} {
		if got, body := call(t, s, http.MethodGet, path, tc.key, nil); got != tc.want {
			t.Errorf("%s: %d %s, want %d", tc.name, got, body, tc.want)
		}
	}
}

// TestDayLimit: past the daily limit of a shop's calls, 429 with a Retry-After.
func TestDayLimit(t *testing.T) {
	t.Parallel()
	s := started(t)
	s.SetDayLimit(2)
	path := "/v3/application/shops/" + strconv.FormatInt(testShop, 10) + "/receipts"
	var got []int
	for range 3 {
		status, _ := call(t, s, http.MethodGet, path, testKey+":"+testSecret, nil)
		got = append(got, status)
	}
	if want := []int{http.StatusOK, http.StatusOK, http.StatusTooManyRequests}; !slices.Equal(got, want) || s.OverDay() != 1 {
		t.Errorf("statuses %v, %d over, want %v, 1 over", got, s.OverDay(), want)
	}
}

// TestInventoryRules: updateListingInventory replaces the whole inventory (a product left out
// is dropped) and refuses what Etsy refuses.
func TestInventoryRules(t *testing.T) {
	t.Parallel()
	s := started(t)
	name := "Size"
	usd := Money{Amount: 1000, Divisor: 100, CurrencyCode: "USD"}
	size := func(sku, v string, id int64) Product {
		return Product{SKU: sku, PropertyValues: []PropertyValue{{PropertyID: 100, PropertyName: &name, ValueIDs: []int64{id}, Values: []string{v}}},
			Offerings: []Offering{{Quantity: 5, IsEnabled: true, Price: usd}}}
	}
	listing := s.PutListing(testShop, Inventory{Products: []Product{size("S", "Small", 1), size("M", "Medium", 2)},
		QuantityOnProperty: []int64{100}, SKUOnProperty: []int64{100}})
	path := "/v3/application/listings/" + strconv.FormatInt(listing, 10) + "/inventory"
	key := testKey + ":" + testSecret
	product := func(sku, v string, id int64, price string, q int64) string {
		return `{"sku":"` + sku + `","property_values":[{"property_id":100,"value_ids":[` + strconv.FormatInt(id, 10) + `],"values":["` + v +
			`"]}],"offerings":[{"price":` + price + `,"quantity":` + strconv.FormatInt(q, 10) + `,"is_enabled":true}]}`
	}
	for _, tc := range []struct {
		name, body string
		want       int
	}{
		{"quantity not by property", `{"products":[` + product("S", "Small", 1, "10", 1) + `,` + product("M", "Medium", 2, "10", 2) + `],"sku_on_property":[100]}`, http.StatusBadRequest},
		{"price not by property", `{"products":[` + product("S", "Small", 1, "10", 1) + `,` + product("M", "Medium", 2, "11", 2) + `],"quantity_on_property":[100],"sku_on_property":[100]}`, http.StatusBadRequest},
		{"parenthesis", `{"products":[` + product("S", "Small (S)", 1, "10", 1) + `],"quantity_on_property":[100],"sku_on_property":[100]}`, http.StatusBadRequest},
		{"three decimals", `{"products":[` + product("S", "Small", 1, "10.001", 1) + `],"quantity_on_property":[100],"sku_on_property":[100]}`, http.StatusBadRequest},
		{"quantity over 999", `{"products":[` + product("S", "Small", 1, "10", 1000) + `],"quantity_on_property":[100],"sku_on_property":[100]}`, http.StatusBadRequest},
		{"same values twice", `{"products":[` + product("S", "Small", 1, "10", 1) + `,` + product("M", "Small", 1, "10", 1) + `],"quantity_on_property":[100],"sku_on_property":[100]}`, http.StatusBadRequest},
		{"no products", `{"products":[]}`, http.StatusBadRequest},
		{"M left out", `{"products":[` + product("S", "Small", 1, "10", 3) + `],"quantity_on_property":[100],"sku_on_property":[100]}`, http.StatusOK},
	} {
		if got, body := call(t, s, http.MethodPut, path, key, []byte(tc.body)); got != tc.want {
			t.Errorf("%s: %d %s, want %d", tc.name, got, body, tc.want)
		}
	}
	inv, _ := s.Inventory(testShop, listing)
	for _, p := range inv.Products {
		if p.SKU == "M" && !p.IsDeleted {
			t.Errorf("the product left out of the write is kept: %+v", p)
		}
		if p.SKU == "S" && (p.IsDeleted || p.Offerings[0].Quantity != 3) {
			t.Errorf("the product written: %+v", p)
		}
	}
	if q, ok := s.Quantity(testShop, "M"); ok {
		t.Errorf("the dropped product still shows %d", q)
	}
}
