package channels

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/redact"
	"github.com/multisell/multisell/pkg/store"
)

// ConnectInput connects a channel (POST /channels): its name, its type (a
// connector's name or display name), its credentials (plaintext JSON, never
// stored as such) and its endpoints (empty: the connector's).
type ConnectInput struct {
	Name, Type  string
	Credentials []byte
	Endpoints   Endpoints
}

// PatchInput changes a connected channel (PATCH /channels/{uuid}): its state
// ("" keeps it) and new credentials (nil keeps them).
type PatchInput struct {
	State       string
	Credentials []byte
}

// Link is what the connector runtime needs of a connected channel: the
// channel (its Connector and Endpoints) and its sealed credentials.
type Link struct {
	Channel     Channel
	Credentials []byte
}

// Ref names a connected active channel of an account and its connector.
type Ref struct {
	Account, UUID, Connector string
}

// DisconnectedByMerchant is the reason DELETE /channels/{uuid} records.
const DisconnectedByMerchant = "disconnected by the merchant"

// errChanged is the answer to a change that raced another on the channel.
var errChanged = errs.Conflict("The channel changed meanwhile; read it and try again")

// Connect creates a channel served by one of multisell's connectors: the
// connector verifies the credentials with one call to the channel first (a
// refusal is a 422 with the channel's message, and nothing is stored), then
// the channel, its status and its sealed credentials are stored in one
// transaction. A type without a connector is a 422.
func (s Service) Connect(ctx context.Context, account string, in ConnectInput) (Channel, error) {
	name, display, ok := s.Verifier.Connector(in.Type)
	if !ok {
		return Channel{}, errs.Invalid("channel.type %q has no connector in multisell: connect it with an external connector (multisell channels create)", redact.Clip(in.Type, 64))
	}
	c, err := newChannel(store.NewID(), isotime.Format(time.Now()), Input{Name: in.Name, Type: display})
	if err != nil {
		return Channel{}, err
	}
	c.Connector, c.Connection.Connector, c.Endpoints = name, name, in.Endpoints
	if c.MarketplaceAccount, err = s.Verifier.MarketplaceAccount(ctx, verification(account, c, in.Credentials)); err != nil {
		return Channel{}, err
	}
	if err := s.notConnected(ctx, account, c); err != nil {
		return Channel{}, err
	}
	sealed, err := s.verifyAndSeal(ctx, account, c, in.Credentials)
	if err != nil {
		return Channel{}, err
	}
	err = connect(ctx, s.Table, account, c, sealed)
	if i, failed := store.FailedWrite(err); failed && i == connectMarketplaceWrite {
		// Connected meanwhile by another request.
		return Channel{}, s.notConnected(ctx, account, c)
	}
	if err != nil {
		return Channel{}, err
	}
	return c, nil
}

// verification is what the connector checks of credentials for channel c.
func verification(account string, c Channel, credentials []byte) Verification {
	return Verification{Account: account, UUID: c.UUID, Connector: c.Connector, Credentials: credentials, Endpoints: c.Endpoints}
}

// notConnected refuses, as a 409 naming the channel, a new channel c whose
// marketplace account the account has connected already.
func (s Service) notConnected(ctx context.Context, account string, c Channel) error {
	if c.MarketplaceAccount == "" {
		return nil
	}
	uuid, found, err := marketplaceChannel(ctx, s.Table, account, c)
	switch {
	case err != nil:
		return err
	case found:
		return &connectedAlready{uuid: uuid, err: errs.Conflict(fmt.Sprintf("This %s is connected already as channel %s; to connect it again, give that channel new credentials (PATCH /v1/channels/%s)",
			c.MarketplaceAccount, uuid, uuid))}
	}
	return nil
}

// connectedAlready is the 409 of a marketplace account connected already, naming its
// channel for ConnectOrReconnect.
type connectedAlready struct {
	uuid string
	err  *errs.Error
}

// Error is the 409's message.
func (c *connectedAlready) Error() string { return c.err.Error() }

// Unwrap returns the 409.
func (c *connectedAlready) Unwrap() error { return c.err }

// ConnectOrReconnect connects a channel as Connect does, except when the account has
// connected the marketplace account the credentials name already: that channel then gets
// the credentials as PATCH /channels/{uuid} gives them (verified, sealed, and connected
// again if it was disconnected), keeping its name, orders and listings. A connect by
// consent (pkg/consent) comes here.
func (s Service) ConnectOrReconnect(ctx context.Context, account string, in ConnectInput) (Channel, error) {
	c, err := s.Connect(ctx, account, in)
	if dup := (*connectedAlready)(nil); errors.As(err, &dup) {
		return s.Patch(ctx, account, dup.uuid, PatchInput{Credentials: in.Credentials})
	}
	return c, err
}

// verifyAndSeal verifies the credentials of c with its connector and seals
// them for the account and channel.
func (s Service) verifyAndSeal(ctx context.Context, account string, c Channel, credentials []byte) ([]byte, error) {
	if err := s.Verifier.Verify(ctx, verification(account, c, credentials)); err != nil {
		return nil, err
	}
	sealed, err := s.Sealer.Seal(ctx, account, c.UUID, credentials)
	if err != nil {
		return nil, fmt.Errorf("seal the credentials of channel %s: %w", c.UUID, err)
	}
	return sealed, nil
}

