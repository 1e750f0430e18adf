// Package connectors is the runtime every channel connector stands on: the Connector
// interface a channel type implements (verify credentials, poll orders since a cursor, push
// quantities in batches, post tracking) and its registry; the Session the runtime hands a
// connector for one channel (credentials, endpoints, an HTTP client that respects the
// channel's limits, cached access tokens); the order poll (a cursor and a lease per channel,
// orders sent to the channel inbox); and the push of outbox messages, answered with results
// on the inbox.
//
// Every instance shares its state through the table: the per-channel, per-operation token
// buckets, the sealed access tokens and the count of refusals, the poll cursors and leases
// (store.go).
//
// What a connector implements and uses is the surface: connector.go (Connector, Spec and
// the values it takes and returns, AuthError, Throttled), session.go (Session, Request,
// Response, Token), call.go (the authorised call), grant.go (the OAuth refresh-token grant),
// oauth.go, credentials.go, cost.go, keyed.go and registry.go. The rest is the runtime that
// runs connectors (queues, handlers, the table); a connector does not use it.
// pkg/testenv/connectorstest is the conformance suite every connector runs. How to add a
// connector, and why the runtime works as it does, is in
// docs/connectors.md.
package connectors
