package ebay

import "encoding/xml"

// The sandbox's own Trading API XML types (namespace urn:ebay:apis:eBLBaseComponents), named
// as eBay's Trading API reference names them: ReviseInventoryStatus
// (https://developer.ebay.com/Devzone/XML/docs/reference/ebay/ReviseInventoryStatus.html) and
// GetMyeBaySelling (https://developer.ebay.com/devzone/xml/Docs/Reference/ebay/GetMyeBaySelling.html).
// No model of the Trading API is beside the repository, so no test checks them against one.

// TradingError is one error of an answer (ErrorType).
type TradingError struct {
	ShortMessage        string           `xml:"ShortMessage"`
	LongMessage         string           `xml:"LongMessage"`
	ErrorCode           string           `xml:"ErrorCode"`
	SeverityCode        string           `xml:"SeverityCode"`
	ErrorParameters     []ErrorParameter `xml:"ErrorParameters,omitempty"`
	ErrorClassification string           `xml:"ErrorClassification"`
}

// ErrorParameter is a value an error names (ErrorParameterType).
type ErrorParameter struct {
	ParamID string `xml:"ParamID,attr"`
	Value   string `xml:"Value"`
}

// ReviseInventoryStatusRequest is ReviseInventoryStatus' request.
type ReviseInventoryStatusRequest struct {
	XMLName         xml.Name          `xml:"ReviseInventoryStatusRequest"`
	InventoryStatus []InventoryStatus `xml:"InventoryStatus"`
}

// InventoryStatus is one listing's quantity (InventoryStatusType).
type InventoryStatus struct {
	ItemID   string `xml:"ItemID,omitempty"`
	SKU      string `xml:"SKU,omitempty"`
	Quantity *int64 `xml:"Quantity,omitempty"`
}

// ReviseInventoryStatusResponse is ReviseInventoryStatus' answer.
type ReviseInventoryStatusResponse struct {
	XMLName         xml.Name          `xml:"urn:ebay:apis:eBLBaseComponents ReviseInventoryStatusResponse"`
	Timestamp       string            `xml:"Timestamp"`
	Ack             string            `xml:"Ack"`
	Errors          []TradingError    `xml:"Errors,omitempty"`
	Version         string            `xml:"Version"`
	InventoryStatus []InventoryStatus `xml:"InventoryStatus,omitempty"`
}

// GetMyeBaySellingRequest is GetMyeBaySelling's request (the active list only).
type GetMyeBaySellingRequest struct {
	XMLName    xml.Name               `xml:"GetMyeBaySellingRequest"`
	ActiveList *ItemListCustomization `xml:"ActiveList"`
}

// ItemListCustomization asks for a page of a list (ItemListCustomizationType).
type ItemListCustomization struct {
	Include    bool        `xml:"Include"`
	Pagination *Pagination `xml:"Pagination"`
}

// Pagination is a page of a list (PaginationType).
type Pagination struct {
	EntriesPerPage int `xml:"EntriesPerPage"`
	PageNumber     int `xml:"PageNumber"`
}

// GetMyeBaySellingResponse is GetMyeBaySelling's answer.
type GetMyeBaySellingResponse struct {
	XMLName    xml.Name            `xml:"urn:ebay:apis:eBLBaseComponents GetMyeBaySellingResponse"`
	Timestamp  string              `xml:"Timestamp"`
	Ack        string              `xml:"Ack"`
	Errors     []TradingError      `xml:"Errors,omitempty"`
	Version    string              `xml:"Version"`
	ActiveList *PaginatedItemArray `xml:"ActiveList,omitempty"`
}

// PaginatedItemArray is a page of listings (PaginatedItemArrayType).
type PaginatedItemArray struct {
	ItemArray        ItemArray        `xml:"ItemArray"`
	PaginationResult PaginationResult `xml:"PaginationResult"`
}

// ItemArray holds listings (ItemArrayType).
type ItemArray struct {
	Items []TradingItem `xml:"Item"`
}

// TradingItem is a listing as the active list shows it (ItemType).
type TradingItem struct {
	ItemID            string `xml:"ItemID"`
	SKU               string `xml:"SKU,omitempty"`
	ListingType       string `xml:"ListingType"`
	Quantity          int64  `xml:"Quantity"`
	QuantityAvailable int64  `xml:"QuantityAvailable"`
}

// PaginationResult is how many pages and entries a list has (PaginationResultType).
type PaginationResult struct {
	TotalNumberOfPages   int `xml:"TotalNumberOfPages"`
	TotalNumberOfEntries int `xml:"TotalNumberOfEntries"`
}

// failureAnswer is an answer of Ack Failure for a call the sandbox could not read; XMLName
// is the call's response element.
type failureAnswer struct {
	XMLName   xml.Name
	Timestamp string         `xml:"Timestamp"`
	Ack       string         `xml:"Ack"`
	Errors    []TradingError `xml:"Errors"`
	Version   string         `xml:"Version"`
}