// Patch changes a channel's state (active or inactive) and, for a channel of
// multisell's connectors, its credentials, verified as Connect verifies them
// (new credentials make a disconnected channel active again). An inactive
// channel is neither polled nor pushed, and its listings show off. One read,
// then one write (a transaction with new credentials) and one Query of the
// channel as it is now.
func (s Service) Patch(ctx context.Context, account, uuid string, in PatchInput) (Channel, error) {
	if !store.ValidID(uuid) {
		return Channel{}, ErrNotFound
	}
	c, err := get(ctx, s.Table, account, uuid)
	if err != nil {
		return Channel{}, err
	}
	was := c.State
	if in.State != "" {
		c.State = in.State
	}
	var sealed []byte
	switch {
	case in.Credentials != nil && c.Connector == "":
		return Channel{}, errs.Invalid("channel.credentials: this channel has no connector in multisell; its external connector keeps its credentials")
	case in.Credentials != nil:
		if in.State == "" && was == StateDisconnected {
			c.State = StateActive
		}
		if err := s.sameMarketplaceAccount(ctx, account, c, in.Credentials); err != nil {
			return Channel{}, err
		}
		if sealed, err = s.verifyAndSeal(ctx, account, c, in.Credentials); err != nil {
			return Channel{}, err
		}
	case c.Connector != "" && was == StateDisconnected && c.State != was:
		return Channel{}, errs.Invalid("channel.credentials are required to connect a disconnected channel again")
	}
	if c.State != was || sealed != nil {
		if err := setState(ctx, s.Table, account, c, was, sealed); store.Raced(err) {
			return Channel{}, errChanged
		} else if err != nil {
			return Channel{}, err
		}
	}
	return getWithStatus(ctx, s.Table, account, uuid)
}

// Disconnect makes the channel disconnected: it leaves the connected index,
// its credentials are deleted, reason is recorded as its last error, and the
// stream makes a channel.disconnected event of it. Its orders and listings
// are kept. DELETE /channels/{uuid} calls it, and the connector runtime after
// the channel refused its token three times in a row; reason is recorded
// cleaned of anything shaped like a secret (redact.Text). A channel already
// disconnected is answered as it is. One read, one transaction, one Query of
// the channel as it is now.
func (s Service) Disconnect(ctx context.Context, account, uuid, reason string) (Channel, error) {
	if !store.ValidID(uuid) {
		return Channel{}, ErrNotFound
	}
	c, err := get(ctx, s.Table, account, uuid)
	if err != nil {
		return Channel{}, err
	}
	if c.State != StateDisconnected {
		err := disconnect(ctx, s.Table, account, uuid, c.State, redact.Text(reason), isotime.Format(time.Now()))
		if store.Raced(err) {
			return Channel{}, errChanged
		} else if err != nil {
			return Channel{}, err
		}
	}
	return getWithStatus(ctx, s.Table, account, uuid)
}

// Connection returns what the connector runtime needs of the account's
// channel uuid: ErrNotFound unless it is connected (through one of
// multisell's connectors, with credentials) and active. One BatchGetItem.
func (s Service) Connection(ctx context.Context, account, uuid string) (Link, error) {
	if !store.ValidID(uuid) {
		return Link{}, ErrNotFound
	}
	c, sealed, err := getCredentials(ctx, s.Table, account, uuid)
	if err != nil {
		return Link{}, err
	}
	if !c.connected() || sealed == nil {
		return Link{}, ErrNotFound
	}
	return Link{Channel: c, Credentials: sealed}, nil
}

// Connected hands visit every connected active channel of every account, a
// page at a time (one Query of the connected index per page, up to 1 MB),
// for the poll scheduler. An error from visit ends the walk and is returned.
func (s Service) Connected(ctx context.Context, visit func([]Ref) error) error {
	return walkConnected(ctx, s.Table, visit)
}

// RecordPoll records that the channel's orders were polled at at.
func (s Service) RecordPoll(ctx context.Context, account, uuid string, at time.Time) error {
	return setStatus(ctx, s.Table, account, uuid, map[string]string{attrLastPoll: isotime.Format(at)})
}

// RecordPush records that quantities or tracking were pushed to the channel
// at at.
func (s Service) RecordPush(ctx context.Context, account, uuid string, at time.Time) error {
	return setStatus(ctx, s.Table, account, uuid, map[string]string{attrLastPush: isotime.Format(at)})
}

// RecordError records the channel's last error at at: its message cleaned of
// anything shaped like a secret and clipped (redact.Text), as the runtime
// cleans it of the channel's own credentials first.
func (s Service) RecordError(ctx context.Context, account, uuid, message string, at time.Time) error {
	return setStatus(ctx, s.Table, account, uuid, map[string]string{
		attrLastError: redact.Text(message), attrLastErrorAt: isotime.Format(at)})
}

// sameMarketplaceAccount refuses new credentials of channel c that name
// another marketplace account than the one it was connected as.
func (s Service) sameMarketplaceAccount(ctx context.Context, account string, c Channel, credentials []byte) error {
	if c.MarketplaceAccount == "" {
		return nil
	}
	named, err := s.Verifier.MarketplaceAccount(ctx, verification(account, c, credentials))
	if err != nil {
		return err
	}
	if named != c.MarketplaceAccount {
		return errs.Invalid("channel.credentials are of the %s, not of this channel's %s: connect that account as a channel of its own", named, c.MarketplaceAccount)
	}
	return nil
}
