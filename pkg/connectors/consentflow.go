package connectors

import (
	"context"
	"encoding/json"
	"maps"
	"slices"

	"github.com/multisell/multisell/pkg/errs"
)

// Consenters are the registered connectors that implement Consenter, by name: the channel
// types a merchant connects by consent.
func Consenters() []Connector {
	registry.RLock()
	defer registry.RUnlock()
	var out []Connector
	for _, name := range slices.Sorted(maps.Keys(registry.byName)) {
		if _, ok := registry.byName[name].(Consenter); ok {
			out = append(out, registry.byName[name])
		}
	}
	return out
}

// Exchange runs the Consenter of ch's connector on the callback cb of app: a session built
// as Verify's (nothing shared, nothing written; no credentials yet), on ch's endpoints or
// the connector's. Its error's text is cleaned of the callback's values (the code, the
// state) and the app's secret, as every channel error is of the credentials (Clean).
func (r *Runtime) Exchange(ctx context.Context, ch Channel, app App, cb Callback) (json.RawMessage, error) {
	conn, err := connectorOf(ch)
	if err != nil {
		return nil, err
	}
	consenter, ok := conn.(Consenter)
	if !ok {
		return nil, errNotConsenter(conn)
	}
	spec := conn.Spec()
	ep := ch.Endpoints.Or(spec.Endpoints)
	if err := ep.Check(r.Policy); err != nil {
		return nil, err
	}
	s := &Session{Account: ch.Account, Channel: ch.UUID, Endpoints: ep, HTTP: r.client(), rt: r, conn: conn, spec: spec, verify: true,
		secrets: append(callbackSecrets(cb), app.ClientSecret, cb.CodeVerifier)}
	creds, err := consenter.Exchange(ctx, s, app, cb)
	return creds, s.clean(err)
}

// callbackSecrets are the values of a callback's query: its code and state among them.
func callbackSecrets(cb Callback) []string {
	var out []string
	for _, vs := range cb.Query {
		out = append(out, vs...)
	}
	return out
}

// errNotConsenter is the error of a channel type whose connector connects by credentials
// only.
func errNotConsenter(c Connector) error {
	return errs.Invalid("channel type %s does not connect by consent: connect it with its credentials (POST /v1/channels)", c.Spec().ChannelType)
}
