package sandbox

import (
	"cmp"
	"crypto/rand"
	"encoding/base64"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"
)

// The OAuth grant types a token endpoint takes.
const (
	GrantRefreshToken      = "refresh_token"
	GrantClientCredentials = "client_credentials"
)

// Grant is a token request as a token endpoint reads it.
type Grant struct {
	Type, ClientID, Secret, RefreshToken, Scope string
}

// Refusal is a token endpoint's OAuth error answer: status and the error's code and
// description (RFC 6749 section 5.2).
type Refusal struct {
	Status            int
	Code, Description string
}

// write answers the refusal as {"error","error_description"}.
func (f *Refusal) write(w http.ResponseWriter) {
	WriteJSON(w, f.Status, map[string]string{"error": f.Code, "error_description": f.Description})
}

// TokenEndpoint is how a marketplace's OAuth token endpoint reads a request and answers it;
// Registry.Token serves it.
type TokenEndpoint struct {
	// Read reads the grant from the request (FormGrant, JSONGrant, or the marketplace's own),
	// or refuses it.
	Read func(*http.Request) (Grant, *Refusal)
	// Grants are the grant types the endpoint takes.
	Grants []string
	// Prefix starts the access tokens it gives ("Atza|" for Amazon).
	Prefix string
	// TTL is the life of a token when the Registry's TokenTTL is 0.
	TTL time.Duration
	// Answer is the body of a token given to acct (nil: access_token, token_type bearer,
	// expires_in).
	Answer func(token string, ttl time.Duration, acct *Account) any
}

// Token serves the token endpoint e over the registry: the client authenticates with its id
// and secret (a wrong secret or an unknown client is 401 invalid_client); a refresh-token
// grant also needs the seller's refresh token (a missing one is 400 invalid_request, a
// wrong or refused one 400 invalid_grant), a client-credentials grant the seller's
// credentials not refused (400 invalid_grant). A token given lives TokenTTL, else e.TTL.
func (g *Registry[S]) Token(e TokenEndpoint) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		gr, refused := e.Read(r)
		switch {
		case refused != nil:
		case !slices.Contains(e.Grants, gr.Type):
			refused = &Refusal{http.StatusBadRequest, "unsupported_grant_type", "grant_type must be " + strings.Join(e.Grants, " or ")}
		case gr.Type == GrantRefreshToken && gr.RefreshToken == "":
			refused = &Refusal{http.StatusBadRequest, "invalid_request", "refresh_token is required"}
		}
		if refused != nil {
			refused.write(w)
			return
		}
		g.mu.Lock()
		defer g.mu.Unlock()
		id, s, refused := g.grant(gr)
		if refused != nil {
			refused.write(w)
			return
		}
		ttl := cmp.Or(g.TokenTTL, e.TTL)
		v := e.Prefix + rand.Text()
		g.issue(v, id, ttl)
		g.Save()
		if e.Answer != nil {
			WriteJSON(w, http.StatusOK, e.Answer(v, ttl, s.account()))
			return
		}
		WriteJSON(w, http.StatusOK, map[string]any{"access_token": v, "token_type": "bearer", "expires_in": int(ttl.Seconds())})
	}
}

// grant is the seller (and its id) a grant is for, or its refusal (the lock held).
func (g *Registry[S]) grant(gr Grant) (string, S, *Refusal) {
	var none S
	client := false
	for _, id := range slices.Sorted(maps.Keys(g.sellers)) {
		s := g.sellers[id]
		a := s.account()
		if a.ClientID != gr.ClientID {
			continue
		}
		client = true
		if a.Secret == gr.Secret && (gr.Type != GrantRefreshToken || a.Refresh == gr.RefreshToken) {
			if a.Refused {
				break
			}
			return id, s, nil
		}
	}
	if !client || !g.secretOK(gr) {
		return "", none, &Refusal{http.StatusUnauthorized, "invalid_client", "unknown client or wrong secret"}
	}
	if gr.Type == GrantRefreshToken {
		return "", none, &Refusal{http.StatusBadRequest, "invalid_grant", "the refresh token was revoked, or is another client's"}
	}
	return "", none, &Refusal{http.StatusBadRequest, "invalid_grant", "the client's access was revoked"}
}

// secretOK reports whether some seller of the grant's client has its secret.
func (g *Registry[S]) secretOK(gr Grant) bool {
	for _, s := range g.sellers {
		if a := s.account(); a.ClientID == gr.ClientID && a.Secret == gr.Secret {
			return true
		}
	}
	return false
}

// FormGrant reads a form-encoded grant (grant_type, client_id, client_secret, refresh_token,
// scope), the client's id and secret from Basic auth when it has them.
func FormGrant(r *http.Request) (Grant, *Refusal) {
	if err := r.ParseForm(); err != nil {
		return Grant{}, &Refusal{http.StatusBadRequest, "invalid_request", "a form-encoded body is required"}
	}
	f := r.PostForm
	gr := Grant{Type: f.Get("grant_type"), ClientID: f.Get("client_id"), Secret: f.Get("client_secret"),
		RefreshToken: f.Get("refresh_token"), Scope: f.Get("scope")}
	if id, secret, ok := BasicAuth(r); ok {
		gr.ClientID, gr.Secret = id, secret
	}
	return gr, nil
}

// BasicAuth reads a client's id and secret from an "Authorization: Basic" header.
func BasicAuth(r *http.Request) (id, secret string, ok bool) {
	enc, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Basic ")
	if !ok {
		return "", "", false
	}
	b, err := base64.StdEncoding.DecodeString(enc)
	if err != nil {
		return "", "", false
	}
	return strings.Cut(string(b), ":")
}
