package amazon

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
)

// rdtKey names the Restricted Data Token among the channel's tokens and notices.
const rdtKey = "rdt"

// rdtPath is the Tokens API's createRestrictedDataToken.
const rdtPath = "/tokens/2021-03-01/restrictedDataToken"

// ordersResources are the restricted resources of the poll's Restricted Data Token: the
// bulk getOrders (path /orders/v0/orders, as tokens_2021-03-01's RestrictedResource.path
// names it) with the data elements of the order's ship-to name, street lines and phone
// (shippingAddress) and the buyer's e-mail (buyerInfo). getOrderItems' restricted data
// (gift wrap, custom orders) is not imported, so its calls go with the access token.
var ordersResources = []map[string]any{{"method": http.MethodGet, "path": "/orders/v0/orders",
	"dataElements": []string{"buyerInfo", "shippingAddress"}}}

// rdtNotice is what the connection says when Amazon refuses the Restricted Data Token.
const rdtNotice = "Amazon refuses the Restricted Data Token of the orders' addresses (the app lacks the restricted " +
	"Direct-to-Consumer Delivery role): orders import without the buyer's name, street, phone and e-mail"

// restrictedToken is the Restricted Data Token of the orders' reads: the one cached for the
// channel, else a new one (createRestrictedDataToken, within its own limit), cached for its
// expiresIn. Amazon forbidding it (a 403: the seller did not grant the restricted role) is no
// error: tok is "" (the orders are read without it), and notices hold rdtNotice the first
// time only (Session.Notice), until a token is got again.
func restrictedToken(ctx context.Context, s *connectors.Session) (tok string, notices []string, err error) {
	tok, err = s.KeyedToken(ctx, rdtKey, func(ctx context.Context) (connectors.Token, error) { return createRDT(ctx, s) })
	var fb *connectors.Forbidden
	switch {
	case errors.As(err, &fb) && !fb.Token:
		msg := rdtNotice + ": " + fb.Message
		first, err := s.Notice(ctx, rdtKey, msg)
		if err != nil {
			return "", nil, err
		}
		if first {
			notices = []string{msg}
		}
		return "", notices, nil
	case err != nil:
		return "", nil, err
	}
	return tok, nil, nil
}

// createRDT asks the Tokens API for a Restricted Data Token of ordersResources and ends the
// channel's notice of a refused one.
func createRDT(ctx context.Context, s *connectors.Session) (connectors.Token, error) {
	body, err := call(ctx, s, OpCreateRestrictedDataToken, http.MethodPost, rdtPath, nil, map[string]any{"restrictedResources": ordersResources})
	if err != nil {
		return connectors.Token{}, err
	}
	var out struct {
		Token     string `json:"restrictedDataToken"`
		ExpiresIn int64  `json:"expiresIn"`
	}
	if err := decode(ctx, s, OpCreateRestrictedDataToken, body, &out); err != nil {
		return connectors.Token{}, err
	}
	if out.Token == "" || out.ExpiresIn <= 0 {
		return connectors.Token{}, fmt.Errorf("amazon %s: the answer has no restrictedDataToken and expiresIn", OpCreateRestrictedDataToken)
	}
	if err := s.EndNotice(ctx, rdtKey); err != nil {
		return connectors.Token{}, err
	}
	return connectors.Token{Value: out.Token, ExpiresAt: time.Now().Add(time.Duration(out.ExpiresIn) * time.Second)}, nil
}

// restricted is how a call bearing the Restricted Data Token tok is authorised: tok in
// x-amz-access-token, the answers judged as authorized judges them.
func restricted(tok string) connectors.Authorized {
	return connectors.Authorized{Header: func(h http.Header, _ string) {
		h.Set("x-amz-access-token", tok)
		h.Set("Accept", "application/json")
	}, Refused: authorized.Refused, Error: answerError}
}

// readOrders makes the getOrders call of q: with the Restricted Data Token when Amazon gives
// one (the orders carry their restricted data), else with the access token. A token Amazon
// refuses before its time is dropped and the call made with the access token.
func readOrders(ctx context.Context, s *connectors.Session, q url.Values) (body []byte, notices []string, err error) {
	tok, notices, err := restrictedToken(ctx, s)
	if err != nil {
		return nil, nil, err
	}
	if tok != "" {
		body, err = callAs(ctx, s, restricted(tok), OpGetOrders, http.MethodGet, ordersPath, q, nil)
		if fb := (*connectors.Forbidden)(nil); !errors.As(err, &fb) {
			return body, notices, err
		}
		if err := s.DropKeyedToken(ctx, rdtKey); err != nil {
			return nil, nil, err
		}
	}
	body, err = call(ctx, s, OpGetOrders, http.MethodGet, ordersPath, q, nil)
	return body, notices, err
}
