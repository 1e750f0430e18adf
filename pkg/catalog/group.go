package catalog

// MaxChildren is the most children a variation group has: deleting a group
// writes it and every child in one transaction of at most 100 writes.
const MaxChildren = 99

// maxGroupWrites is the most items one transaction writes.
const maxGroupWrites = 100

// VariationGroup is a variation group as returned by the API (spec 2.8).
type VariationGroup struct {
	SKU                 string   `json:"sku"`
	Name                string   `json:"name"`
	Description         *string  `json:"description"`
	Images              []string `json:"images"`
	ChildSKUs           []string `json:"child_skus"`
	VariationAttributes []string `json:"variation_attributes"`
	ModifiedAt          string   `json:"modified_at"`
}

// group renders the group record g as a VariationGroup.
func (g *record) group() VariationGroup {
	v := VariationGroup{
		SKU: g.SKU, Description: g.Description, Images: g.ImageList,
		ChildSKUs: g.Children, VariationAttributes: g.Keys, ModifiedAt: g.ModifiedAt,
	}
	if g.Name != nil {
		v.Name = *g.Name
	}
	if v.Images == nil {
		v.Images = []string{}
	}
	return v
}
