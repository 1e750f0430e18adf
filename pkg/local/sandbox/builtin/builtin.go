// Package builtin links the sandboxes of the marketplaces multisell ships connectors for
// (pkg/connectors/builtin): each registers its kind and demo connection with
// pkg/local/demo when linked. `multisell serve` imports it and runs demo.Kinds().
package builtin

import (
	// One line per marketplace sandbox.
	_ "github.com/multisell/multisell/pkg/local/sandbox/amazon"
	_ "github.com/multisell/multisell/pkg/local/sandbox/ebay"
	_ "github.com/multisell/multisell/pkg/local/sandbox/etsy"
	_ "github.com/multisell/multisell/pkg/local/sandbox/shopify"
	_ "github.com/multisell/multisell/pkg/local/sandbox/walmart"
)
