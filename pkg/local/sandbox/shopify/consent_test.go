package shopify

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// authorizeQuery opens the consent page with q (client_id and redirect_uri added) and
// returns the answer's status and its redirect's query.
func authorizeQuery(t *testing.T, s *Shop, q url.Values) (int, url.Values) {
	t.Helper()
	if !q.Has("client_id") {
		q.Set("client_id", AppClientID)
	}
	q.Set("redirect_uri", "http://127.0.0.1:1/callback")
	c := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(s.URL + AuthorizePath + "?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	back, _ := url.Parse(resp.Header.Get("Location"))
	return resp.StatusCode, back.Query()
}

// tokenForm posts form to the token endpoint with the app's keys and returns the status and
// the answer.
func tokenForm(t *testing.T, s *Shop, form url.Values) (int, map[string]any) {
	t.Helper()
	form.Set("client_id", AppClientID)
	form.Set("client_secret", AppClientSecret)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+TokenPath, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return send(t, req)
}

// startConsent starts a sandbox with the shops shpat_a (a.myshopify.com) and, with two,
// shpat_b (b.myshopify.com).
func startConsent(t *testing.T, two bool) *Shop {
	t.Helper()
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	s.AddShop("shpat_a", "a.myshopify.com")
	if two {
		s.AddShop("shpat_b", "b.myshopify.com")
	}
	return s
}

// TestConsentPage: the consent page signs its redirect (code, host, shop, state, timestamp)
// with the app's secret, picks the shop by sandbox_seller, shop or first, opens a shop it
// lacks, and denies with error=access_denied; an unknown app is a 400.
func TestConsentPage(t *testing.T) {
	t.Parallel()
	s := startConsent(t, true)
	cases := []struct {
		name     string
		q        url.Values
		status   int
		shop     string
		approved bool
	}{
		{"first shop", url.Values{"state": {"S"}}, http.StatusFound, "a.myshopify.com", true},
		{"by shop", url.Values{"state": {"S"}, "shop": {"b.myshopify.com"}}, http.StatusFound, "b.myshopify.com", true},
		{"by seller id", url.Values{"state": {"S"}, "shop": {"a.myshopify.com"}, "sandbox_seller": {"shpat_b"}}, http.StatusFound, "b.myshopify.com", true},
		{"denied", url.Values{"state": {"S"}, "sandbox_decision": {"deny"}}, http.StatusFound, "a.myshopify.com", false},
		{"a new shop", url.Values{"state": {"S"}, "shop": {"new.myshopify.com"}}, http.StatusFound, "new.myshopify.com", true},
		{"unknown app", url.Values{"client_id": {"other"}}, http.StatusBadRequest, "", false},
		{"unknown seller", url.Values{"sandbox_seller": {"nobody"}}, http.StatusNotFound, "", false},
	}
	// In order, not in parallel: "a new shop" opens a shop that sorts first, after the cases
	// of the first shop.
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, q := authorizeQuery(t, s, c.q)
			if status != c.status {
				t.Fatalf("status %d, want %d", status, c.status)
			}
			if status != http.StatusFound {
				return
			}
			if q.Get("shop") != c.shop || q.Get("state") != "S" || q.Get("timestamp") == "" || (q.Get("code") != "") != c.approved ||
				(q.Get("error") == "access_denied") == c.approved {
				t.Fatalf("redirect %v: want shop %s, state S, approved %v", q, c.shop, c.approved)
			}
			got := q.Get("hmac")
			q.Del("hmac")
			if got != sign(q) {
				t.Fatalf("hmac %s, want the app's signature %s", got, sign(q))
			}
		})
	}
}

// TestRotationRules: a code is exchanged once, for an expiring token with expiring=1; a
// refresh rotates the refresh token; the used one is good again while its replacement is
// unused, and retired (with its other replacements) once one is used; NoRecovery refuses it
// at once; a refused shop's is refused.
func TestRotationRules(t *testing.T) {
	t.Parallel()
	s := startConsent(t, false)
	code := func() string {
		_, q := authorizeQuery(t, s, url.Values{"state": {"S"}})
		return q.Get("code")
	}
	refresh := func(token string) (int, string) {
		status, out := tokenForm(t, s, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {token}})
		next, _ := out["refresh_token"].(string)
		return status, next
	}
	c := code()
	status, out := tokenForm(t, s, url.Values{"code": {c}, "expiring": {"1"}})
	r0, _ := out["refresh_token"].(string)
	if status != http.StatusOK || r0 == "" || out["expires_in"] != float64(OfflineTTL.Seconds()) || out["refresh_token_expires_in"] != float64(RefreshTTL.Seconds()) {
		t.Fatalf("code exchange: %d %v", status, out)
	}
	if status, out := tokenForm(t, s, url.Values{"code": {c}, "expiring": {"1"}}); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
		t.Fatalf("code used again: %d %v, want 400 invalid_grant", status, out)
	}
	if status, out := tokenForm(t, s, url.Values{"code": {code()}}); status != http.StatusOK || out["refresh_token"] != nil || out["expires_in"] != nil {
		t.Fatalf("code exchange without expiring: %d %v, want a token that never expires", status, out)
	}
	var r1, r1b, r2 string
	status, r1 = refresh(r0)
	if status != http.StatusOK || r1 == "" || r1 == r0 {
		t.Fatalf("refresh: %d, %q", status, r1)
	}
	if status, r1b = refresh(r0); status != http.StatusOK || r1b == r1 {
		t.Fatalf("the used token again, its replacement unused: %d, want 200 and another replacement", status)
	}
	if status, r2 = refresh(r1); status != http.StatusOK {
		t.Fatalf("the replacement: %d", status)
	}
	for name, tok := range map[string]string{"the retired token": r0, "the other replacement": r1b, "an unknown token": "shprt_x"} {
		if status, _ := refresh(tok); status != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", name, status)
		}
	}
	if !s.RefreshValid(r1) || !s.RefreshValid(r2) || s.RefreshValid(r0) {
		t.Errorf("RefreshValid: r1 %v, r2 %v, r0 %v; want true, true, false", s.RefreshValid(r1), s.RefreshValid(r2), s.RefreshValid(r0))
	}
	s.Lock()
	s.NoRecovery = true
	s.Unlock()
	if status, _ := refresh(r1); status != http.StatusBadRequest {
		t.Errorf("NoRecovery, a used token: %d, want 400", status)
	}
	s.Refuse("shpat_a", true)
	if status, _ := refresh(r2); status != http.StatusBadRequest {
		t.Errorf("a refused shop's token: %d, want 400", status)
	}
}
