package app

import (
	"context"
	"fmt"
	"sort"

	lambdaevents "github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/auth"
	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/idempotency"
	"github.com/multisell/multisell/pkg/inbox"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/ratelimit"
	"github.com/multisell/multisell/pkg/shipments"
	"github.com/multisell/multisell/pkg/warehouses"
	"github.com/multisell/multisell/pkg/webhooks"
)

// HTTPHandler is the handler of an API function.
type HTTPHandler = api.LambdaHandler

// AuthorizerHandler is the handler of the Lambda REQUEST authorizer.
type AuthorizerHandler = func(context.Context, lambdaevents.APIGatewayCustomAuthorizerRequestTypeRequest) (lambdaevents.APIGatewayCustomAuthorizerResponse, error)

// SQSHandler is the handler of an SQS-triggered function.
type SQSHandler = func(context.Context, lambdaevents.SQSEvent) (lambdaevents.SQSEventResponse, error)

// ScheduleHandler is the handler of a function run on a schedule.
type ScheduleHandler = func(context.Context, lambdaevents.EventBridgeEvent) error

// StreamHandler is the handler of a function the table's stream triggers.
type StreamHandler = func(context.Context, lambdaevents.DynamoDBEvent) (lambdaevents.DynamoDBEventResponse, error)

// functions maps each folder under functions/ (one Lambda each, see
// template.yaml) to the handler it runs. This table is the one place to
// look from a route to its code.
var functions = map[string]func(d *Deps) any{
	"authorizer": func(d *Deps) any { return AuthorizerHandler(auth.Authorizer{Table: d.Table}.Handle) },

	// channels, their listings, and channel sync
	"channels-list":   func(d *Deps) any { return d.http(channels.Handlers{Service: d.channels()}.List) },
	"channels-update": func(d *Deps) any { return d.http(channels.Handlers{Service: d.channels()}.Update) },
	"listings-list":   func(d *Deps) any { return d.http(listings.Handlers{Service: d.listings()}.List) },
	"listings-put":    func(d *Deps) any { return d.http(listings.Handlers{Service: d.listings()}.Put) },
	"listings-delete": func(d *Deps) any { return d.http(listings.Handlers{Service: d.listings()}.Delete) },
	"channel-sync":    func(d *Deps) any { return StreamHandler(listings.Handlers{Service: d.listings()}.Stream) },
	"channel-inbox":   func(d *Deps) any { return SQSHandler(inbox.Handlers{Service: d.inbox()}.Consume) },

	"warehouses-list":   func(d *Deps) any { return d.http(warehouses.Handlers{Service: d.warehouses()}.List) },
	"warehouses-create": func(d *Deps) any { return d.http(warehouses.Handlers{Service: d.warehouses()}.Create) },
	"warehouses-update": func(d *Deps) any { return d.http(warehouses.Handlers{Service: d.warehouses()}.Update) },

	// catalog: products and variation groups
	"products-list":           func(d *Deps) any { return d.http(catalog.Handlers{Service: d.catalog()}.List) },
	"products-get":            func(d *Deps) any { return d.http(catalog.Handlers{Service: d.catalog()}.Get) },
	"products-upsert":         func(d *Deps) any { return d.http(catalog.Handlers{Service: d.catalog()}.Upsert) },
	"products-delete":         func(d *Deps) any { return d.http(catalog.Handlers{Service: d.catalog()}.Delete) },
	"variation-groups-list":   func(d *Deps) any { return d.http(catalog.Handlers{Service: d.catalog()}.ListGroups) },
	"variation-groups-put":    func(d *Deps) any { return d.http(catalog.Handlers{Service: d.catalog()}.PutGroup) },
	"variation-groups-delete": func(d *Deps) any { return d.http(catalog.Handlers{Service: d.catalog()}.DeleteGroup) },

	// inventory
	"inventory-list":            func(d *Deps) any { return d.http(inventory.Handlers{Service: d.inventory()}.List) },
	"inventory-create":          func(d *Deps) any { return d.http(inventory.Handlers{Service: d.inventory()}.Create) },
	"inventory-adjust":          func(d *Deps) any { return d.http(inventory.Handlers{Service: d.inventory()}.Adjust) },
	"inventory-adjustment-get":  func(d *Deps) any { return d.http(inventory.Handlers{Service: d.inventory()}.GetAdjustment) },
	"inventory-adjust-consumer": func(d *Deps) any { return SQSHandler(inventory.Handlers{Service: d.inventory()}.Consume) },
	"inventory-adjust-sweep":    func(d *Deps) any { return ScheduleHandler(inventory.Handlers{Service: d.inventory()}.Sweep) },

	// orders and fulfillments
	"orders-list":                 func(d *Deps) any { return d.http(orders.Handlers{Service: d.orders()}.List) },
	"orders-get":                  func(d *Deps) any { return d.http(orders.Handlers{Service: d.orders()}.GetOne) },
	"warehouse-fulfillments-list": func(d *Deps) any { return d.http(orders.Handlers{Service: d.orders()}.Fulfillments) },

	// the event feed and webhooks
	"events-list":              func(d *Deps) any { return d.http(events.Handlers{Service: d.events()}.List) },
	"events":                   func(d *Deps) any { return StreamHandler(events.Handlers{Service: d.events()}.Stream) },
	"webhooks-create":          func(d *Deps) any { return d.http(webhooks.Handlers{Service: d.webhooks()}.Create) },
	"webhooks-list":            func(d *Deps) any { return d.http(webhooks.Handlers{Service: d.webhooks()}.List) },
	"webhooks-get":             func(d *Deps) any { return d.http(webhooks.Handlers{Service: d.webhooks()}.Get) },
	"webhooks-update":          func(d *Deps) any { return d.http(webhooks.Handlers{Service: d.webhooks()}.Update) },
	"webhooks-delete":          func(d *Deps) any { return d.http(webhooks.Handlers{Service: d.webhooks()}.Delete) },
	"webhooks-rotate-secret":   func(d *Deps) any { return d.http(webhooks.Handlers{Service: d.webhooks()}.RotateSecret) },
	"webhooks-ping":            func(d *Deps) any { return d.http(webhooks.Handlers{Service: d.webhooks()}.Ping) },
	"webhook-deliveries-list":  func(d *Deps) any { return d.http(webhooks.Handlers{Service: d.webhooks()}.Deliveries) },
	"webhook-deliveries-retry": func(d *Deps) any { return d.http(webhooks.Handlers{Service: d.webhooks()}.Retry) },
	"webhook-delivery":         func(d *Deps) any { return SQSHandler(webhooks.Handlers{Service: d.webhooks()}.Consume) },

	// shipments
	"shipments-create": func(d *Deps) any { return d.http(shipments.Handlers{Service: d.shipments()}.Create) },
	"shipments-list":   func(d *Deps) any { return d.http(shipments.Handlers{Service: d.shipments()}.List) },
	"carriers-list":    func(d *Deps) any { return d.http(shipments.Handlers{Service: d.shipments()}.Carriers) },
}

// Names returns every function name, sorted.
func Names() []string {
	out := make([]string, 0, len(functions))
	for n := range functions {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Handler returns the Lambda handler of the function name: an HTTPHandler,
// an AuthorizerHandler, an SQSHandler or a StreamHandler.
func (d *Deps) Handler(name string) (any, error) {
	f, ok := functions[name]
	if !ok {
		return nil, fmt.Errorf("no function %q", name)
	}
	return f(d), nil
}

// http wraps an endpoint handler in the shared envelope with the rate limit
// and the replays of Idempotency-Keys.
func (d *Deps) http(h api.Handler) HTTPHandler {
	return api.Lambda(h, ratelimit.Limiter{Table: d.Table}, idempotency.Store{Table: d.Table})
}
