// Package carriers is the carrier vocabulary and the channel types' carrier rules, a leaf
// that the shipments domain (which validates a shipment and sends its tracking) and the
// connectors (which map a carrier to their marketplace's code) share: the preferred carrier
// names and their spellings (carriers.go), each carrier's shipping methods (methods.go), and
// per channel type which carriers it lists, what it is sent for the others and whether it
// needs a tracking URL or a method (rules.go). The decisions are in docs/shipments.md.
package carriers
