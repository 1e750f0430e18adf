package etsy

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/multisell/multisell/pkg/connectors"
)

// ConsentPage is Etsy's consent page.
const ConsentPage = "https://www.etsy.com/oauth/connect"

// Scopes are the scopes the consent asks for: receipts read and written (tracking),
// listings read and written (inventory), the shop read (the shop of the user).
var Scopes = []string{"transactions_r", "transactions_w", "listings_r", "listings_w", "shops_r"}

// ConsentFields implements connectors.Consenter: Etsy's consent names the shop itself.
func (c *connector) ConsentFields() []string { return nil }

// ConsentURL implements connectors.Consenter: Etsy's consent page with the authorization
// code grant's parameters and the PKCE challenge (S256), which Etsy requires.
func (c *connector) ConsentURL(app connectors.App, req connectors.ConsentRequest) (string, error) {
	if req.CodeChallenge == "" {
		return "", errors.New("etsy consent: a PKCE code challenge is required")
	}
	u, err := url.Parse(cmp.Or(app.ConsentURL, ConsentPage))
	if err != nil {
		return "", err
	}
	q := u.Query()
	q.Set("response_type", "code")
	q.Set("client_id", app.ClientID)
	q.Set("redirect_uri", app.RedirectURI)
	q.Set("scope", strings.Join(Scopes, " "))
	q.Set("state", req.State)
	q.Set("code_challenge", req.CodeChallenge)
	q.Set("code_challenge_method", "S256")
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// Exchange implements connectors.Consenter: a denied consent (Etsy's error query) is an
// *AuthError with Etsy's words; else the code and the PKCE verifier are traded for the
// user's tokens (grant_type=authorization_code), the shop of the user the access token
// names (getShopByOwnerUserId) is read, and the channel's credentials are the app's keys,
// the refresh token and that shop.
func (c *connector) Exchange(ctx context.Context, s *connectors.Session, app connectors.App, cb connectors.Callback) (json.RawMessage, error) {
	if e := cb.Query.Get("error"); e != "" {
		return nil, &connectors.AuthError{Message: strings.TrimSpace("etsy consent: " + e + " " + cb.Query.Get("error_description"))}
	}
	code := cb.Query.Get("code")
	if code == "" {
		return nil, &connectors.AuthError{Message: "etsy consent: the callback has no code"}
	}
	t, user, err := grant(ctx, s, cmp.Or(app.TokenURL, ProductionAuth), url.Values{"grant_type": {"authorization_code"},
		"client_id": {app.ClientID}, "redirect_uri": {app.RedirectURI}, "code": {code}, "code_verifier": {cb.CodeVerifier}})
	if err != nil {
		return nil, err
	}
	if user == "" || t.Refresh == "" {
		return nil, errors.New("etsy consent: the token answer has no user id or no refresh token")
	}
	req := connectors.Request{Method: http.MethodGet, URL: strings.TrimSuffix(cmp.Or(s.Endpoints.API, ProductionAPI), "/") + "/v3/application/users/" + user + "/shops",
		Header: http.Header{"Accept": {"application/json"}, "Authorization": {"Bearer " + t.Value}, "X-Api-Key": {apiKey(app.ClientID, app.ClientSecret)}}}
	resp, err := s.Call(ctx, OpAPI, req)
	if err != nil {
		return nil, err
	}
	if resp.Status/100 != 2 {
		msg := "etsy getShopByOwnerUserId: status " + strconv.Itoa(resp.Status) + ": " + errorMessage(resp.Body)
		if resp.Status == http.StatusNotFound {
			return nil, &connectors.AuthError{Message: msg + " (the Etsy user has no shop)"}
		}
		return nil, errors.New(msg)
	}
	var shop Shop
	if err := connectors.DecodeAnswer("etsy", "getShopByOwnerUserId", resp.Body, &shop); err != nil {
		return nil, err
	}
	if shop.ShopID < 1 {
		return nil, errors.New("etsy getShopByOwnerUserId: the answer has no shop_id")
	}
	return json.Marshal(map[string]string{"client_id": app.ClientID, "client_secret": app.ClientSecret,
		"refresh_token": t.Refresh, "shop_id": strconv.FormatInt(shop.ShopID, 10)})
}
