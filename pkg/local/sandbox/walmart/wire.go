package walmart

import "github.com/multisell/multisell/pkg/money"

// The sandbox's own types of Walmart's JSON, from the US Marketplace's models
// (../shared/channel-models/walmart/: orders.json, inventory.json, feeds.json), never the
// connector's: a wrong JSON name in the connector then shows as a field the sandbox does not
// get.

// PurchaseOrder is a purchase order as getAllOrders, getAnOrder and the order updates
// answer it (GetOrderResponseRecord).
type PurchaseOrder struct {
	PurchaseOrderID string       `json:"purchaseOrderId"`
	CustomerOrderID string       `json:"customerOrderId"`
	CustomerEmailID string       `json:"customerEmailId"`
	OrderDate       int64        `json:"orderDate"`
	ShippingInfo    ShippingInfo `json:"shippingInfo"`
	OrderLines      OrderLines   `json:"orderLines"`
}

// ShippingInfo is ShippingInfoType.
type ShippingInfo struct {
	Phone                 string        `json:"phone"`
	EstimatedDeliveryDate int64         `json:"estimatedDeliveryDate"`
	EstimatedShipDate     int64         `json:"estimatedShipDate"`
	MethodCode            string        `json:"methodCode"`
	PostalAddress         PostalAddress `json:"postalAddress"`
}

// PostalAddress is PostalAddressType.
type PostalAddress struct {
	Name        string `json:"name"`
	Address1    string `json:"address1"`
	Address2    string `json:"address2,omitempty"`
	City        string `json:"city"`
	State       string `json:"state"`
	PostalCode  string `json:"postalCode"`
	Country     string `json:"country"`
	AddressType string `json:"addressType,omitempty"`
}

// OrderLines is OrderLinesType.
type OrderLines struct {
	OrderLine []OrderLine `json:"orderLine"`
}

// OrderLine is OrderLineType.
type OrderLine struct {
	LineNumber        string            `json:"lineNumber"`
	Item              Item              `json:"item"`
	Charges           Charges           `json:"charges"`
	OrderLineQuantity QuantityType      `json:"orderLineQuantity"`
	StatusDate        int64             `json:"statusDate"`
	OrderLineStatuses OrderLineStatuses `json:"orderLineStatuses"`
}

// Item is ItemType.
type Item struct {
	ProductName string `json:"productName"`
	SKU         string `json:"sku"`
}

// Charges is ChargesType.
type Charges struct {
	Charge []Charge `json:"charge"`
}

// Charge is ChargeType.
type Charge struct {
	ChargeType   string      `json:"chargeType"`
	ChargeName   string      `json:"chargeName"`
	ChargeAmount MoneyTypeV2 `json:"chargeAmount"`
	Tax          *TaxType    `json:"tax,omitempty"`
}

// TaxType is TaxType.
type TaxType struct {
	TaxName   string      `json:"taxName"`
	TaxAmount MoneyTypeV2 `json:"taxAmount"`
}

// MoneyTypeV2 is an amount in a currency.
type MoneyTypeV2 struct {
	Currency string       `json:"currency"`
	Amount   money.Amount `json:"amount"`
}

// QuantityType is a quantity: unitOfMeasurement EACH or EA, the amount as a string.
type QuantityType struct {
	UnitOfMeasurement string `json:"unitOfMeasurement"`
	Amount            string `json:"amount"`
}

// OrderLineStatuses is OrderLineStatusesType.
type OrderLineStatuses struct {
	OrderLineStatus []OrderLineStatus `json:"orderLineStatus"`
}

// OrderLineStatus is OrderLineStatusType (and ShipLineStatusType in a shipping update).
type OrderLineStatus struct {
	Status             string            `json:"status"`
	StatusQuantity     QuantityType      `json:"statusQuantity"`
	CancellationReason string            `json:"cancellationReason,omitempty"`
	TrackingInfo       *TrackingInfoType `json:"trackingInfo,omitempty"`
}

