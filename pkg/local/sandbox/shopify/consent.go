package shopify

import (
	"cmp"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/local/sandbox"
)

// The sandbox's public app, the operator's app a merchant approves by consent: the keys the
// local stack's operator configuration names, and what its tokens are.
const (
	AppClientID     = "sandbox-shopify-app"
	AppClientSecret = "sandbox-shopify-app-secret"
	// AuthorizePath is the consent page.
	AuthorizePath = "/admin/oauth/authorize"
	// OpAuthorize is the sandbox.Server operation of the consent page.
	OpAuthorize = "authorize"
	// OfflineTTL is the life of an expiring offline access token (Shopify's hour; the kit's
	// TokenTTL shortens it), RefreshTTL of its refresh token, RecoveryWindow how long a
	// refresh token already used may be used again while its replacement is not.
	OfflineTTL     = time.Hour
	RefreshTTL     = 90 * 24 * time.Hour
	RecoveryWindow = 30 * 24 * time.Hour
	// CodeTTL is the life of an authorization code (Shopify publishes none: RFC 6749's
	// recommended most).
	CodeTTL = 10 * time.Minute
)

// grantCode is an authorization code the consent page gave, single use.
type grantCode struct {
	Exp time.Time `json:"exp"`
}

// refreshToken is a refresh token of an expiring offline token.
type refreshToken struct {
	// Parent is the refresh token it replaced ("" for a code exchange's).
	Parent string    `json:"parent,omitempty"`
	Exp    time.Time `json:"exp"`
	// Used is its first use (zero: never used).
	Used time.Time `json:"used,omitzero"`
}

// ConsentApp is the local stack's operator configuration of the sandbox's public app with
// the callback redirectURI: its keys, the consent page and the token endpoint here.
func (s *Shop) ConsentApp(redirectURI string) connectors.App {
	return connectors.App{ClientID: AppClientID, ClientSecret: AppClientSecret, RedirectURI: redirectURI,
		ConsentURL: s.URL + AuthorizePath, TokenURL: s.URL + TokenPath}
}

// authorize serves the consent page, GET AuthorizePath, as the merchant's approval: the app
// must be the public app and redirect_uri an http(s) URL (a 400 page otherwise). The shop is
// the one sandbox_seller names (its id or domain), else the one the shop parameter names
// (opened, its domain its id, when the sandbox has none), else the first. With
// sandbox_decision=deny the answer is a 302 to redirect_uri with error=access_denied,
// otherwise with a code (single use, CodeTTL); either carries shop, state, timestamp, and
// for an approval host, all signed with the app's secret in hmac, as Shopify signs them.
// The shop's app is granted the requested scopes.
func (s *Shop) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	back, err := url.Parse(q.Get("redirect_uri"))
	switch {
	case q.Get("client_id") != AppClientID:
		http.Error(w, "Oauth error invalid_request: The client_id is not an app of this sandbox", http.StatusBadRequest)
		return
	case err != nil || (back.Scheme != "https" && back.Scheme != "http") || back.Host == "":
		http.Error(w, "Oauth error invalid_request: The redirect_uri is missing or not a URL", http.StatusBadRequest)
		return
	}
	s.Lock()
	defer s.Unlock()
	sh := s.consentShop(q.Get(sandbox.SellerParam), strings.ToLower(q.Get("shop")))
	if sh == nil {
		http.Error(w, "There is no shop in this sandbox", http.StatusNotFound)
		return
	}
	now := time.Now()
	out := url.Values{"shop": {sh.Domain}, "state": {q.Get("state")}, "timestamp": {strconv.FormatInt(now.Unix(), 10)}}
	if q.Get(sandbox.DecisionParam) == sandbox.Deny {
		out.Set("error", "access_denied")
		out.Set("error_description", "The merchant declined the app's installation")
	} else {
		code := rand.Text()
		if sh.Codes == nil {
			sh.Codes = map[string]grantCode{}
		}
		sh.Codes[code] = grantCode{Exp: now.Add(CodeTTL)}
		sh.Scopes = strings.Split(q.Get("scope"), ",")
		out.Set("code", code)
		out.Set("host", base64.RawURLEncoding.EncodeToString([]byte("admin.shopify.com/store/"+strings.TrimSuffix(sh.Domain, ".myshopify.com"))))
	}
	out.Set("hmac", sign(out))
	s.Save()
	sandbox.RedirectBack(w, r, back.String(), out)
}

