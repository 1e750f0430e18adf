package app

import "github.com/multisell/multisell/pkg/events"

// Events is the event feed: the domains that own the item kinds making
// events are its sources, the webhooks its follower.
func (d *Deps) Events() events.Service {
	feed := d.feed()
	feed.Followers = []events.Follower{d.Webhooks()}
	return feed
}

// feed is the event feed with its sources, as the webhooks read it.
func (d *Deps) feed() events.Service {
	return events.Service{Table: d.Table, Sources: []events.Source{d.Orders(), d.Inventory(), d.Catalog(), d.Shipments(), d.Listings(), d.Channels()}}
}
