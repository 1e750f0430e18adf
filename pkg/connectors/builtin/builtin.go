// Package builtin registers the connectors multisell ships for real marketplaces. The
// functions that call channels (connect, patch, push, poll) call Register once at start;
// the other functions do not, so they link none of the connectors' code.
package builtin

import (
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/amazon"
	"github.com/multisell/multisell/pkg/connectors/ebay"
	"github.com/multisell/multisell/pkg/connectors/etsy"
	"github.com/multisell/multisell/pkg/connectors/shopify"
	"github.com/multisell/multisell/pkg/connectors/walmart"
)

// Register registers every built-in connector with connectors.Register. It is safe to call
// more than once.
func Register() {
	connectors.Register(amazon.Default)
	connectors.Register(ebay.Connector)
	connectors.Register(etsy.Connector)
	connectors.Register(shopify.Connector)
	connectors.Register(walmart.Connector)
}
