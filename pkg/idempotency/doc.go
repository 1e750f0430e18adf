// Package idempotency remembers the answers of write requests sent with an
// Idempotency-Key header, per account, for 24 hours, so a client that
// retries after a timeout gets the first answer instead of a second effect.
// pkg/api decides what a claimed key means for a request (api.Replays);
// this package keeps the records in the table. The contract is in
// docs/api-conventions.md (Idempotency-Key).
package idempotency
