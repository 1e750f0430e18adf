package sandbox

import (
	"cmp"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"
)

// The sandbox's own parameters of a consent page, which a test (or a merchant on the local
// stack) adds to the consent URL multisell gave and which the real marketplaces ignore
// (docs/connectors.md, "Connecting a merchant"): the merchant's decision (approve, the
// default, or deny) and the seller who decides (a seller id; default: the sandbox's first).
const (
	DecisionParam = "sandbox_decision"
	SellerParam   = "sandbox_seller"
	Approve       = "approve"
	Deny          = "deny"
)

// GrantAuthorizationCode is the OAuth grant type of a consent's code (RFC 6749, 4.1.3).
const GrantAuthorizationCode = "authorization_code"

// DefaultCodeTTL is the life of a consent's code (Amazon's spapi_oauth_code lasts five
// minutes, eBay's authorization code 299 seconds).
const DefaultCodeTTL = 5 * time.Minute

// App is an app registered with a sandbox: the operator's app, which the sandbox's sellers
// approve on its consent page.
type App struct {
	ClientID, Secret string
	// Name is how a consent request names the app where the marketplace does not by its
	// client id (an Amazon app's application id), or the name of its redirect URL (an eBay
	// app's RuName).
	Name string
	// RedirectURIs are the callback URLs the app registered: a consent asking for another is
	// refused, and eBay's RuName stands for the first.
	RedirectURIs []string
}

// Consents are the apps registered with a sandbox and the codes its consent page gave:
// each code is for one seller, one client and one redirect URI, lives CodeTTL and is
// spent by its first exchange. Neither is kept in the state file: the stack registers
// its apps at each start, and a code outlives no restart.
type Consents struct {
	// CodeTTL is the life of a code (0: DefaultCodeTTL).
	CodeTTL time.Duration

	mu    sync.Mutex
	apps  map[string]App // by client id
	codes map[string]code
}

// code is what a consent's code stands for.
type code struct {
	seller, clientID, redirect string
	exp                        time.Time
}

// Register registers app (again: its new redirect URIs replace the old).
func (c *Consents) Register(app App) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.apps == nil {
		c.apps = map[string]App{}
	}
	c.apps[app.ClientID] = app
}

// App is the registered app of the client id, or the one named name (App.Name) when
// clientID is "".
func (c *Consents) App(clientID, name string) (App, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if clientID != "" {
		a, ok := c.apps[clientID]
		return a, ok
	}
	for _, id := range slices.Sorted(maps.Keys(c.apps)) {
		if c.apps[id].Name == name {
			return c.apps[id], true
		}
	}
	return App{}, false
}

// Issue gives a new code for the seller's consent to the app of clientID, to be exchanged
// with redirect (the redirect_uri the exchange must send).
func (c *Consents) Issue(clientID, redirect, seller string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.codes == nil {
		c.codes = map[string]code{}
	}
	now := time.Now()
	maps.DeleteFunc(c.codes, func(_ string, x code) bool { return now.After(x.exp) })
	v := rand.Text()
	c.codes[v] = code{seller: seller, clientID: clientID, redirect: redirect, exp: now.Add(cmp.Or(c.CodeTTL, DefaultCodeTTL))}
	return v
}

// redeem spends the code v for clientID and redirect: its seller, or false when the code is
// unknown, spent, expired, or another client's or redirect URI's (spent all the same).
func (c *Consents) redeem(v, clientID, redirect string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	x, ok := c.codes[v]
	delete(c.codes, v)
	if !ok || time.Now().After(x.exp) || x.clientID != clientID || x.redirect != redirect {
		return "", false
	}
	return x.seller, true
}

// Decision reads a consent request's sandbox parameters: the seller deciding (SellerParam,
// else the first seller by id) and whether it approves. ok is false when there is no such
// seller.
func (g *Registry[S]) Decision(r *http.Request) (seller string, approve, ok bool) {
	q := r.URL.Query()
	approve = q.Get(DecisionParam) != Deny
	g.mu.Lock()
	defer g.mu.Unlock()
	if seller = q.Get(SellerParam); seller != "" {
		_, ok = g.sellers[seller]
		return seller, approve, ok
	}
	ids := slices.Sorted(maps.Keys(g.sellers))
	if len(ids) == 0 {
		return "", approve, false
	}
	return ids[0], approve, true
}

