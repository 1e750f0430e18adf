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
	// The last adjustment applied to the record (its stamp, see
	// attrChgReq): empty on a record no adjustment has changed.
	ChgReq       string  `dynamodbav:"chg_req"`
	ChgBefore    int64   `dynamodbav:"chg_before"`
	ChgAfter     int64   `dynamodbav:"chg_after"`
	ChgReason    *string `dynamodbav:"chg_reason"`
	ChgReference *string `dynamodbav:"chg_ref"`
	ChgAt        string  `dynamodbav:"chg_at"`
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
	// The last adjustment applied to the record (its stamp), what its
	// history item copies: the request, on_hand before and after, the
	// reason and reference, and when.
	attrChgReq       = "chg_req"
	attrChgBefore    = "chg_before"
	attrChgAfter     = "chg_after"
	attrChgReason    = "chg_reason"
	attrChgReference = "chg_ref"
	attrChgAt        = "chg_at"
)

// createdByPost is the created_by of records POST /inventory created.
const createdByPost = "POST"

// Inventory is an inventory record as GET /inventory returns it: the
// stored quantities and fields, and the fields of the product with the same
// SKU (null without one). cost is the record's own cost, else the product's.
// description is the reason given with the last adjustment.
type Inventory struct {
	SKU           string   `json:"sku"`
	Warehouse     string   `json:"warehouse_uuid"`
	OnHand        int64    `json:"on_hand"`
	Reserved      int64    `json:"reserved"`
	Available     int64    `json:"available"`
	ProductName   *string  `json:"product_name"`
	PackageLength *float64 `json:"package_length"`
	PackageWidth  *float64 `json:"package_width"`
	PackageHeight *float64 `json:"package_height"`
	PackageWeight *float64 `json:"package_weight"`
	Cost          *float64 `json:"cost"`
	UPC           *string  `json:"upc"`
	EAN           *string  `json:"ean"`
	ISBN          *string  `json:"isbn"`
	GTIN          *string  `json:"gtin"`
	GCID          *string  `json:"gcid"`
	EPID          *string  `json:"epid"`
	ASIN          *string  `json:"asin"`
	FNSKU         *string  `json:"fnsku"`
	BinLocation   *string  `json:"bin_location"`
	Description   *string  `json:"description"`
	CreatedAt     string   `json:"created_at"`
	UpdatedAt     string   `json:"updated_at"`
}

// view joins a record and its product's fields (the zero copy when there
// is no product) into what the API returns.
func view(rec Record, p productCopy) Inventory {
	cost := rec.Cost
	if cost == nil {
		cost = p.Cost
	}
	return Inventory{
		SKU: rec.SKU, Warehouse: rec.Warehouse,
		OnHand: rec.OnHand, Reserved: rec.Reserved, Available: rec.Available,
		ProductName:   p.Name,
		PackageLength: p.PackageLength, PackageWidth: p.PackageWidth,
		PackageHeight: p.PackageHeight, PackageWeight: p.PackageWeight,
		Cost: cost,
		UPC:  p.UPC, EAN: p.EAN, ISBN: p.ISBN, GTIN: p.GTIN, GCID: p.GCID, EPID: p.EPID, ASIN: p.ASIN,
		BinLocation: rec.BinLocation, Description: rec.Description,
		CreatedAt: rec.CreatedAt, UpdatedAt: rec.UpdatedAt,
	}
}
