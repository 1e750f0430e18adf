// Package api is the HTTP edge every multisell endpoint shares: it turns an
// API Gateway proxy event into a Request with the caller's account (only
// from the authorizer), enforces the per-account rate limit, parses
// pagination and query filters, writes JSON responses, and maps the kinds of
// pkg/errs to statuses and bodies in one table (errors.go). It is the only
// package that knows HTTP status codes; the conventions are in
// docs/api-conventions.md.
package api