// consentShop is the shop a consent is for (authorize; the lock held).
func (s *Shop) consentShop(seller, domain string) *shopState {
	shops := s.Sellers()
	ids := slices.Sorted(maps.Keys(shops))
	for _, id := range ids {
		if seller != "" && (id == seller || shops[id].Domain == seller) {
			return shops[id]
		}
	}
	if seller != "" {
		return nil
	}
	for _, id := range ids {
		if domain != "" && shops[id].Domain == domain {
			return shops[id]
		}
	}
	if domain != "" {
		shops[domain] = newShopState(domain)
		return shops[domain]
	}
	if len(ids) == 0 {
		return nil
	}
	return shops[ids[0]]
}

// sign is Shopify's hmac of a request to an app: the parameters sorted, name=value joined
// by &, HMAC-SHA256 with the app's secret, in hex.
func sign(q url.Values) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(q)) {
		parts = append(parts, k+"="+strings.NewReplacer("%", "%25", "&", "%26").Replace(q.Get(k)))
	}
	mac := hmac.New(sha256.New, []byte(AppClientSecret))
	mac.Write([]byte(strings.Join(parts, "&")))
	return hex.EncodeToString(mac.Sum(nil))
}

// token serves TokenPath: a code exchange (a form with code), a refresh (grant_type
// refresh_token), else the client-credentials grant cc.
func (s *Shop) token(cc http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		gr, refused := sandbox.FormGrant(r)
		switch {
		case refused != nil || (!r.PostForm.Has("code") && gr.Type != sandbox.GrantRefreshToken):
			cc(w, r)
		case gr.ClientID != AppClientID || gr.Secret != AppClientSecret:
			sandbox.WriteJSON(w, http.StatusUnauthorized, oauthError("invalid_client", "unknown client or wrong secret"))
		case r.PostForm.Has("code"):
			s.exchangeCode(w, r.PostForm.Get("code"), r.PostForm.Get("expiring") == "1")
		default:
			s.refresh(w, gr.RefreshToken)
		}
	}
}

// oauthError is an OAuth error answer.
func oauthError(code, description string) map[string]string {
	return map[string]string{"error": code, "error_description": description}
}

// exchangeCode trades a code the consent page gave, once and before it expires, for an
// offline token of its shop: with expiring, an access token of OfflineTTL and a refresh
// token; else one that never expires.
func (s *Shop) exchangeCode(w http.ResponseWriter, code string, expiring bool) {
	s.Lock()
	defer s.Unlock()
	now := time.Now()
	for _, id := range slices.Sorted(maps.Keys(s.Sellers())) {
		sh := s.Sellers()[id]
		c, ok := sh.Codes[code]
		if !ok {
			continue
		}
		delete(sh.Codes, code)
		if now.After(c.Exp) {
			break
		}
		answer := map[string]any{"scope": strings.Join(sh.Scopes, ",")}
		if expiring {
			s.issueOffline(answer, id, sh, "", now)
		} else {
			v := "shpat_" + rand.Text()
			s.Permanent(v, id)
			answer["access_token"] = v
		}
		s.Save()
		sandbox.WriteJSON(w, http.StatusOK, answer)
		return
	}
	s.Save()
	sandbox.WriteJSON(w, http.StatusBadRequest, oauthError("invalid_grant", "The authorization code was not found, was already used or has expired"))
}