// RedirectBack answers a consent page's decision: 302 to redirect with q added to its query.
func RedirectBack(w http.ResponseWriter, r *http.Request, redirect string, q url.Values) {
	u, err := url.Parse(redirect)
	if err != nil {
		http.Error(w, "the app's redirect URI is not a URL", http.StatusBadRequest)
		return
	}
	have := u.Query()
	for k, vs := range q {
		have[k] = vs
	}
	u.RawQuery = have.Encode()
	http.Redirect(w, r, u.String(), http.StatusFound)
}

// CodeEndpoint is how a token endpoint answers the authorization-code grant: the prefix of
// the refresh tokens it gives and its answer (nil: the TokenEndpoint's Answer, which must
// then carry the refresh token).
type CodeEndpoint struct {
	RefreshPrefix string
	Answer        func(token string, ttl time.Duration, acct *Account) any
}

// CodeToken serves the token endpoint e (Token) and, on it, the authorization-code grant
// of the apps of c: the app's client id and secret (else 401 invalid_client), and a code of
// its consent page for that client and the redirect_uri sent (else 400 invalid_grant; a
// code is spent by its first exchange). The seller who approved gets the app's client, its
// secret and a new refresh token as its credentials (its earlier ones are replaced: a
// sandbox seller has one authorization at a time), and an access token.
func (g *Registry[S]) CodeToken(c *Consents, e TokenEndpoint, ce CodeEndpoint) http.HandlerFunc {
	others := g.Token(e)
	return func(w http.ResponseWriter, r *http.Request) {
		gr, refused := e.Read(r)
		switch {
		case refused != nil:
			refused.write(w)
			return
		case gr.Type != GrantAuthorizationCode:
			others(w, r)
			return
		}
		if app, ok := c.App(gr.ClientID, ""); !ok || app.Secret != gr.Secret {
			(&Refusal{http.StatusUnauthorized, "invalid_client", "unknown client or wrong secret"}).write(w)
			return
		}
		seller, ok := c.redeem(r.PostForm.Get("code"), gr.ClientID, r.PostForm.Get("redirect_uri"))
		g.mu.Lock()
		defer g.mu.Unlock()
		s, found := g.sellers[seller]
		if !ok || !found {
			(&Refusal{http.StatusBadRequest, "invalid_grant", "the authorization code is invalid, expired or used, or was given to another client or redirect_uri"}).write(w)
			return
		}
		a := s.account()
		*a = Account{ClientID: gr.ClientID, Secret: gr.Secret, Refresh: ce.RefreshPrefix + rand.Text(), Channel: a.Channel}
		ttl := cmp.Or(g.TokenTTL, e.TTL)
		v := e.Prefix + rand.Text()
		g.issue(v, seller, ttl)
		g.Save()
		answer := ce.Answer
		if answer == nil {
			answer = e.Answer
		}
		WriteJSON(w, http.StatusOK, answer(v, ttl, a))
	}
}

// Consent drives the consent page consentURL as a merchant's browser would: it adds the
// decision (Approve or Deny; "" the page's default) and the seller ("" the page's default)
// as the sandbox's parameters, opens the page without following its redirect, and returns
// where the page sends the browser back to (the app's redirect URI with the marketplace's
// answer). A page that does not redirect is an error with its status and words.
func Consent(ctx context.Context, consentURL, decision, seller string) (*url.URL, error) {
	u, err := url.Parse(consentURL)
	if err != nil {
		return nil, fmt.Errorf("consent url: %w", err)
	}
	q := u.Query()
	if decision != "" {
		q.Set(DecisionParam, decision)
	}
	if seller != "" {
		q.Set(SellerParam, seller)
	}
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("open the consent page: %w", err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode/100 != 3 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		return nil, fmt.Errorf("the consent page answered %d, not a redirect: %s", resp.StatusCode, body)
	}
	return resp.Location()
}
