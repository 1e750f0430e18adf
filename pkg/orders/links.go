package orders

import (
	"errors"

	"github.com/multisell/multisell/pkg/sku"
)

// Link is a listing link: a channel's SKU mapped to a product of the
// catalog, so orders for the listing draw that product's inventory.
type Link struct {
	ChannelUUID string `json:"channel_uuid" dynamodbav:"channel_uuid"`
	ChannelSKU  string `json:"sku" dynamodbav:"sku"`
	ProductSKU  string `json:"product_sku" dynamodbav:"product_sku"`
}

// ErrProductNotFound is returned when linking to an unknown product.
var ErrProductNotFound = errors.New("product not found")

// check validates the link's SKUs.
func (l Link) check() error {
	for field, s := range map[string]string{"sku": l.ChannelSKU, "product": l.ProductSKU} {
		if err := sku.Check(field, s); err != nil {
			return err
		}
	}
	return nil
}
