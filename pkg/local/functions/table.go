package functions

import (
	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/consent"
	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/inbox"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/shipments"
	"github.com/multisell/multisell/pkg/warehouses"
	"github.com/multisell/multisell/pkg/webhooks"
)

// table maps each folder under functions/ (one Lambda each, see
// template.yaml) to the handler it runs: each entry returns exactly what
// functions/<name>/main.go passes to lambda.Start.
var table = map[string]func(d *app.Deps) any{
	"authorizer": func(d *app.Deps) any { return d.Authorizer().Handle },

	// channels, their listings, and channel sync
	"channels-list":    func(d *app.Deps) any { return d.HTTP(channels.Handlers{Service: d.Channels()}.List) },
	"channels-update":  func(d *app.Deps) any { return d.HTTP(channels.Handlers{Service: d.Channels()}.Update) },
	"channels-create":  func(d *app.Deps) any { return d.HTTP(channels.Handlers{Service: d.Channels()}.Create) },
	"channels-patch":   func(d *app.Deps) any { return d.HTTP(channels.Handlers{Service: d.Channels()}.Patch) },
	"channels-migrate": func(d *app.Deps) any { return d.HTTP(channels.Handlers{Service: d.Channels()}.Migrate) },
	"channels-delete":  func(d *app.Deps) any { return d.HTTP(channels.Handlers{Service: d.Channels()}.Delete) },
	// connecting a channel by consent: the authorization, and the public callback
	"channels-authorize":          func(d *app.Deps) any { return d.HTTP(consent.Handlers{Service: d.Consent()}.Create) },
	"channels-authorize-callback": func(d *app.Deps) any { return api.Public(consent.Handlers{Service: d.Consent()}.Callback) },
	"listings-list":               func(d *app.Deps) any { return d.HTTP(listings.Handlers{Service: d.Listings()}.List) },
	"listings-put":                func(d *app.Deps) any { return d.HTTP(listings.Handlers{Service: d.Listings()}.Put) },
	"listings-delete":             func(d *app.Deps) any { return d.HTTP(listings.Handlers{Service: d.Listings()}.Delete) },
	"channel-sync":                func(d *app.Deps) any { return listings.Handlers{Service: d.Listings()}.Stream },
	"channel-inbox":               func(d *app.Deps) any { return inbox.Handlers{Service: d.Inbox()}.Consume },

	// the connectors of multisell's own: pushes, the poll schedule, polls
	"connector-push":          func(d *app.Deps) any { return connectors.Handlers{Service: d.Connectors()}.Consume },
	"connector-poll-schedule": func(d *app.Deps) any { return connectors.Handlers{Service: d.Connectors()}.Schedule },
	"connector-poll":          func(d *app.Deps) any { return connectors.Handlers{Service: d.Connectors()}.ConsumePolls },

	"warehouses-list":   func(d *app.Deps) any { return d.HTTP(warehouses.Handlers{Service: d.Warehouses()}.List) },
	"warehouses-create": func(d *app.Deps) any { return d.HTTP(warehouses.Handlers{Service: d.Warehouses()}.Create) },
	"warehouses-update": func(d *app.Deps) any { return d.HTTP(warehouses.Handlers{Service: d.Warehouses()}.Update) },

	// catalog: products and variation groups
	"products-list":           func(d *app.Deps) any { return d.HTTP(catalog.Handlers{Service: d.Catalog()}.List) },
	"products-get":            func(d *app.Deps) any { return d.HTTP(catalog.Handlers{Service: d.Catalog()}.Get) },
	"products-upsert":         func(d *app.Deps) any { return d.HTTP(catalog.Handlers{Service: d.Catalog()}.Upsert) },
	"products-delete":         func(d *app.Deps) any { return d.HTTP(catalog.Handlers{Service: d.Catalog()}.Delete) },
	"variation-groups-list":   func(d *app.Deps) any { return d.HTTP(catalog.Handlers{Service: d.Catalog()}.ListGroups) },
	"variation-groups-put":    func(d *app.Deps) any { return d.HTTP(catalog.Handlers{Service: d.Catalog()}.PutGroup) },
	"variation-groups-delete": func(d *app.Deps) any { return d.HTTP(catalog.Handlers{Service: d.Catalog()}.DeleteGroup) },

	// inventory
	"inventory-list":            func(d *app.Deps) any { return d.HTTP(inventory.Handlers{Service: d.Inventory()}.List) },
	"inventory-create":          func(d *app.Deps) any { return d.HTTP(inventory.Handlers{Service: d.Inventory()}.Create) },
	"inventory-adjust":          func(d *app.Deps) any { return d.HTTP(inventory.Handlers{Service: d.Inventory()}.Adjust) },
	"inventory-adjustment-get":  func(d *app.Deps) any { return d.HTTP(inventory.Handlers{Service: d.Inventory()}.GetAdjustment) },
	"inventory-history":         func(d *app.Deps) any { return d.HTTP(inventory.Handlers{Service: d.Inventory()}.History) },
	"inventory-adjust-consumer": func(d *app.Deps) any { return inventory.Handlers{Service: d.Inventory()}.Consume },
	"inventory-adjust-sweep":    func(d *app.Deps) any { return inventory.Handlers{Service: d.Inventory()}.Sweep },

	// orders and fulfillments
	"orders-list":                 func(d *app.Deps) any { return d.HTTP(orders.Handlers{Service: d.Orders()}.List) },
	"orders-get":                  func(d *app.Deps) any { return d.HTTP(orders.Handlers{Service: d.Orders()}.GetOne) },
	"warehouse-fulfillments-list": func(d *app.Deps) any { return d.HTTP(orders.Handlers{Service: d.Orders()}.Fulfillments) },

	// the event feed and webhooks
	"events-list":              func(d *app.Deps) any { return d.HTTP(events.Handlers{Service: d.Events()}.List) },
	"events":                   func(d *app.Deps) any { return events.Handlers{Service: d.Events()}.Stream },
	"webhooks-create":          func(d *app.Deps) any { return d.HTTP(webhooks.Handlers{Service: d.Webhooks()}.Create) },
	"webhooks-list":            func(d *app.Deps) any { return d.HTTP(webhooks.Handlers{Service: d.Webhooks()}.List) },
	"webhooks-get":             func(d *app.Deps) any { return d.HTTP(webhooks.Handlers{Service: d.Webhooks()}.Get) },
	"webhooks-update":          func(d *app.Deps) any { return d.HTTP(webhooks.Handlers{Service: d.Webhooks()}.Update) },
	"webhooks-delete":          func(d *app.Deps) any { return d.HTTP(webhooks.Handlers{Service: d.Webhooks()}.Delete) },
	"webhooks-rotate-secret":   func(d *app.Deps) any { return d.HTTP(webhooks.Handlers{Service: d.Webhooks()}.RotateSecret) },
	"webhooks-ping":            func(d *app.Deps) any { return d.HTTP(webhooks.Handlers{Service: d.Webhooks()}.Ping) },
	"webhook-deliveries-list":  func(d *app.Deps) any { return d.HTTP(webhooks.Handlers{Service: d.Webhooks()}.Deliveries) },
	"webhook-deliveries-retry": func(d *app.Deps) any { return d.HTTP(webhooks.Handlers{Service: d.Webhooks()}.Retry) },
	"webhook-delivery":         func(d *app.Deps) any { return webhooks.Handlers{Service: d.Webhooks()}.Consume },
	"webhook-delivery-sweep":   func(d *app.Deps) any { return webhooks.Handlers{Service: d.Webhooks()}.Sweep },

	// shipments
	"shipments-create": func(d *app.Deps) any { return d.HTTP(shipments.Handlers{Service: d.Shipments()}.Create) },
	"shipments-list":   func(d *app.Deps) any { return d.HTTP(shipments.Handlers{Service: d.Shipments()}.List) },
	"carriers-list":    func(d *app.Deps) any { return d.HTTP(shipments.Handlers{Service: d.Shipments()}.Carriers) },
}
