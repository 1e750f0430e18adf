package app

import "github.com/multisell/multisell/pkg/inbox"

// Inbox is the channel inbox: it hands what connectors send to the orders,
// listings and shipments services and sets aside, in the inbox's
// dead-letter queue, what can never apply.
func (d *Deps) Inbox() inbox.Service {
	return inbox.Service{Orders: d.Orders(), Listings: d.Listings(), Shipments: d.Shipments(), Rejects: d.channelQueue(d.Config.ChannelInboxDLQURL),
		Channels: d.Channels()}
}
