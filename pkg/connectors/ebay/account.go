package ebay

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/multisell/multisell/pkg/connectors"
)

// OpIdentity is the Commerce Identity API (getUser), called only when a channel is connected
// or given new credentials.
const OpIdentity = "commerce.identity"

// userPath is the Commerce Identity API's getUser.
const userPath = "/commerce/identity/v1/user/"

// identityHosts are the hosts of eBay's Commerce Identity API by the host of its other APIs:
// eBay serves it from its own host (apiz). Any other API endpoint (a sandbox of ours) serves
// it itself.
var identityHosts = map[string]string{"api.ebay.com": "apiz.ebay.com", "api.sandbox.ebay.com": "apiz.sandbox.ebay.com"}

// user is the part of getUser's answer the connector reads.
type user struct {
	UserID   string `json:"userId"`
	Username string `json:"username"`
}

// FindMarketplaceAccount implements connectors.AccountFinder: the eBay user the refresh token
// is of, by its userId, which eBay never changes (a username can be changed), asked of getUser
// with an access token of IdentityScope alone. One user is one channel whatever marketplace
// its credentials name: getOrders answers the user's orders of every marketplace, so a
// second channel of the same user would import them twice.
func (c *connector) FindMarketplaceAccount(ctx context.Context, s *connectors.Session) (string, error) {
	base, err := identityBase(s.Endpoints.API)
	if err != nil {
		return "", err
	}
	resp, err := callAt(ctx, s, OpIdentity, http.MethodGet, base, userPath, nil,
		func(ctx context.Context, s *connectors.Session) (connectors.Token, error) {
			return grant(ctx, s, IdentityScope)
		})
	if err != nil {
		return "", err
	}
	var u user
	if err := connectors.DecodeAnswer("ebay", "getUser", resp.Body, &u); err != nil {
		return "", err
	}
	if strings.TrimSpace(u.UserID) == "" {
		return "", errors.New("ebay getUser: the answer names no userId")
	}
	return "eBay user " + u.UserID, nil
}

// identityBase is the base URL of the Commerce Identity API beside the API endpoint api.
func identityBase(api string) (string, error) {
	u, err := url.Parse(strings.TrimSuffix(api, "/"))
	if err != nil {
		return "", err
	}
	if h, ok := identityHosts[u.Hostname()]; ok {
		u.Host = h
	}
	return u.String(), nil
}
