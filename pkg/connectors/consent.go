package connectors

import (
	"context"
	"encoding/json"
	"net/url"
)

// App is the operator's app at a marketplace, the one every merchant of the deployment
// approves to connect a channel by consent (docs/connectors.md, "Connecting a merchant").
// It is operator configuration, read from a secret; nothing of it comes from a merchant.
type App struct {
	// ClientID and ClientSecret are the app's keys at the marketplace (an Etsy app's
	// keystring and shared secret, an LWA client of an Amazon app, ...).
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	// RedirectURI is the callback URL registered with the marketplace (the stack's public
	// callback route of this channel type).
	RedirectURI string `json:"redirect_uri"`
	// ConsentURL is the marketplace's consent page and TokenURL its code-exchange endpoint
	// ("": the connector's production ones); the local stack points them at the sandboxes.
	ConsentURL string `json:"consent_url,omitempty"`
	TokenURL   string `json:"token_url,omitempty"`
	// Extra holds what a marketplace needs beyond these: eBay's RuName ("ru_name"), an
	// Amazon app's application id ("application_id"), ...
	Extra map[string]string `json:"extra,omitempty"`
}

// ConsentRequest is one authorization a merchant asked for: the state the callback must
// bring back, the channel type's own fields of the request (shop_domain, marketplace_id)
// and, for marketplaces that take PKCE (RFC 7636), the S256 challenge of its verifier.
type ConsentRequest struct {
	State         string
	Fields        map[string]string
	CodeChallenge string
}

// Callback is the marketplace's redirect back to the callback route, after the state was
// checked: its query as it came, the authorization's fields and its PKCE verifier ("" when
// none).
type Callback struct {
	Query        url.Values
	Fields       map[string]string
	CodeVerifier string
}

// Consenter is implemented by the connectors whose channels connect by consent. The
// consent flow (pkg/consent) calls ConsentURL when an authorization is created and
// Exchange when the marketplace redirects back; the credentials Exchange returns are then
// verified and stored as those of POST /v1/channels are.
type Consenter interface {
	// ConsentFields are the names of the authorization's own fields this channel type
	// requires (shop_domain for Shopify, marketplace_id for Amazon and eBay).
	ConsentFields() []string
	// ConsentURL is the URL the merchant opens to approve app.
	ConsentURL(app App, req ConsentRequest) (string, error)
	// Exchange trades the callback's code for the channel's credentials, as the connector's
	// ParseCredentials takes them. A denied consent or a refused code is an *AuthError with
	// the marketplace's words, which must never hold the code or a token.
	Exchange(ctx context.Context, s *Session, app App, cb Callback) (json.RawMessage, error)
}
