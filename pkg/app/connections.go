package app

import (
	"context"
	"fmt"
	"sync"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/push"
)

// connections is the channels domain as the connector runtime and channel sync see it: the
// runtime's Channels, Directory and Disconnector, the Status of its connections, and the
// Router that sends the pushes of a channel one of multisell's connectors serves to the
// connector queue (docs/connectors.md).
type connections struct {
	channels.Service
	// routes remembers each channel's route (account + "/" + uuid -> push.Route): the
	// process's, kept in Deps.
	routes *sync.Map
}

// Channel implements connectors.Channels: the account's channel if it is connected and
// active, with its sealed credentials (errs.NotFound otherwise).
func (c connections) Channel(ctx context.Context, account, uuid string) (connectors.Channel, error) {
	l, err := c.Connection(ctx, account, uuid)
	if err != nil {
		return connectors.Channel{}, err
	}
	return connectors.Channel{
		Account: account, UUID: uuid, Type: l.Channel.ChannelTypeDisplayName, Connector: l.Channel.Connector,
		Credentials: l.Credentials,
		Endpoints:   connectors.Endpoints{API: l.Channel.Endpoints.API, Auth: l.Channel.Endpoints.Auth},
	}, nil
}

// Connected implements connectors.Directory: every connected active channel, across the
// accounts, one Query of the connected index per page.
func (c connections) Connected(ctx context.Context) ([]connectors.ChannelRef, error) {
	var refs []connectors.ChannelRef
	err := c.Service.Connected(ctx, func(page []channels.Ref) error {
		for _, r := range page {
			refs = append(refs, connectors.ChannelRef{Account: r.Account, UUID: r.UUID})
		}
		return nil
	})
	return refs, err
}

// Disconnect implements connectors.Disconnector: the channel goes disconnected with the
// reason, which the stream makes a channel.disconnected event.
func (c connections) Disconnect(ctx context.Context, d *connectors.Disconnected) error {
	_, err := c.Service.Disconnect(ctx, d.Account, d.Channel, d.Reason)
	return err
}

// Route implements push.Router: a channel's connector is set when it is created (POST
// /v1/channels) and never changes, so one read per channel and process serves every later
// push (routes). A channel not found routes to the outbox and is not remembered.
func (c connections) Route(ctx context.Context, account, uuid string) (push.Route, error) {
	key := account + "/" + uuid
	if r, ok := c.routes.Load(key); ok {
		return r.(push.Route), nil
	}
	ch, err := c.Get(ctx, account, uuid)
	if errs.KindOf(err) == errs.KindNotFound {
		return push.ToOutbox, nil
	} else if err != nil {
		return push.ToOutbox, fmt.Errorf("route the pushes of channel %s: %w", uuid, err)
	}
	r := push.ToOutbox
	if ch.Connector != "" && ch.Connector != channels.ConnectorExternal {
		r = push.ToConnector
	}
	c.routes.Store(key, r)
	return r, nil
}

// connections is the channels service as the runtime and channel sync see it.
func (d *Deps) connections() connections {
	return connections{Service: d.Channels(), routes: &d.routes}
}
