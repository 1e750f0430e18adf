package etsy

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/local/sandbox"
)

// readBody reads a request's body (at most 1 MiB) and puts it back for the handler.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		sandbox.WriteJSON(w, http.StatusBadRequest, map[string]string{"error": "unreadable body"})
		return nil, false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return body, true
}

// scopes are Etsy's OAuth scopes (the OpenAPI document's oauth2 flow).
var scopes = []string{"address_r", "address_w", "billing_r", "cart_r", "cart_w", "email_r", "favorites_r", "favorites_w",
	"feedback_r", "listings_d", "listings_r", "listings_w", "profile_r", "profile_w", "recommend_r", "recommend_w",
	"shops_r", "shops_w", "transactions_r", "transactions_w"}

// verifierChars is a PKCE code verifier: 43 to 128 unreserved characters (RFC 7636 4.1).
var verifierChars = regexp.MustCompile(`^[A-Za-z0-9._~-]{43,128}$`)

// codeTTL is how long an authorization code lasts.
const codeTTL = 10 * time.Minute

// consent serves Etsy's consent page: it checks the request (response_type code, a known
// client_id, a redirect_uri, known scopes, an S256 code challenge) and answers 302 to the
// redirect_uri with code and state when the shop owner approves, or error=access_denied when
// they deny. The kit's sandbox_decision (approve, deny) and sandbox_seller (a shop id; the
// app's first shop by default) stand for the owner.
func (s *Sandbox) consent(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	redirect, err := url.Parse(q.Get("redirect_uri"))
	bad := ""
	switch {
	case q.Get("response_type") != "code":
		bad = "response_type must be code"
	case err != nil || q.Get("redirect_uri") == "" || (redirect.Scheme != "https" && !loopback(redirect)):
		bad = "redirect_uri must be an https URL"
	case q.Get("code_challenge_method") != "S256" || len(q.Get("code_challenge")) != 43:
		bad = "code_challenge and code_challenge_method=S256 are required"
	case q.Get("state") == "":
		bad = "state is required"
	}
	for _, sc := range strings.Fields(q.Get("scope")) {
		if !slices.Contains(scopes, sc) {
			bad = "unknown scope " + sc
		}
	}
	if q.Get("scope") == "" {
		bad = "scope is required"
	}
	if bad != "" {
		http.Error(w, "An error occurred: "+bad, http.StatusBadRequest)
		return
	}
	s.Lock()
	defer s.Unlock()
	sh := s.shopOfClient(q.Get("client_id"), q.Get("sandbox_seller"))
	if sh == nil {
		http.Error(w, "An error occurred: the client_id is no app of this sandbox's", http.StatusBadRequest)
		return
	}
	back := redirect.Query()
	back.Set("state", q.Get("state"))
	if q.Get("sandbox_decision") == "deny" {
		back.Set("error", "access_denied")
		back.Set("error_description", "The user denied the request")
	} else {
		code := rand.Text()
		sh.Codes[code] = &CodeState{Challenge: q.Get("code_challenge"), RedirectURI: q.Get("redirect_uri"), Exp: time.Now().Add(codeTTL)}
		s.Save()
		back.Set("code", code)
	}
	redirect.RawQuery = back.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound)
}

// loopback reports whether u is http to a loopback host (the local stack's callback).
func loopback(u *url.URL) bool {
	h := u.Hostname()
	return u.Scheme == "http" && (h == "127.0.0.1" || h == "localhost" || h == "::1")
}

// shopOfClient is the shop of the app client (the lock held): the one shopID names, else
// the first by id; nil for none.
func (s *Sandbox) shopOfClient(client, shopID string) *Shop {
	sellers := s.Sellers()
	for _, id := range slices.Sorted(maps.Keys(sellers)) {
		if sh := sellers[id]; sh.ClientID == client && (shopID == "" || shopID == id) {
			return sh
		}
	}
	return nil
}

