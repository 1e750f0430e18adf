package connectors

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

// Sealer encrypts what the runtime keeps of a channel's secrets (its credentials, its cached
// access tokens) for one account and channel; pkg/secrets implements it with KMS.
type Sealer interface {
	Seal(ctx context.Context, account, channel string, plaintext []byte) ([]byte, error)
	Open(ctx context.Context, account, channel string, sealed []byte) ([]byte, error)
}

// Inbox is the channel inbox, where the runtime hands what the channels answer: order import
// documents, and listing.result / shipment.result messages (JSON bodies), for one account.
type Inbox interface {
	SendOrders(ctx context.Context, account string, docs []json.RawMessage) error
	SendResults(ctx context.Context, account string, results []json.RawMessage) error
}

// Channels finds the channel an outbox message names.
type Channels interface {
	// Channel returns the account's channel uuid; errs.NotFound when the account has none,
	// or none the runtime may reach (not connected).
	Channel(ctx context.Context, account, uuid string) (Channel, error)
}

// Channel is a channel the runtime reaches.
type Channel struct {
	Account, UUID string
	// Type is the channel type's display name ("Amazon"); Connector, when set, the
	// connector's name, which wins over Type.
	Type, Connector string
	// Credentials are the channel's credentials as the Sealer sealed them.
	Credentials []byte
	// Endpoints are the channel's own endpoints (empty: the connector's).
	Endpoints Endpoints
}

// Defaults of the Runtime's settings.
const (
	// DefaultMaxWait is the longest a call waits for its channel's limits before it is
	// Throttled instead.
	DefaultMaxWait = 5 * time.Second
	// DefaultOverlap is how far before the newest change a poll saw the next poll starts, so
	// an order the channel changed at the same moment but listed late is seen.
	DefaultOverlap = 5 * time.Minute
	// DefaultLookback is how far back the first poll of a channel looks.
	DefaultLookback = 24 * time.Hour
	// DefaultPollLease is how long a poll holds its channel; a poll that dies leaves it to
	// the next after this.
	DefaultPollLease = 5 * time.Minute
	// RefusalsToDisconnect is how many refusals of its token in a row disconnect a channel.
	RefusalsToDisconnect = 3
	// TokenSkew is how long before its expiry a cached access token is exchanged anew.
	TokenSkew = time.Minute
	// DefaultCallTimeout bounds one call to a channel, its answer read to its end.
	DefaultCallTimeout = 30 * time.Second
	// exchangeLease is how long an instance holds a channel's token exchange.
	exchangeLease = 15 * time.Second
)

// Runtime runs the connectors of every channel: it builds their sessions, keeps the shared
// state in the table, polls orders and pushes the outbox. The zero value of each setting is
// its default.
type Runtime struct {
	Table store.Table
	// Sealer seals and opens the access tokens the runtime caches; Credentials opens the
	// channels' credentials (nil: Sealer). pkg/secrets binds a sealed value to its purpose,
	// so the two are its services of the two purposes.
	Sealer, Credentials Sealer
	Inbox               Inbox
	Channels            Channels
	// Policy is the rule of channel endpoints (webhookhttp: https only in AWS; on the local
	// stack, http to a loopback host).
	Policy webhookhttp.Policy
	// HTTP is the client of channel calls (nil: the runtime's own, see client).
	HTTP *http.Client
	// CallTimeout bounds one call of the runtime's own client (0: DefaultCallTimeout).
	CallTimeout time.Duration
	// Resolver finds a channel host's addresses for the runtime's own client (nil: the
	// system's resolver).
	Resolver webhookhttp.Resolver
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// MaxWait, Overlap, Lookback, PollLease: see the defaults.
	MaxWait, Overlap, Lookback, PollLease time.Duration

	once       sync.Once
	owner      string
	clientOnce sync.Once
	ownClient  *http.Client
	buckets    sync.Map // itemID.text() -> bucket: the last one seen, a hint of the next take
}

