package shopify

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/errs"
)

// authorizePath is the shop's consent page (Shopify's authorization code grant).
const authorizePath = "/admin/oauth/authorize"

// myshopify is a shop's myshopify.com host, the one host a consent goes to and comes back
// from (Shopify's rule of the callback's shop parameter).
var myshopify = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*\.myshopify\.com$`)

// ConsentFields implements connectors.Consenter: the shop's myshopify.com domain.
func (*connector) ConsentFields() []string { return []string{"shop_domain"} }

// consentShop is the authorization's shop_domain, in lower case, when it is a myshopify.com
// host: the consent page is on the shop's own host, so nothing else may be.
func consentShop(fields map[string]string) (string, error) {
	shop := strings.ToLower(strings.TrimSpace(fields["shop_domain"]))
	if !myshopify.MatchString(shop) {
		return "", errs.Invalid("authorization.shop_domain must be the shop's myshopify.com domain, such as example.myshopify.com")
	}
	return shop, nil
}

// ConsentURL implements connectors.Consenter: https://{shop}/admin/oauth/authorize with the
// app's client_id, the scopes the connector needs (requiredScopes; app.Extra["scope"]
// replaces them), redirect_uri and state, and no grant_options[]: an offline token, which
// the code exchange asks to expire (Exchange). app.ConsentURL replaces the shop's page (the
// local stack's sandbox), which is then told the shop in a shop parameter.
func (*connector) ConsentURL(app connectors.App, req connectors.ConsentRequest) (string, error) {
	shop, err := consentShop(req.Fields)
	if err != nil {
		return "", err
	}
	base := "https://" + shop + authorizePath
	if app.ConsentURL != "" {
		base = app.ConsentURL
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("shopify consent URL: %w", err)
	}
	q := u.Query()
	scope := app.Extra["scope"]
	if scope == "" {
		scope = strings.Join(requiredScopes, ",")
	}
	q.Set("client_id", app.ClientID)
	q.Set("scope", scope)
	q.Set("redirect_uri", app.RedirectURI)
	q.Set("state", req.State)
	if app.ConsentURL != "" {
		q.Set("shop", shop)
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// Exchange implements connectors.Consenter. The callback's hmac must be Shopify's signature
// of its other parameters with the app's client secret (checked in constant time), and its
// shop the authorization's; a consent the merchant declined is refused. The code is then
// traded at the shop's token endpoint for an expiring offline token (expiring=1: an access
// token of an hour and a refresh token that rotates at each refresh), with which the shop's
// primary location is read. The credentials are the refresh-token form: shop_domain,
// location_id, the app's client_id and client_secret, refresh_token.
func (*connector) Exchange(ctx context.Context, s *connectors.Session, app connectors.App, cb connectors.Callback) (json.RawMessage, error) {
	if err := verifyHMAC(app.ClientSecret, cb.Query); err != nil {
		return nil, err
	}
	shop, err := consentShop(cb.Fields)
	if err != nil {
		return nil, err
	}
	if strings.ToLower(cb.Query.Get("shop")) != shop {
		return nil, &connectors.AuthError{Message: "the callback is of another shop than the authorization's"}
	}
	if e := cb.Query.Get("error"); e != "" {
		return nil, &connectors.AuthError{Message: "the merchant did not approve the app (" + e + ")"}
	}
	code := cb.Query.Get("code")
	if code == "" {
		return nil, &connectors.AuthError{Message: "the callback has no code"}
	}
	t, err := exchangeCode(ctx, s, app, shop, code)
	if err != nil {
		return nil, err
	}
	loc, err := primaryLocation(ctx, s, shop, t.Value)
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]string{"shop_domain": shop, "location_id": loc,
		"client_id": app.ClientID, "client_secret": app.ClientSecret, "refresh_token": t.Refresh})
}

// exchangeCode trades the callback's code for an expiring offline token at app.TokenURL,
// else https://{shop}/admin/oauth/access_token. A refused code is a *connectors.AuthError; an
// answer without a refresh token (a non-expiring token) is an error.
func exchangeCode(ctx context.Context, s *connectors.Session, app connectors.App, shop, code string) (connectors.Token, error) {
	u := app.TokenURL
	if u == "" {
		u = "https://" + shop + tokenPath
	}
	form := url.Values{"client_id": {app.ClientID}, "client_secret": {app.ClientSecret}, "code": {code}, "expiring": {"1"}}
	resp, err := s.Call(ctx, opToken, connectors.Request{Method: http.MethodPost, URL: u, Body: []byte(form.Encode()),
		Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Accept": {"application/json"}}})
	if err != nil {
		return connectors.Token{}, err
	}
	t, err := connectors.ParseTokenAnswer("shopify", resp.Status, resp.Body, time.Now())
	if err != nil {
		return connectors.Token{}, err
	}
	if t.Refresh == "" {
		return connectors.Token{}, errors.New("shopify token: the code exchange gave no refresh_token (not an expiring offline token)")
	}
	return t, nil
}

// primaryLocationQuery reads the shop's primary location (location without an id).
const primaryLocationQuery = `query PrimaryLocation { location { id } }`

// primaryLocation is the id of the shop's primary location, read with the access token tok:
// the location a channel connected by consent stocks from.
func primaryLocation(ctx context.Context, s *connectors.Session, shop, tok string) (string, error) {
	sub := *s
	sub.Credentials = credentials{ShopDomain: shop, AccessToken: tok}
	var out struct {
		Location *struct {
			ID string `json:"id"`
		} `json:"location"`
	}
	if err := call(ctx, &sub, primaryLocationQuery, nil, queryCost(primaryLocationQuery, nil), &out); err != nil {
		return "", err
	}
	if out.Location == nil || !locationID.MatchString(out.Location.ID) {
		return "", &AnswerError{Status: http.StatusOK, Message: "the shop has no primary location"}
	}
	return out.Location.ID, nil
}

// verifyHMAC checks, in constant time, that the query's hmac is Shopify's signature of its
// other parameters with the app's secret (signature); a missing or malformed one fails too.
func verifyHMAC(secret string, q url.Values) error {
	got, err := hex.DecodeString(q.Get("hmac"))
	if !hmac.Equal(signature(secret, q), got) || err != nil || secret == "" {
		return &connectors.AuthError{Message: "the callback's hmac does not verify: it is not Shopify's"}
	}
	return nil
}

// signature is the HMAC-SHA256 Shopify signs a request to an app with: the parameters but
// hmac (and the legacy signature) sorted by name, each name=value (a name's [] dropped, its
// several values as ["a", "b"]; % and & escaped, and = in names), joined by &, keyed by
// the app's client secret.
func signature(secret string, q url.Values) []byte {
	esc := strings.NewReplacer("%", "%25", "&", "%26")
	escName := strings.NewReplacer("%", "%25", "&", "%26", "=", "%3D")
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(q)) {
		if k == "hmac" || k == "signature" {
			continue
		}
		vs := q[k]
		v := esc.Replace(vs[0])
		if len(vs) > 1 || strings.HasSuffix(k, "[]") {
			quoted := make([]string, len(vs))
			for i, x := range vs {
				quoted[i] = `"` + esc.Replace(x) + `"`
			}
			v = "[" + strings.Join(quoted, ", ") + "]"
		}
		parts = append(parts, escName.Replace(strings.TrimSuffix(k, "[]"))+"="+v)
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(strings.Join(parts, "&")))
	return mac.Sum(nil)
}
