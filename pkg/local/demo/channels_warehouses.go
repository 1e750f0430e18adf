package demo

import (
	"context"
	"fmt"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/warehouses"
)

func init() { register(10, "channels and warehouses", seedChannelsWarehouses) }

var demoChannels = []channels.Input{
	{Name: "Amazon US", Type: "Amazon", SiteID: "ATVPDKIKX0DER", Region: "US"},
	{Name: "eBay Motors", Type: "eBay", SiteID: "100", Region: "US"},
	{Name: "Shopify Store", Type: "Shopify"},
	{Name: "Etsy Vintage", Type: "Etsy", State: channels.StateInactive},
}

var demoWarehouses = []string{
	`{"warehouse":{"name":"Main Warehouse","company_name":"Demo Goods Inc.","email":"ship@demo.example","address_1":"1 Harbor Way","city":"Oakland","region":"CA","postal_code":"94607","country_code":"US"}}`,
	`{"warehouse":{"name":"East Coast 3PL","address_1":"500 Logistics Dr","city":"Edison","region":"NJ","postal_code":"08817","country_code":"US"}}`,
	`{"warehouse":{"name":"EU Hub","address_1":"Industrieweg 12","city":"Venlo","postal_code":"5928","country_code":"NL"}}`,
}

// seedChannelsWarehouses creates the demo channels, unless the account has
// channels, and warehouses until it has s.Warehouses, through the same code
// paths as the API.
func seedChannelsWarehouses(ctx context.Context, e *Env, s Sizes) error {
	have, err := channels.Service{Table: e.Deps.Table}.List(ctx, e.Account)
	if err != nil {
		return err
	}
	for _, c := range demoChannels {
		if len(have) > 0 {
			break
		}
		if _, err := (channels.Service{Table: e.Deps.Table}).Create(ctx, e.Account, c); err != nil {
			return err
		}
	}
	whs, err := warehouses.Service{Table: e.Deps.Table}.List(ctx, e.Account)
	if err != nil {
		return err
	}
	svc := warehouses.Handlers{Service: warehouses.Service{Table: e.Deps.Table}}
	for i := len(whs); i < s.Warehouses; i++ {
		body := fmt.Sprintf(`{"warehouse":{"name":"Warehouse %d","country_code":"US"}}`, i+1)
		if i < len(demoWarehouses) {
			body = demoWarehouses[i]
		}
		req := &api.Request{Account: api.Account{ID: e.Account}}
		req.APIGatewayProxyRequest.Body = body
		if _, err := svc.Create(ctx, req); err != nil {
			return err
		}
		e.Progress("warehouses", i+1, s.Warehouses)
	}
	return nil
}
