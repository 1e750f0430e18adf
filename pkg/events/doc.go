// Package events is the account's event feed: every change that matters to
// an integration (an order created or updated, a stock record or a product
// changed, an adjustment applied, a shipment created, a listing's sync
// failed) becomes one event with a per-account sequence number without
// gaps, readable with GET /v1/events from the last number seen. The events
// function reads the table's stream; the domain that owns an item says
// which event a change of it is (a Source); this package numbers and stores
// them, each once, and hands the stored events to its Followers (the
// webhooks). The contract is docs/webhooks.md; the items docs/data-model.md.
package events
