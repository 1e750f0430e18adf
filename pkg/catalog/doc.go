// Package catalog holds the merchant's product catalog: products and
// variation groups, which share one SKU space per account, and the lookups
// other domains make (Service.Lookup). A variation group is stored as a
// product item that lists its children; each child carries its group's SKU
// and variation attributes, so reading one product is one read. Every change
// that touches group membership is one transaction conditioned on the
// versions it read. The item layout is in docs/data-model.md, the decisions
// in docs/catalog.md.
package catalog
