package consent

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/store"
)

// Service is the consent flow: authorizations and their callbacks.
type Service struct {
	Table store.Table
	// Channels connects the channel a consent gave credentials for, or reconnects the
	// account's channel of that marketplace account (the channels service, wired in
	// pkg/app).
	Channels Connector
	// Exchanger trades a callback's code for credentials (the connectors' runtime).
	Exchanger Exchanger
	// Apps reads the operator's apps.
	Apps Apps
	// URLs holds return_url to the webhook URL rules (webhookhttp.Policy: https in AWS,
	// http to loopback too on the local stack).
	URLs URLPolicy
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// Connector connects a channel with credentials, or reconnects the account's channel of the
// same marketplace account (channels.Service.ConnectOrReconnect).
type Connector interface {
	ConnectOrReconnect(ctx context.Context, account string, in channels.ConnectInput) (channels.Channel, error)
}

// Exchanger runs a connector's Consenter.Exchange in a session of no stored state
// (connectors.Runtime.Exchange).
type Exchanger interface {
	Exchange(ctx context.Context, ch connectors.Channel, app connectors.App, cb connectors.Callback) (json.RawMessage, error)
}

// URLPolicy checks a destination URL's form; its error's text names the url.
type URLPolicy interface {
	CheckURL(raw string) error
}

// now is the service's clock.
func (s Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Authorize creates an authorization of the account: the type must be one of multisell's
// connectors that connects by consent and has an app on the deployment, the fields the
// type's, return_url (when given) a URL the webhook rules allow. One PutItem.
func (s Service) Authorize(ctx context.Context, account string, in Input) (Authorization, error) {
	conn, consenter, err := consenterOf(in.Type)
	if err != nil {
		return Authorization{}, err
	}
	spec := conn.Spec()
	if err := checkFields(spec.ChannelType, consenter.ConsentFields(), in.Fields); err != nil {
		return Authorization{}, err
	}
	if in.ReturnURL != "" {
		if err := s.URLs.CheckURL(in.ReturnURL); err != nil {
			return Authorization{}, errs.Invalid("authorization.return_%s", err.Error())
		}
	}
	app, err := appOf(ctx, s.Apps, spec.Name, spec.ChannelType)
	if err != nil {
		return Authorization{}, err
	}
	state, secret := newState(account)
	verifier, challenge := newVerifier()
	consentURL, err := consenter.ConsentURL(app.App, connectors.ConsentRequest{State: state, Fields: in.Fields, CodeChallenge: challenge})
	if err != nil {
		return Authorization{}, errs.Invalid("the app of %s on this deployment has no usable consent URL: its operator corrects it", spec.ChannelType)
	}
	exp := s.now().Add(Lifetime)
	name := in.Name
	if name == "" {
		name = spec.ChannelType
	}
	p := pending{Connector: spec.Name, Name: name, ReturnURL: in.ReturnURL, Fields: in.Fields, Verifier: verifier,
		Expires: exp.Unix(), TTL: exp.Unix()}
	if err := put(ctx, s.Table, account, secret, p); err != nil {
		return Authorization{}, err
	}
	return Authorization{Type: spec.ChannelType, Name: name, ReturnURL: in.ReturnURL, Fields: in.Fields,
		ConsentURL: consentURL, ExpiresAt: isotime.Format(exp)}, nil
}

// consenterOf is the registered connector of typ (its name or display name, any case) and
// its Consenter: a 422 for a type no connector serves or one that does not connect by
// consent.
func consenterOf(typ string) (connectors.Connector, connectors.Consenter, error) {
	conn, ok := connectors.Lookup(strings.ToLower(typ))
	if !ok {
		conn, ok = connectors.ForType(typ)
	}
	if !ok {
		return nil, nil, errs.Invalid("authorization.type is not a channel type multisell connects by consent")
	}
	c, ok := conn.(connectors.Consenter)
	if !ok {
		return nil, nil, errs.Invalid("authorization.type %s does not connect by consent: connect it with its credentials (POST /v1/channels)", conn.Spec().ChannelType)
	}
	return conn, c, nil
}

// The error codes the callback sends the browser back with (docs/connectors.md,
// "Connecting a merchant").
const (
	// CodeDenied: the merchant did not approve the app.
	CodeDenied = "access_denied"
	// CodeRefused: the marketplace refused the code (used, expired) or the credentials it
	// gave did not verify.
	CodeRefused = "refused"
	// CodeWrongType: the callback came to another channel type's route than the
	// authorization's.
	CodeWrongType = "wrong_type"
	// CodeUnavailable: the marketplace or multisell could not answer now; start again later.
	CodeUnavailable = "temporarily_unavailable"
	// CodeServerError: anything else (logged).
	CodeServerError = "server_error"
)

// Result is how a callback ends: the browser sent to Redirect (the authorization's
// return_url with channel_uuid or error), or, for an authorization without one, a page
// saying how it went (Channel the uuid connected, else Code).
type Result struct {
	Redirect string
	Channel  string
	Name     string
	Code     string
}

// ErrUnknownState is the callback's answer to a state that is missing, malformed, unknown,
// another account's, used or expired: no return URL can be trusted, so the browser gets
// a page.
var ErrUnknownState = errs.NotFound("This authorization is unknown, used or expired: start again from where you chose to connect the channel")

// Callback serves the marketplace's redirect to the callback route of the connector typ with
// query: it spends the state (one conditional write: an unknown, used or expired state is
// ErrUnknownState and nothing is stored), then has the connector exchange the code
// (a denied consent, a refused code: the browser goes back with the error code, nothing
// stored), verifies and connects the channel through the channels service's connect path,
// and sends the browser to the return URL with channel_uuid. No code, state or token is
// logged or answered.
func (s Service) Callback(ctx context.Context, typ string, query url.Values) (Result, error) {
	account, secret, ok := splitState(query.Get("state"))
	if !ok {
		return Result{}, ErrUnknownState
	}
	p, ok, err := spend(ctx, s.Table, account, secret, s.now())
	switch {
	case err != nil:
		return Result{}, err
	case !ok:
		return Result{}, ErrUnknownState
	case p.Connector != typ:
		return p.end("", CodeWrongType)
	}
	log := logctx.From(ctx).With("account_id", account, "connector", p.Connector)
	uuid, code := s.connect(ctx, account, p, query)
	if code != "" {
		log.Info("consent not connected", "code", code)
	} else {
		log.Info("consent connected", "channel_uuid", uuid)
	}
	return p.end(uuid, code)
}

// connect exchanges the callback's code for credentials and connects the channel: its uuid,
// else the error code.
func (s Service) connect(ctx context.Context, account string, p pending, query url.Values) (uuid, code string) {
	log := logctx.From(ctx)
	conn, _, err := consenterOf(p.Connector)
	if err != nil {
		log.Error("consent callback of a connector no longer registered", "error", err.Error())
		return "", CodeServerError
	}
	app, err := appOf(ctx, s.Apps, p.Connector, conn.Spec().ChannelType)
	if err != nil {
		log.Error("consent callback without the app", "error", err.Error())
		return "", failureCode(err)
	}
	ep := connectors.Endpoints{API: app.Endpoints.API, Auth: app.Endpoints.Auth}
	creds, err := s.Exchanger.Exchange(ctx, connectors.Channel{Account: account, Connector: p.Connector, Endpoints: ep}, app.App,
		connectors.Callback{Query: query, Fields: p.Fields, CodeVerifier: p.Verifier})
	var refused *connectors.AuthError
	switch {
	case err != nil && query.Get("error") != "":
		return "", CodeDenied
	case errors.As(err, &refused):
		log.Info("the marketplace refused the consent's code", "reason", refused.Message)
		return "", CodeRefused
	case err != nil:
		log.Warn("consent exchange failed", "error", err.Error())
		return "", failureCode(err)
	}
	ch, err := s.Channels.ConnectOrReconnect(ctx, account, channels.ConnectInput{Name: p.Name, Type: p.Connector, Credentials: creds, Endpoints: app.Endpoints})
	if err != nil {
		log.Warn("consent's channel not connected", "error", err.Error())
		return "", failureCode(err)
	}
	return ch.UUID, ""
}

// failureCode is the error code of a failed exchange or connect: the channel's refusal or
// a rule (a 4xx) is refused, an outage temporarily_unavailable, anything else server_error.
func failureCode(err error) string {
	var th *connectors.Throttled
	switch k := errs.KindOf(err); {
	case errors.As(err, &th) || k == errs.KindUnavailable:
		return CodeUnavailable
	case k.Client():
		return CodeRefused
	}
	return CodeServerError
}

// end is the callback's end for p: the browser back to its return URL with channel_uuid
// (code "") or error, else the Result a page shows.
func (p pending) end(uuid, code string) (Result, error) {
	if p.ReturnURL == "" {
		return Result{Channel: uuid, Name: p.Name, Code: code}, nil
	}
	u, err := url.Parse(p.ReturnURL)
	if err != nil {
		return Result{}, err
	}
	q := u.Query()
	if code != "" {
		q.Set("error", code)
	} else {
		q.Set("channel_uuid", uuid)
	}
	u.RawQuery = q.Encode()
	return Result{Redirect: u.String(), Channel: uuid, Name: p.Name, Code: code}, nil
}
