package orders

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/sku"
	"github.com/multisell/multisell/pkg/store"
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

// LinkListing maps the channel's SKU to the product (the CLI's `listings
// link`): the channel and the product must exist. Orders imported later (and
// re-imports of open orders whose lines have no inventory SKU yet) use it.
func (s Service) LinkListing(ctx context.Context, account string, l Link) error {
	t := s.Table
	for field, s := range map[string]string{"sku": l.ChannelSKU, "product": l.ProductSKU} {
		if err := sku.Check(field, s); err != nil {
			return err
		}
	}
	if _, err := (channels.Service{Table: t}).Get(ctx, account, l.ChannelUUID); err != nil {
		return fmt.Errorf("channel %s: %w", l.ChannelUUID, err)
	}
	products, err := catalog.Service{Table: t}.Lookup(ctx, account, []string{l.ProductSKU})
	if err != nil {
		return fmt.Errorf("look up product: %w", err)
	}
	if _, ok := products[l.ProductSKU]; !ok {
		return fmt.Errorf("product %q: %w", l.ProductSKU, ErrProductNotFound)
	}
	item := linkKey(account, l.ChannelUUID, l.ChannelSKU)
	item["channel_uuid"], item["sku"], item["product_sku"] = store.S(l.ChannelUUID), store.S(l.ChannelSKU), store.S(l.ProductSKU)
	if _, err := t.DB.PutItem(ctx, &dynamodb.PutItemInput{TableName: t.TableName(), Item: item}); err != nil {
		return fmt.Errorf("put listing link: %w", err)
	}
	return nil
}

// LinkedProducts returns the products the channel's SKUs are linked to
// (unlinked SKUs absent): one BatchGetItem per 100 SKUs.
func (s Service) LinkedProducts(ctx context.Context, account, channel string, skus []string) (map[string]string, error) {
	t := s.Table
	keys := make([]map[string]types.AttributeValue, 0, len(skus))
	seen := map[string]bool{}
	for _, s := range skus {
		if !seen[s] {
			seen[s] = true
			keys = append(keys, linkKey(account, channel, s))
		}
	}
	items, err := t.BatchGet(ctx, keys, false)
	if err != nil {
		return nil, fmt.Errorf("read listing links: %w", err)
	}
	out := make(map[string]string, len(items))
	for _, it := range items {
		sku, _ := it["sku"].(*types.AttributeValueMemberS)
		product, _ := it["product_sku"].(*types.AttributeValueMemberS)
		if sku != nil && product != nil {
			out[sku.Value] = product.Value
		}
	}
	return out, nil
}
