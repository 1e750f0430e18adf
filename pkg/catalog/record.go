package catalog

import (
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// record is a product item as stored: the product's own fields plus the key
// attributes, an optimistic-locking version and the group links. A group
// lists its children (and a hash of each child's variation values, for the
// uniqueness rule); a child holds its group's SKU and variation attributes,
// so one read renders it.
type record struct {
	Product
	PK     string `dynamodbav:"PK"`
	SK     string `dynamodbav:"SK"`
	GSI1PK string `dynamodbav:"GSI1PK,omitempty"`
	GSI1SK string `dynamodbav:"GSI1SK,omitempty"`
	GSI2PK string `dynamodbav:"GSI2PK"`
	GSI2SK string `dynamodbav:"GSI2SK"`
	// Version counts the item's writes; every write is conditioned on the
	// version it read.
	Version int64 `dynamodbav:"ver"`
	// Keys are the variation attributes: a group's own, or a child's group's.
	Keys []string `dynamodbav:"variation_keys,omitempty"`
	// Children are a group's child SKUs, in order.
	Children []string `dynamodbav:"child_skus,omitempty"`
	// Combos[i] identifies the variation values of Children[i].
	Combos []string `dynamodbav:"combos,omitempty"`
}

// Partition kinds of the catalog (see docs/data-model.md).
const (
	kindProduct  = "P"      // every product and group, SK = sku
	kindGroups   = "PGROUP" // GSI1: the groups, GSI1SK = sku
	kindModified = "PMOD"   // GSI2: every product, GSI2SK = modified_at
	kindSequence = "PSEQ"   // the product id counter
)

// productsPK is the partition of the account's products, sorted by SKU.
func productsPK(account string) string { return store.PK(account, kindProduct) }

// productKey is the primary key of the product sku.
func productKey(account, sku string) map[string]types.AttributeValue {
	return store.Key(productsPK(account), sku)
}

// isGroup reports whether the record is a variation group.
func (r *record) isGroup() bool { return len(r.Children) > 0 }

// isChild reports whether the record is a child of a variation group.
func (r *record) isChild() bool { return r.ParentSKU != nil }

// setKeys sets the key attributes for the account from the record's SKU,
// kind and modification time.
func (r *record) setKeys(account string) {
	r.PK, r.SK = productsPK(account), r.SKU
	r.GSI2PK, r.GSI2SK = store.PK(account, kindModified), r.ModifiedAt
	r.GSI1PK, r.GSI1SK = "", ""
	if r.isGroup() {
		r.GSI1PK, r.GSI1SK = store.PK(account, kindGroups), r.SKU
	}
}

// item marshals the record.
func (r *record) item() (map[string]types.AttributeValue, error) {
	m, err := attributevalue.MarshalMap(r)
	if err != nil {
		return nil, fmt.Errorf("marshal product %q: %w", r.SKU, err)
	}
	return m, nil
}

// decodeRecords unmarshals stored product items.
func decodeRecords(items []map[string]types.AttributeValue) ([]*record, error) {
	out := make([]*record, len(items))
	for i, it := range items {
		out[i] = &record{}
		if err := attributevalue.UnmarshalMap(it, out[i]); err != nil {
			return nil, fmt.Errorf("unmarshal product: %w", err)
		}
	}
	return out, nil
}

// product renders the record's own fields with the API defaults and its
// conditional keys; a group's Variations are left to the caller.
func (r *record) product() Product {
	p := withDefaults(r.Product)
	switch {
	case r.isGroup():
		p.VariationKeys = r.Keys
	case r.isChild():
		p.VariationFields = make(map[string]any, len(r.Keys))
		for _, k := range r.Keys {
			p.VariationFields[k] = p.CustomAttributes[k]
		}
	}
	return p
}

// size estimates the stored size of the record in bytes: its JSON, which
// is never smaller than DynamoDB's measure of the item.
func (r *record) size() int {
	b, _ := json.Marshal(r) // cannot fail: strings, numbers, booleans, slices and maps
	return len(b)
}

// withDefaults returns p with its unset lists and objects empty rather than
// null, as the API returns them.
func withDefaults(p Product) Product {
	if p.Features == nil {
		p.Features = []string{}
	}
	if p.ImageList == nil {
		p.ImageList = []string{}
	}
	if p.CustomAttributes == nil {
		p.CustomAttributes = map[string]any{}
	}
	return p
}
