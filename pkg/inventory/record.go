package inventory

// Record is an inventory record as stored: the quantities, the fields the
// merchant sets on it and the copy of its product's fields.
type Record struct {
	SKU         string   `dynamodbav:"sku"`
	Warehouse   string   `dynamodbav:"warehouse_uuid"`
	OnHand      int64    `dynamodbav:"on_hand"`
	Reserved    int64    `dynamodbav:"reserved"`
	Available   int64    `dynamodbav:"available"`
	Cost        *float64 `dynamodbav:"cost"`
	BinLocation *string  `dynamodbav:"bin_location"`
	Description *string  `dynamodbav:"description"`
	CreatedAt   string   `dynamodbav:"created_at"`
	UpdatedAt   string   `dynamodbav:"updated_at"`
	// Product is the copy of the product's fields, of version PVersion
	// (0: no product). A record written before copies has no PVersion: its
	// product is read when it is shown.
	Product  productCopy `dynamodbav:"prod"`
	PVersion *int64      `dynamodbav:"pver"`
}

// Attribute names of a stored record.
const (
	attrSKU         = "sku"
	attrWarehouse   = "warehouse_uuid"
	attrOnHand      = "on_hand"
	attrReserved    = "reserved"
	attrAvailable   = "available"
	attrCost        = "cost"
	attrBinLocation = "bin_location"
	attrDescription = "description"
	attrCreatedAt   = "created_at"
	attrUpdatedAt   = "updated_at"
	// attrCreatedBy is what created the record: the PUT's request id, or
	// createdByPost.
	attrCreatedBy = "created_by"
	// attrLastRequest is the adjustment last applied to the record: a
	// redelivered message finds itself there and applies nothing, an older
	// one finds a newer id and is superseded.
	attrLastRequest = "last_request"
)

// createdByPost is the created_by of records POST /inventory created.
const createdByPost = "POST"
