package inventory

// Internals the integration tests (package inventory_test) use to craft
// queue messages as PUT and PATCH do.
var (
	EncodeAdjustment = encodeAdjustment
	NewRequestID     = newRequestID
)
