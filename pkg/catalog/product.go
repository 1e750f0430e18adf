package catalog

import "github.com/multisell/multisell/pkg/sku"

// Product is a product as returned by the API (see docs/catalog.md). Every
// common field is always present: unset text and number fields are null,
// features and image_list are [], custom_attributes is {}. The conditional
// keys are set by kind: a child of a variation group has ParentSKU and
// VariationFields, a group has Variations and VariationKeys, a stand-alone
// product has none of them. The dynamodbav tags are the stored attributes
// of the product item.
type Product struct {
	ID                      int64    `json:"id" dynamodbav:"id"`
	SKU                     string   `json:"sku" dynamodbav:"sku"`
	Name                    *string  `json:"name" dynamodbav:"name,omitempty"`
	Description             *string  `json:"description" dynamodbav:"description,omitempty"`
	ASIN                    *string  `json:"asin" dynamodbav:"asin,omitempty"`
	Condition               *string  `json:"condition" dynamodbav:"condition,omitempty"`
	ConditionNote           *string  `json:"condition_note" dynamodbav:"condition_note,omitempty"`
	Brand                   *string  `json:"brand" dynamodbav:"brand,omitempty"`
	Manufacturer            *string  `json:"manufacturer" dynamodbav:"manufacturer,omitempty"`
	ManufacturerModelNumber *string  `json:"manufacturer_model_number" dynamodbav:"manufacturer_model_number,omitempty"`
	CategoryName            *string  `json:"category_name" dynamodbav:"category_name,omitempty"`
	Price                   *float64 `json:"price" dynamodbav:"price,omitempty"`
	Cost                    *float64 `json:"cost" dynamodbav:"cost,omitempty"`
	MSRP                    *float64 `json:"msrp" dynamodbav:"msrp,omitempty"`
	PackageLength           *float64 `json:"package_length" dynamodbav:"package_length,omitempty"`
	PackageWidth            *float64 `json:"package_width" dynamodbav:"package_width,omitempty"`
	PackageHeight           *float64 `json:"package_height" dynamodbav:"package_height,omitempty"`
	PackageUnitOfLength     *string  `json:"package_unit_of_length" dynamodbav:"package_unit_of_length,omitempty"`
	PackageWeight           *float64 `json:"package_weight" dynamodbav:"package_weight,omitempty"`
	PackageUnitOfWeight     *string  `json:"package_unit_of_weight" dynamodbav:"package_unit_of_weight,omitempty"`
	Warranty                *string  `json:"warranty" dynamodbav:"warranty,omitempty"`
	Provider                *string  `json:"provider" dynamodbav:"provider,omitempty"`
	UPC                     *string  `json:"upc" dynamodbav:"upc,omitempty"`
	EAN                     *string  `json:"ean" dynamodbav:"ean,omitempty"`
	ISBN                    *string  `json:"isbn" dynamodbav:"isbn,omitempty"`
	GTIN                    *string  `json:"gtin" dynamodbav:"gtin,omitempty"`
	GCID                    *string  `json:"gcid" dynamodbav:"gcid,omitempty"`
	EPID                    *string  `json:"epid" dynamodbav:"epid,omitempty"`
	// Quantity is derived from inventory (docs/catalog.md): kept on the item
	// by the channel-sync function, never written by a request.
	Quantity         *int64         `json:"quantity" dynamodbav:"quantity,omitempty"`
	Features         []string       `json:"features" dynamodbav:"features,omitempty"`
	ImageList        []string       `json:"image_list" dynamodbav:"image_list,omitempty"`
	CustomAttributes map[string]any `json:"custom_attributes" dynamodbav:"custom_attributes,omitempty"`
	ModifiedAt       string         `json:"modified_at" dynamodbav:"modified_at"`
	// ParentSKU is the SKU of the child's variation group, null otherwise.
	ParentSKU *string `json:"parent_sku" dynamodbav:"parent_sku,omitempty"`
	// VariationFields are a child's values of its group's variation
	// attributes.
	VariationFields map[string]any `json:"variation_fields,omitempty" dynamodbav:"-"`
	// VariationKeys are a group's variation attributes.
	VariationKeys []string `json:"variation_keys,omitempty" dynamodbav:"-"`
	// Variations are a group's children, in the group's order.
	Variations []Product `json:"variations,omitempty" dynamodbav:"-"`
}

// checkSKU is the rule for the SKU that names one product or group: 422
// unless it is a valid SKU.
func checkSKU(s string) error { return sku.Check("sku", s) }
