// Package webhookhttp is the wire side of multisell's webhooks, which follow the Standard
// Webhooks specification (https://www.standardwebhooks.com/): the signing secrets, the
// webhook-signature header, the rules a destination URL must follow, and the Sender that
// posts one delivery attempt and reports how it went.
//
// A delivery carries three headers: webhook-id (the event id), webhook-timestamp (unix
// seconds) and webhook-signature ("v1," and the base64 HMAC-SHA256 of "id.timestamp.body",
// keyed with the secret's bytes; during a secret rotation one entry per secret, separated
// by a space, newest first). A 2xx answer within the Sender's timeout is a success;
// anything else is a failure the caller retries.
//
// Destinations are checked twice: CheckURL holds a URL to the form rules when an endpoint
// is saved, and at every attempt the Sender resolves the host, refuses it if any of its
// addresses is one the Policy refuses (private, loopback, link-local, metadata, ...), and
// connects to the very address it checked, so a DNS answer that changes between the
// check and the connection cannot reach an internal service.
//
// The package is a leaf: it knows HTTP but no storage; the webhooks domain calls it.
// Secrets never appear in its errors or results.
package webhookhttp
