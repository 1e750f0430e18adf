package demo

import "github.com/multisell/multisell/pkg/consent"

// ConsentSandbox is what a sandbox offers the consent flow (docs/connectors.md, "Connecting a
// merchant"): its app, registered with the stack's callback URL of its channel type, and
// what a test needs of its sellers. The local stack makes App the operator's app of the
// type (app.LocalApps); the consent tests run the flow against every kind that has one.
type ConsentSandbox struct {
	// App is the sandbox's app as the operator's configuration holds it.
	App consent.AppConfig
	// AddSeller opens a seller of the sandbox with nothing authorized yet and returns its id
	// (the consent page's sandbox_seller) and the authorization's fields of its channel
	// (marketplace_id, shop_domain, ...).
	AddSeller func() (seller string, fields map[string]string)
	// Bind records that the seller is multisell's channel uuid, so that POST /sandbox/orders
	// names it by that channel.
	Bind func(seller, uuid string)
	// List lists sku on the seller's shop (showing 0) and returns the listing's reference
	// in the sandbox ("": none, found by SKU).
	List func(seller, sku string) string
	// Quantity is what the seller's listing sku shows, and whether there is one.
	Quantity func(seller, sku string) (int64, bool)
}
