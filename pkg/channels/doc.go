// Package channels holds the merchant's sales channels (marketplaces and
// storefronts): GET /channels, and creation for the CLI and the demo data.
// Orders name their channel when they are imported (pkg/orders). The item
// layout is in docs/data-model.md.
package channels
