// Package warehouses holds the merchant's warehouses: GET, POST and PUT
// /warehouses, and the lookups other domains make (a warehouse by uuid, all
// warehouses in allocation priority order, a condition that one exists).
// The decisions are in docs/decisions.md (Warehouses), the item layout in
// docs/data-model.md.
package warehouses
