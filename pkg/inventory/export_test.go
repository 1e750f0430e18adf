package inventory

// NewRequestID lets the integration tests (package inventory_test) craft
// queue messages as PUT and PATCH do.
var NewRequestID = newRequestID

// Key lets the fault tests reach a record's item directly to corrupt it.
var Key = key