// issueOffline puts an expiring offline token of shop id in answer: an access token and a
// refresh token that replaces parent ("" for none) (the lock held).
func (s *Shop) issueOffline(answer map[string]any, id string, sh *shopState, parent string, now time.Time) {
	ttl := cmp.Or(s.TokenTTL, OfflineTTL)
	v := "shpat_" + rand.Text()
	s.Tokens()[v] = sandbox.Token{Seller: id, Exp: now.Add(ttl)}
	rt := "shprt_" + rand.Text()
	if sh.Refresh == nil {
		sh.Refresh = map[string]*refreshToken{}
	}
	sh.Refresh[rt] = &refreshToken{Parent: parent, Exp: now.Add(RefreshTTL)}
	answer["access_token"] = v
	answer["expires_in"] = int(ttl.Seconds())
	answer["refresh_token"] = rt
	answer["refresh_token_expires_in"] = int(RefreshTTL.Seconds())
}

// refresh trades a refresh token for a new access token and the refresh token that replaces
// it, as Shopify rotates them: a refresh token of a shop not refused (Refuse: the app
// uninstalled) is good until it expires (RefreshTTL); once
// used it stays good while none of its replacements is used, for RecoveryWindow from its
// first use (NoRecovery: never), and using a replacement retires it and its other
// replacements. Anything else is 400 invalid_grant. LoseRefreshes makes the answer of a
// refresh that rotated a 500.
func (s *Shop) refresh(w http.ResponseWriter, token string) {
	s.Lock()
	defer s.Unlock()
	now := time.Now()
	id, sh, t := s.findRefresh(token)
	if t == nil || sh.Refused || now.After(t.Exp) || (!t.Used.IsZero() && (s.NoRecovery || now.After(t.Used.Add(RecoveryWindow)))) {
		s.refused++
		sandbox.WriteJSON(w, http.StatusBadRequest, oauthError("invalid_grant", "The refresh token is invalid, expired or was already used"))
		return
	}
	if t.Used.IsZero() {
		t.Used = now
	}
	if t.Parent != "" {
		for v, o := range sh.Refresh {
			if v == t.Parent || (o.Parent == t.Parent && v != token) {
				delete(sh.Refresh, v)
			}
		}
	}
	answer := map[string]any{"scope": strings.Join(sh.Scopes, ",")}
	s.issueOffline(answer, id, sh, token, now)
	s.refreshes++
	s.Save()
	if s.lose > 0 {
		s.lose--
		sandbox.WriteJSON(w, http.StatusInternalServerError, oauthError("server_error", "the answer was lost"))
		return
	}
	sandbox.WriteJSON(w, http.StatusOK, answer)
}

// findRefresh is the shop of a refresh token and the token (nil: none; the lock held).
func (s *Shop) findRefresh(token string) (string, *shopState, *refreshToken) {
	for id, sh := range s.Sellers() {
		if t := sh.Refresh[token]; t != nil {
			return id, sh, t
		}
	}
	return "", nil, nil
}

// RefreshValid reports whether a refresh would take the refresh token now.
func (s *Shop) RefreshValid(token string) bool {
	s.Lock()
	defer s.Unlock()
	_, _, t := s.findRefresh(token)
	now := time.Now()
	return t != nil && now.Before(t.Exp) && (t.Used.IsZero() || (!s.NoRecovery && now.Before(t.Used.Add(RecoveryWindow))))
}

// LoseRefreshes makes the next n refreshes rotate the refresh token and answer 500, as an
// answer lost on its way back would.
func (s *Shop) LoseRefreshes(n int) {
	s.Lock()
	defer s.Unlock()
	s.lose = n
}

// Refreshes is the number of refreshes that rotated a refresh token; RefusedRefreshes the
// number refused.
func (s *Shop) Refreshes() (rotated, refused int) {
	s.Lock()
	defer s.Unlock()
	return s.refreshes, s.refused
}