// now is the runtime's clock.
func (r *Runtime) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// ownerID is this instance's name in the leases it holds.
func (r *Runtime) ownerID() string {
	r.once.Do(func() { r.owner = rand.Text() })
	return r.owner
}

// client is the client of channel calls: HTTP, else the runtime's own over the Policy's
// transport (webhookhttp.Policy.Transport), so that no channel endpoint, the URL a merchant
// gave nor the host a shop domain names, reaches an address the Policy refuses (a private,
// loopback or metadata address in AWS) even when its name resolves to one. It follows no
// redirect (noRedirect).
func (r *Runtime) client() *http.Client {
	if r.HTTP != nil {
		return r.HTTP
	}
	r.clientOnce.Do(func() {
		r.ownClient = &http.Client{Timeout: cmp.Or(r.CallTimeout, DefaultCallTimeout),
			Transport: r.Policy.Transport(r.Resolver, nil, connectTimeout), CheckRedirect: noRedirect}
	})
	return r.ownClient
}

// connectTimeout bounds the connection and TLS handshake of a channel call.
const connectTimeout = 10 * time.Second

// connector returns the connector of ch.
func connectorOf(ch Channel) (Connector, error) {
	if ch.Connector != "" {
		if c, ok := Lookup(ch.Connector); ok {
			return c, nil
		}
		return nil, errs.Invalid("channel.connector %q is not a connector", ch.Connector)
	}
	if c, ok := ForType(ch.Type); ok {
		return c, nil
	}
	return nil, errs.Invalid("channel.type %q has no connector", ch.Type)
}

// Session opens the channel's sealed credentials and returns its session.
func (r *Runtime) Session(ctx context.Context, ch Channel) (*Session, error) {
	plain, err := cmp.Or(r.Credentials, r.Sealer).Open(ctx, ch.Account, ch.UUID, ch.Credentials)
	if err != nil {
		return nil, fmt.Errorf("open the credentials of channel %s: %w", ch.UUID, err)
	}
	s, err := r.newSession(ch, plain, false)
	if err != nil {
		return nil, err
	}
	s.sealed = sealedDigest(ch.Credentials)
	return s, nil
}

// sealedDigest names one sealing of a channel's credentials: new credentials (PATCH) are
// sealed anew, so a token cached from the old ones is known stale by its digest. It is a
// digest of the ciphertext: it tells nothing of the credentials.
func sealedDigest(sealed []byte) string {
	sum := sha256.Sum256(sealed)
	return hex.EncodeToString(sum[:16])
}

// Verify checks new credentials (plaintext JSON) of ch, before anything of them is stored:
// the connector parses them (errs.Invalid naming the field), the endpoints are checked, and
// the connector makes its verification calls. Nothing is written to the table: the calls
// take no token of the shared buckets and the access token is not cached. A refusal is an
// *AuthError with the channel's message, cleaned of its secrets as every error is (Clean).
func (r *Runtime) Verify(ctx context.Context, ch Channel, credentials []byte) error {
	s, err := r.newSession(ch, credentials, true)
	if err != nil {
		return err
	}
	return s.clean(s.conn.Verify(ctx, s))
}

// newSession is the session of ch with plaintext credentials.
func (r *Runtime) newSession(ch Channel, credentials []byte, verify bool) (*Session, error) {
	conn, err := connectorOf(ch)
	if err != nil {
		return nil, err
	}
	spec := conn.Spec()
	creds, err := conn.ParseCredentials(credentials)
	if err != nil {
		return nil, err
	}
	ep := ch.Endpoints.Or(spec.Endpoints)
	if err := ep.Check(r.Policy); err != nil {
		return nil, err
	}
	return &Session{
		Account: ch.Account, Channel: ch.UUID, Credentials: creds, Endpoints: ep,
		HTTP: r.client(), rt: r, conn: conn, spec: spec, verify: verify, secrets: secretsOf(credentials),
	}, nil
}

// maxWait is the longest a call waits for a token.
func (r *Runtime) maxWait() time.Duration { return cmp.Or(r.MaxWait, DefaultMaxWait) }
