// Package listings holds channel listings (a product offered on a channel,
// keyed by channel and channel SKU), their link to the inventory SKU they
// draw, their inventory rules, and channel sync: the table's stream drives
// the channel-sync function, which recomputes the quantity each listing
// should show, keeps products' derived quantities, and sends
// listing.quantity messages to the channel outbox, through the one push
// flow (pkg/push). Connectors' answers come back through the channel inbox
// (pkg/inbox). The rules, statuses and
// message formats are in docs/channel-sync.md; the items in
// docs/data-model.md.
package listings
