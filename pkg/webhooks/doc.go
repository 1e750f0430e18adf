// Package webhooks holds an account's webhooks (a URL subscribed to event
// types of the feed, with its signing secret) and their deliveries: every
// event of the feed (pkg/events) is delivered to each active webhook that
// wants its type, signed as the Standard Webhooks specification says, by
// the webhook-delivery function, and retried with growing, jittered delays
// for about two days. The contract, the retry schedule and the safety rules
// are in docs/webhooks.md; the items in docs/data-model.md.
package webhooks
