// Package api is the HTTP envelope every multisell endpoint shares: it turns
// an API Gateway proxy event into a Request with the caller's account,
// enforces the per-account rate limit, decodes bodies leniently, parses
// pagination and filters, and writes JSON responses and errors in the shapes
// of the API specification and DESIGN.md section 4.
package api
