package app

import (
	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/inbox"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/queue"
	"github.com/multisell/multisell/pkg/shipments"
	"github.com/multisell/multisell/pkg/warehouses"
	"github.com/multisell/multisell/pkg/webhooks"
)

// The domain services over the shared clients. The orders service is also
// the hook the others call when stock may have changed: it allocates
// waiting orders when stock arrives or is released (inventory, shipments)
// and re-allocates what an archived warehouse held (warehouses).

func (d *Deps) channels() channels.Service { return channels.Service{Table: d.Table} }

func (d *Deps) warehouses() warehouses.Service {
	return warehouses.Service{Table: d.Table, OnArchive: d.orders().OnArchive}
}

func (d *Deps) catalog() catalog.Service { return catalog.Service{Table: d.Table} }

func (d *Deps) inventory() inventory.Service {
	return inventory.Service{
		Table: d.Table, Adjustments: d.queue(d.Config.AdjustmentsQueueURL), Rejects: d.queue(d.Config.AdjustmentsDLQURL),
		ResendAfter: d.Config.AdjustmentResendAfter, Stock: d.orders(),
	}
}

func (d *Deps) orders() orders.Service { return orders.Service{Table: d.Table} }

func (d *Deps) shipments() shipments.Service {
	return shipments.Service{
		Table: d.Table, Stock: d.orders(),
		Outbox: d.channelQueue(d.Config.ChannelOutboxQueueURL), Retries: d.channelQueue(d.Config.ChannelRetryQueueURL),
		RetryBase: d.Config.SyncRetryBase,
	}
}

func (d *Deps) listings() listings.Service {
	return listings.Service{
		Table: d.Table, Channels: d.channels(), Catalog: d.catalog(), Inventory: d.inventory(), Warehouses: d.warehouses(),
		Outbox: d.channelQueue(d.Config.ChannelOutboxQueueURL), Retries: d.channelQueue(d.Config.ChannelRetryQueueURL),
		RetryBase: d.Config.SyncRetryBase, Tracking: d.shipments(),
	}
}

func (d *Deps) inbox() inbox.Service {
	return inbox.Service{Orders: d.orders(), Listings: d.listings(), Shipments: d.shipments(), Rejects: d.channelQueue(d.Config.ChannelInboxDLQURL)}
}

// events is the event feed: the domains that own the item kinds making
// events are its sources, the webhooks its follower.
func (d *Deps) events() events.Service {
	feed := d.feed()
	feed.Followers = []events.Follower{d.webhooks()}
	return feed
}

// feed is the event feed with its sources, as the webhooks read it.
func (d *Deps) feed() events.Service {
	return events.Service{Table: d.Table, Sources: []events.Source{d.orders(), d.inventory(), d.catalog(), d.shipments(), d.listings()}}
}

func (d *Deps) webhooks() webhooks.Service {
	return webhooks.Service{
		Table: d.Table, Feed: d.feed(), Queue: d.queue(d.Config.WebhookDeliveryQueueURL),
		Poster: d.Webhooks, URLs: d.Webhooks.Policy, Schedule: d.Config.WebhookRetrySchedule,
	}
}

// queue is a sender to the queue url.
func (d *Deps) queue(url string) queue.Sender { return queue.Sender{Client: d.SQS, URL: url} }

// channelQueue is a sender to one of the channel queues, which connectors
// read and write: plain JSON bodies.
func (d *Deps) channelQueue(url string) queue.Sender {
	return queue.Sender{Client: d.SQS, URL: url, Plain: true}
}

// Listings is the listings service, for the CLI and the demo data.
func (d *Deps) Listings() listings.Service { return d.listings() }

// Shipments is the shipments service, for the CLI and the demo data.
func (d *Deps) Shipments() shipments.Service { return d.shipments() }

// Inventory is the inventory service, for the local stack (its sweep at
// start) and tests.
func (d *Deps) Inventory() inventory.Service { return d.inventory() }

// Events is the event feed with its sources and followers, for tests.
func (d *Deps) Events() events.Service { return d.events() }
