package demo

import (
	"context"
	"fmt"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/warehouses"
)

func init() { register(10, "channels and warehouses", seedChannelsWarehouses) }

// demoChannels are the demo's external channels (connector "external": no connector of
// multisell's serves them; on the local stack the connector sim answers their outbox as an
// external connector would), named so; the channels the sandboxes serve are connected apart.
var demoChannels = []channels.Input{
	{Name: "Amazon US (connector sim)", Type: "Amazon", SiteID: "ATVPDKIKX0DER", Region: "US"},
	{Name: "eBay Motors (connector sim)", Type: "eBay", SiteID: "100", Region: "US"},
	{Name: "Shopify Store (connector sim)", Type: "Shopify"},
	{Name: "Etsy Vintage", Type: "Etsy", State: channels.StateInactive},
}

// demoWarehouses are the text fields of the first warehouses, by their
// stored names; the rest are "Warehouse N" in the US.
var demoWarehouses = []map[string]string{
	{"name": "Main Warehouse", "company_name": "Demo Goods Inc.", "email": "ship@demo.example", "address_1": "1 Harbor Way",
		"city": "Oakland", "state_region": "CA", "postal_code": "94607", "country_code": "US"},
	{"name": "East Coast 3PL", "address_1": "500 Logistics Dr", "city": "Edison", "state_region": "NJ", "postal_code": "08817", "country_code": "US"},
	{"name": "EU Hub", "address_1": "Industrieweg 12", "city": "Venlo", "postal_code": "5928", "country_code": "NL"},
}

// seedChannelsWarehouses creates the demo channels, unless the account has
// channels, and warehouses until it has s.Warehouses, with the domains'
// Service operations the API uses.
func seedChannelsWarehouses(ctx context.Context, e *Env, s Sizes) error {
	have, err := e.Deps.Channels().List(ctx, e.Account)
	if err != nil {
		return err
	}
	for _, c := range demoChannels {
		if len(have) > 0 {
			break
		}
		if _, err := e.Deps.Channels().Create(ctx, e.Account, c); err != nil {
			return err
		}
	}
	whs, err := e.Deps.Warehouses().List(ctx, e.Account)
	if err != nil {
		return err
	}
	for i := len(whs); i < s.Warehouses; i++ {
		text := map[string]string{"name": fmt.Sprintf("Warehouse %d", i+1), "country_code": "US"}
		if i < len(demoWarehouses) {
			text = demoWarehouses[i]
		}
		if _, err := e.Deps.Warehouses().Create(ctx, e.Account, warehouses.Input{Text: text}); err != nil {
			return err
		}
		e.Progress("warehouses", i+1, s.Warehouses)
	}
	return nil
}
