// Package store holds what every domain shares about the single DynamoDB
// table: the client with per-request cost metering, key construction, and
// the error helpers for conditional writes and transactions. The key design
// is documented in docs/data-model.md.
package store