// refusal answers an OAuth error.
func refusal(w http.ResponseWriter, status int, code, desc string) {
	sandbox.WriteJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

// token serves Etsy's token endpoint: a form of grant_type authorization_code (client_id,
// redirect_uri, code, code_verifier: the code given for that client and redirect, unexpired,
// used once, its challenge the S256 of the verifier) or refresh_token (client_id,
// refresh_token). Each answer gives an access token of AccessTTL (TokenTTL in tests) and a new
// refresh token; a refresh token is spent once a token given for it is used, so the newest
// keeps working and those before it stop (docs/connectors.md, "Etsy rules").
func (s *Sandbox) token(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") || r.ParseForm() != nil {
		refusal(w, http.StatusBadRequest, "invalid_request", "a form body is required")
		return
	}
	f := r.PostForm
	s.Lock()
	defer s.Unlock()
	sh := s.shopOfClient(f.Get("client_id"), "")
	if sh == nil {
		refusal(w, http.StatusUnauthorized, "invalid_client", "unknown client_id")
		return
	}
	var parent string
	switch f.Get("grant_type") {
	case "refresh_token":
		rt := f.Get("refresh_token")
		if rt == "" {
			refusal(w, http.StatusBadRequest, "invalid_request", "refresh_token is required")
			return
		}
		var holder *Shop
		for _, c := range s.Sellers() {
			if st, ok := c.Refresh[rt]; ok && c.ClientID == sh.ClientID && !st.Spent {
				holder = c
			}
		}
		if holder == nil || holder.Refused {
			refusal(w, http.StatusBadRequest, "invalid_grant", "refresh_token is revoked")
			return
		}
		if p := holder.Refresh[rt].Parent; p != "" {
			holder.Refresh[p].Spent = true
		}
		sh, parent = holder, rt
	case "authorization_code":
		// The code is the consenting shop's: one app serves many shops.
		for _, o := range s.Sellers() {
			if _, ok := o.Codes[f.Get("code")]; ok && o.ClientID == sh.ClientID {
				sh = o
			}
		}
		c := sh.Codes[f.Get("code")]
		switch {
		case !verifierChars.MatchString(f.Get("code_verifier")):
			refusal(w, http.StatusBadRequest, "invalid_request", "code_verifier must be 43 to 128 unreserved characters")
			return
		case c == nil || time.Now().After(c.Exp) || c.RedirectURI != f.Get("redirect_uri") || challenge(f.Get("code_verifier")) != c.Challenge:
			refusal(w, http.StatusBadRequest, "invalid_grant", "the code is invalid, expired, used, or another redirect_uri's or verifier's")
			return
		}
		delete(sh.Codes, f.Get("code"))
	default:
		refusal(w, http.StatusBadRequest, "unsupported_grant_type", "grant_type must be authorization_code or refresh_token")
		return
	}
	user := strconv.FormatInt(sh.UserID, 10)
	access, refresh := user+"."+rand.Text(), user+"."+rand.Text()
	ttl := AccessTTL
	if s.TokenTTL > 0 {
		ttl = s.TokenTTL
	}
	s.Tokens()[access] = sandbox.Token{Seller: strconv.FormatInt(sh.ShopID, 10), Exp: time.Now().Add(ttl)}
	sh.Refresh[refresh] = &RefreshState{Parent: parent}
	s.Save()
	sandbox.WriteJSON(w, http.StatusOK, TokenAnswer{AccessToken: access, TokenType: "Bearer", ExpiresIn: int64(ttl.Seconds()), RefreshToken: refresh})
}

// challenge is the S256 code challenge of a verifier.
func challenge(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// shopOfUser serves getShopByOwnerUserId (the app's x-api-key, no token needed).
func (s *Sandbox) shopOfUser(w http.ResponseWriter, r *http.Request) {
	id, secret, _ := strings.Cut(r.Header.Get("X-Api-Key"), ":")
	s.Lock()
	defer s.Unlock()
	sh := s.shopOfClient(id, "")
	if sh == nil || sh.Secret != secret {
		sandbox.WriteJSON(w, http.StatusForbidden, map[string]string{"error": "Invalid API key"})
		return
	}
	for _, c := range s.Sellers() {
		if strconv.FormatInt(c.UserID, 10) == r.PathValue("user_id") && c.ClientID == id {
			sandbox.WriteJSON(w, http.StatusOK, ShopAnswer{ShopID: c.ShopID, UserID: c.UserID, ShopName: c.Name, CurrencyCode: "USD"})
			return
		}
	}
	sandbox.WriteJSON(w, http.StatusNotFound, map[string]string{"error": "The user has no shop"})
}
