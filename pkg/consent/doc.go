// Package consent connects a merchant's channel by consent: the merchant approves the
// operator's app at the marketplace and multisell keeps the credentials that approval gives,
// so nobody pastes a developer's keys (docs/connectors.md, "Connecting a merchant").
//
// POST /channels/authorizations stores a pending authorization (its state unguessable,
// single use, ten minutes long, bound to the account, the channel type, its fields, the
// return URL and a PKCE verifier) and answers the marketplace's consent URL, which the
// connector builds (connectors.Consenter). The marketplace sends the merchant's browser back
// to the public callback route of the type, GET /channels/authorizations/{type}/callback,
// which spends the state, has the connector exchange the code for the channel's ordinary
// credentials, connects the channel through the channels service's connect path (or
// reconnects the account's channel of the same marketplace account) and sends the browser
// to the return URL with the channel's uuid or an error code. The operator's apps are
// configuration read from a secret (AppConfig).
package consent
