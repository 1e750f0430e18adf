package shopify

import (
	"context"
	"encoding/hex"
	"net/url"

	"github.com/multisell/multisell/pkg/connectors"
)

// OrdersPage is the most orders a page of a poll holds, for the conformance suite.
var OrdersPage = ordersPage

// VerifyHMAC is verifyHMAC, for the consent tests.
var VerifyHMAC = verifyHMAC

// AccessToken is the channel's access token as the connector gets it (the rotation tests).
func AccessToken(ctx context.Context, s *connectors.Session) (string, error) {
	return (&authorizer{s: s}).token(ctx)
}

// Sign is Shopify's hmac of q with secret, in hex.
func Sign(secret string, q url.Values) string { return hex.EncodeToString(signature(secret, q)) }
