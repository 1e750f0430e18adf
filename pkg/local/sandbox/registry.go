package sandbox

import (
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// Account is what the sandbox kit keeps of every seller (or shop) of a sandbox: the
// credentials its token endpoint takes, whether they are refused, and the multisell channel
// it serves (BindChannel). A marketplace's seller type embeds it.
type Account struct {
	ClientID string `json:"client_id,omitempty"`
	Secret   string `json:"client_secret,omitempty"`
	Refresh  string `json:"refresh_token,omitempty"`
	Refused  bool   `json:"refused,omitempty"`
	Channel  string `json:"channel_uuid,omitempty"`
}

// account is the Account of a seller type that embeds it.
func (a *Account) account() *Account { return a }

// Seller is a marketplace's seller type: a pointer to a struct that embeds Account.
type Seller interface{ account() *Account }

// Token is an access token a sandbox gave: its seller's id and its expiry (zero: it never
// expires, as a shop's Admin API access token).
type Token struct {
	Seller string    `json:"seller"`
	Exp    time.Time `json:"exp"`
}

// Registry is a sandbox's sellers, by id, and the access tokens it gave, under the
// sandbox's one lock (Lock), saved to its state file after each change. Every sandbox has
// one; its token endpoint (Token) and its auth middleware (Authed) serve from it.
type Registry[S Seller] struct {
	// TokenTTL is the life of the access tokens the token endpoint gives (0: the endpoint's
	// default): a test makes it short.
	TokenTTL time.Duration
	// AccessToken reads a request's access token (default: BearerToken).
	AccessToken func(*http.Request) string

	mu      sync.Mutex
	sellers map[string]S
	tokens  map[string]Token
	file    StateFile
	state   func() any
}

// NewRegistry returns a registry without sellers whose sandbox's state (what its file
// keeps) is what state returns, called with the lock held.
func NewRegistry[S Seller](state func() any) *Registry[S] {
	return &Registry[S]{sellers: map[string]S{}, tokens: map[string]Token{}, state: state}
}

// BearerToken is the token of an "Authorization: Bearer" header ("" for none).
func BearerToken(r *http.Request) string {
	t, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return t
}

// HeaderToken reads the access token from the header name.
func HeaderToken(name string) func(*http.Request) string {
	return func(r *http.Request) string { return r.Header.Get(name) }
}

// Lock takes the sandbox's lock: every change of its state happens under it.
func (g *Registry[S]) Lock() { g.mu.Lock() }

// Unlock releases the sandbox's lock.
func (g *Registry[S]) Unlock() { g.mu.Unlock() }

// Save writes the sandbox's state to its file, if it has one (the lock held).
func (g *Registry[S]) Save() { g.file.Save(g.state) }

// Sellers are the sellers by id (the lock held): the sandbox's state file keeps them.
func (g *Registry[S]) Sellers() map[string]S { return g.sellers }

// Tokens are the access tokens given (the lock held): the sandbox's state file keeps them.
func (g *Registry[S]) Tokens() map[string]Token { return g.tokens }

// Restore takes back the sellers and tokens a state file kept (nil maps are left out).
func (g *Registry[S]) Restore(sellers map[string]S, tokens map[string]Token) {
	maps.Copy(g.sellers, sellers)
	maps.Copy(g.tokens, tokens)
}

// Add opens the seller id with the credentials of acct (a new one made by open), or gives
// an existing seller those credentials, keeping what it has; either way accepted.
func (g *Registry[S]) Add(id string, acct Account, open func() S) {
	g.mu.Lock()
	defer g.mu.Unlock()
	s, ok := g.sellers[id]
	if !ok {
		s = open()
		g.sellers[id] = s
	}
	a := s.account()
	acct.Channel = a.Channel
	*a = acct
	g.Save()
}

// Refuse makes the seller's credentials and access tokens refused (on) or accepted again.
func (g *Registry[S]) Refuse(id string, on bool) {
	g.Change(id, func(s S) { s.account().Refused = on })
}

// BindChannel records that the seller is multisell's channel channelUUID, so that an order
// placed for that channel (POST /sandbox/orders) is the seller's.
func (g *Registry[S]) BindChannel(id, channelUUID string) {
	g.Change(id, func(s S) { s.account().Channel = channelUUID })
}

// With runs f on the seller id (nothing when there is none) under the lock.
func (g *Registry[S]) With(id string, f func(S)) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if s, ok := g.sellers[id]; ok {
		f(s)
	}
}

// Change runs f on the seller as With does, then saves the state.
func (g *Registry[S]) Change(id string, f func(S)) {
	g.With(id, func(s S) {
		f(s)
		g.Save()
	})
}

// Bound is the seller (looked at in the order of their ids) bound to the channel uuid, and
// whether there is one: the seller an admin order request names by its channel (the lock
// held).
func (g *Registry[S]) Bound(uuid string) (S, bool) {
	for _, id := range slices.Sorted(maps.Keys(g.sellers)) {
		if g.sellers[id].account().Channel == uuid {
			return g.sellers[id], true
		}
	}
	var none S
	return none, false
}

// Permanent gives the seller id the access token v, which never expires (the lock held).
func (g *Registry[S]) Permanent(v, id string) { g.tokens[v] = Token{Seller: id} }

// issue gives the seller id a new access token v living ttl, forgetting the expired ones
// (the lock held).
func (g *Registry[S]) issue(v, id string, ttl time.Duration) {
	now := time.Now()
	maps.DeleteFunc(g.tokens, func(_ string, t Token) bool { return expired(t, now) })
	g.tokens[v] = Token{Seller: id, Exp: now.Add(ttl)}
}

// expired reports whether t is past its expiry at now.
func expired(t Token, now time.Time) bool { return !t.Exp.IsZero() && now.After(t.Exp) }

// Lookup is the seller of a valid access token v: given, unexpired, its seller's credentials
// not refused (the lock held).
func (g *Registry[S]) Lookup(v string) (id string, s S, ok bool) {
	t, ok := g.tokens[v]
	if !ok || expired(t, time.Now()) {
		return "", s, false
	}
	s, ok = g.sellers[t.Seller]
	if !ok || s.account().Refused {
		return "", s, false
	}
	return t.Seller, s, true
}

// SellerOf is the seller id a request's access token stands for ("" for none): the
// Server's Seller, by which limits are per seller.
func (g *Registry[S]) SellerOf(r *http.Request) string {
	v := g.read(r)
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.tokens[v].Seller
}

// read is a request's access token.
func (g *Registry[S]) read(r *http.Request) string {
	if g.AccessToken != nil {
		return g.AccessToken(r)
	}
	return BearerToken(r)
}

// Authed is the auth middleware: it serves h, under the lock, for the seller of the
// request's valid access token, and answers deny (the marketplace's 401 or 403) otherwise.
func (g *Registry[S]) Authed(deny http.HandlerFunc, h func(http.ResponseWriter, *http.Request, S)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v := g.read(r)
		g.mu.Lock()
		defer g.mu.Unlock()
		_, s, ok := g.Lookup(v)
		if !ok {
			deny(w, r)
			return
		}
		h(w, r, s)
	}
}