// TrackingInfoType is a package's tracking.
type TrackingInfoType struct {
	ShipDateTime   int64           `json:"shipDateTime"`
	CarrierName    CarrierNameType `json:"carrierName"`
	MethodCode     string          `json:"methodCode"`
	TrackingNumber string          `json:"trackingNumber"`
	TrackingURL    string          `json:"trackingURL,omitempty"`
}

// CarrierNameType is one of Walmart's carriers, or another by name.
type CarrierNameType struct {
	OtherCarrier string `json:"otherCarrier,omitempty"`
	Carrier      string `json:"carrier,omitempty"`
}

// OrderShipment is shippingUpdates' body.
type OrderShipment struct {
	OrderShipment *struct {
		ProcessMode string `json:"processMode,omitempty"`
		OrderLines  *struct {
			OrderLine []ShippingLine `json:"orderLine"`
		} `json:"orderLines"`
	} `json:"orderShipment"`
}

// ShippingLine is ShippingLineType.
type ShippingLine struct {
	LineNumber        string            `json:"lineNumber"`
	SellerOrderID     string            `json:"sellerOrderId"`
	OrderLineStatuses OrderLineStatuses `json:"orderLineStatuses"`
}

// Inventory is an item's quantity (Inventory).
type Inventory struct {
	SKU      string    `json:"sku"`
	Quantity *InputQty `json:"quantity"`
}

// InputQty is a quantity of inventory.
type InputQty struct {
	Unit   string `json:"unit"`
	Amount *int64 `json:"amount"`
}

// InventoryFeed is the bulk item inventory feed's file (version 1.4, JSON).
type InventoryFeed struct {
	InventoryHeader *struct {
		Version string `json:"version"`
	} `json:"InventoryHeader"`
	Inventory []Inventory `json:"Inventory"`
}

// PartnerFeedResponse is getFeedItemStatus' answer.
type PartnerFeedResponse struct {
	FeedID          string `json:"feedId"`
	FeedStatus      string `json:"feedStatus"`
	ItemsReceived   int    `json:"itemsReceived"`
	ItemsSucceeded  int    `json:"itemsSucceeded"`
	ItemsFailed     int    `json:"itemsFailed"`
	ItemsProcessing int    `json:"itemsProcessing"`
	Offset          int    `json:"offset"`
	Limit           int    `json:"limit"`
	ItemDetails     *struct {
		ItemIngestionStatus []PartnerItemIngestionStatus `json:"itemIngestionStatus"`
	} `json:"itemDetails,omitempty"`
}

// PartnerItemIngestionStatus is one item's ingestion.
type PartnerItemIngestionStatus struct {
	SKU             string           `json:"sku"`
	Index           int              `json:"index"`
	IngestionStatus string           `json:"ingestionStatus"`
	IngestionErrors *IngestionErrors `json:"ingestionErrors,omitempty"`
}

// IngestionErrors are an item's errors.
type IngestionErrors struct {
	IngestionError []IngestionError `json:"ingestionError"`
}

// IngestionError is one error of an item.
type IngestionError struct {
	Type        string `json:"type"`
	Code        string `json:"code"`
	Description string `json:"description"`
}

// FeedRecord is one feed in getAllFeedStatuses.
type FeedRecord struct {
	FeedID          string `json:"feedId"`
	FeedType        string `json:"feedType"`
	FeedStatus      string `json:"feedStatus"`
	FeedDate        int64  `json:"feedDate"`
	ItemsReceived   int64  `json:"itemsReceived"`
	ItemsSucceeded  int64  `json:"itemsSucceeded"`
	ItemsFailed     int64  `json:"itemsFailed"`
	ItemsProcessing int64  `json:"itemsProcessing"`
}

// GatewayError is one of Walmart's errors.
type GatewayError struct {
	Code        string `json:"code"`
	Field       string `json:"field,omitempty"`
	Description string `json:"description,omitempty"`
	Info        string `json:"info,omitempty"`
	Severity    string `json:"severity,omitempty"`
	Category    string `json:"category,omitempty"`
}

// ErrorBody is the body of Walmart's error answers: {"errors":{"error":[...]}}.
type ErrorBody struct {
	Errors struct {
		Error []GatewayError `json:"error"`
	} `json:"errors"`
}
