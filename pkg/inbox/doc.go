// Package inbox is the channel inbox: the one queue through which channel
// connectors send multisell what happens on their channels (orders,
// listings, the results of pushes), plus the delayed retries of failed
// pushes. It parses each message, hands it to the domain it concerns
// (pkg/orders, pkg/listings, pkg/shipments), and sets aside what can never be applied: a
// rejected message goes to the inbox's dead-letter queue with its reason,
// logged and counted, and never holds up the messages behind it. Message
// formats are in docs/channel-sync.md.
package inbox
