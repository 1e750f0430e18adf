package ebay

import "encoding/xml"

// The parts of the Trading API's XML (namespace urn:ebay:apis:eBLBaseComponents) the
// connector writes and reads, named as eBay's Trading API reference names them.

// TradingAck is what every Trading API answer holds: Ack (Success, Warning, PartialFailure,
// Failure) and its errors.
type TradingAck struct {
	Ack    string         `xml:"Ack"`
	Errors []TradingError `xml:"Errors"`
}

// TradingError is one error of a Trading API answer (ErrorType).
type TradingError struct {
	ShortMessage    string           `xml:"ShortMessage"`
	LongMessage     string           `xml:"LongMessage"`
	ErrorCode       string           `xml:"ErrorCode"`
	SeverityCode    string           `xml:"SeverityCode"`
	ErrorParameters []ErrorParameter `xml:"ErrorParameters"`
}

// ErrorParameter is a value an error names (ErrorParameterType).
type ErrorParameter struct {
	ParamID string `xml:"ParamID,attr"`
	Value   string `xml:"Value"`
}

// ReviseInventoryStatusRequest revises the quantities of up to four listings.
type ReviseInventoryStatusRequest struct {
	XMLName         xml.Name          `xml:"urn:ebay:apis:eBLBaseComponents ReviseInventoryStatusRequest"`
	InventoryStatus []InventoryStatus `xml:"InventoryStatus"`
}

// InventoryStatus is one listing's quantity (InventoryStatusType).
type InventoryStatus struct {
	ItemID   string `xml:"ItemID,omitempty"`
	SKU      string `xml:"SKU,omitempty"`
	Quantity *int64 `xml:"Quantity,omitempty"`
}

// ReviseInventoryStatusResponse is ReviseInventoryStatus' answer: an InventoryStatus for each
// listing revised.
type ReviseInventoryStatusResponse struct {
	TradingAck
	InventoryStatus []InventoryStatus `xml:"InventoryStatus"`
}

// GetMyeBaySellingRequest asks for the seller's active listings.
type GetMyeBaySellingRequest struct {
	XMLName    xml.Name               `xml:"urn:ebay:apis:eBLBaseComponents GetMyeBaySellingRequest"`
	ActiveList *ItemListCustomization `xml:"ActiveList,omitempty"`
}

// ItemListCustomization says which page of a list to answer (ItemListCustomizationType).
type ItemListCustomization struct {
	Include        bool        `xml:"Include"`
	HideVariations bool        `xml:"HideVariations,omitempty"`
	Pagination     *Pagination `xml:"Pagination,omitempty"`
}

// Pagination is a page of a list (PaginationType).
type Pagination struct {
	EntriesPerPage int `xml:"EntriesPerPage"`
	PageNumber     int `xml:"PageNumber"`
}

// GetMyeBaySellingResponse is GetMyeBaySelling's answer.
type GetMyeBaySellingResponse struct {
	TradingAck
	ActiveList *PaginatedItemArray `xml:"ActiveList"`
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

// TradingItem is a listing: its ItemID and SKU (ItemType).
type TradingItem struct {
	ItemID string `xml:"ItemID"`
	SKU    string `xml:"SKU"`
}

// PaginationResult is how many pages a list has (PaginationResultType).
type PaginationResult struct {
	TotalNumberOfPages   int `xml:"TotalNumberOfPages"`
	TotalNumberOfEntries int `xml:"TotalNumberOfEntries"`
}
