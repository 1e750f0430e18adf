package walmart

import "github.com/multisell/multisell/pkg/money"

// Walmart's JSON types the connector reads and sends, named and shaped as the Marketplace
// API's models (orders.json, inventory.json, feeds.json, auth.json of the US Marketplace)
// define them.

// OrdersAnswer is getAllOrders' answer (PurchaseOrderTypeV3).
type OrdersAnswer struct {
	List struct {
		Meta struct {
			TotalCount int64  `json:"totalCount"`
			Limit      int64  `json:"limit"`
			NextCursor string `json:"nextCursor"`
		} `json:"meta"`
		Elements struct {
			Order []Order `json:"order"`
		} `json:"elements"`
	} `json:"list"`
}

// Order is a purchase order (GetOrderResponseRecord).
type Order struct {
	PurchaseOrderID string        `json:"purchaseOrderId"`
	CustomerOrderID string        `json:"customerOrderId"`
	CustomerEmailID string        `json:"customerEmailId"`
	OrderDate       int64         `json:"orderDate"`
	ShippingInfo    *ShippingInfo `json:"shippingInfo"`
	OrderLines      struct {
		OrderLine []OrderLine `json:"orderLine"`
	} `json:"orderLines"`
	OrderSummary *OrderSummary `json:"orderSummary,omitempty"`
}

// ShippingInfo is where and how an order ships (ShippingInfoType).
type ShippingInfo struct {
	Phone                 string `json:"phone"`
	EstimatedDeliveryDate int64  `json:"estimatedDeliveryDate"`
	EstimatedShipDate     int64  `json:"estimatedShipDate"`
	MethodCode            string `json:"methodCode"`
	PostalAddress         struct {
		Name       string `json:"name"`
		Address1   string `json:"address1"`
		Address2   string `json:"address2"`
		City       string `json:"city"`
		State      string `json:"state"`
		PostalCode string `json:"postalCode"`
		Country    string `json:"country"`
	} `json:"postalAddress"`
}

// OrderSummary is the order's total (OrderSummary).
type OrderSummary struct {
	TotalAmount *struct {
		CurrencyAmount money.Amount `json:"currencyAmount"`
		CurrencyUnit   string       `json:"currencyUnit"`
	} `json:"totalAmount"`
}

// OrderLine is a line of an order (OrderLineType).
type OrderLine struct {
	LineNumber string `json:"lineNumber"`
	Item       struct {
		ProductName string `json:"productName"`
		SKU         string `json:"sku"`
	} `json:"item"`
	Charges struct {
		Charge []Charge `json:"charge"`
	} `json:"charges"`
	OrderLineQuantity Quantity `json:"orderLineQuantity"`
	StatusDate        int64    `json:"statusDate"`
	OrderLineStatuses struct {
		OrderLineStatus []LineStatus `json:"orderLineStatus"`
	} `json:"orderLineStatuses"`
}

// Charge is a line's charge (ChargeType): PRODUCT or SHIPPING, its amount and tax.
type Charge struct {
	ChargeType   string `json:"chargeType"`
	ChargeName   string `json:"chargeName"`
	ChargeAmount Money  `json:"chargeAmount"`
	Tax          *struct {
		TaxName   string `json:"taxName"`
		TaxAmount Money  `json:"taxAmount"`
	} `json:"tax,omitempty"`
}

// Money is an amount in a currency (MoneyTypeV2), read exactly.
type Money struct {
	Currency string       `json:"currency"`
	Amount   money.Amount `json:"amount"`
}

// Quantity is a quantity of units (QuantityType); Walmart writes the amount as a string.
type Quantity struct {
	UnitOfMeasurement string `json:"unitOfMeasurement"`
	Amount            string `json:"amount"`
}

// LineStatus is a quantity of a line in one status (OrderLineStatusType).
type LineStatus struct {
	Status         string        `json:"status"`
	StatusQuantity Quantity      `json:"statusQuantity"`
	TrackingInfo   *TrackingInfo `json:"trackingInfo,omitempty"`
}

// TrackingInfo is a shipment's tracking (TrackingInfoType).
type TrackingInfo struct {
	ShipDateTime   int64       `json:"shipDateTime"`
	CarrierName    CarrierName `json:"carrierName"`
	MethodCode     string      `json:"methodCode"`
	TrackingNumber string      `json:"trackingNumber"`
	TrackingURL    string      `json:"trackingURL,omitempty"`
}

// CarrierName is a carrier of Walmart's list, or another carrier by name (CarrierNameType).
type CarrierName struct {
	Carrier      string `json:"carrier,omitempty"`
	OtherCarrier string `json:"otherCarrier,omitempty"`
}

// Shipment is shippingUpdates' body (OrderShipment).
type Shipment struct {
	OrderShipment struct {
		OrderLines struct {
			OrderLine []ShipLine `json:"orderLine"`
		} `json:"orderLines"`
	} `json:"orderShipment"`
}

// ShipLine is one line of a shipment (ShippingLineType).
type ShipLine struct {
	LineNumber        string `json:"lineNumber"`
	SellerOrderID     string `json:"sellerOrderId"`
	OrderLineStatuses struct {
		OrderLineStatus []LineStatus `json:"orderLineStatus"`
	} `json:"orderLineStatuses"`
}

// OrderAnswer is the answer of acknowledgeOrders and shippingUpdates (GetOrderResponse).
type OrderAnswer struct {
	Order Order `json:"order"`
}

// Inventory is one SKU's quantity (Inventory): updateInventoryForAnItem's body and answer,
// and an item of the bulk inventory feed.
type Inventory struct {
	SKU      string   `json:"sku"`
	Quantity InputQty `json:"quantity"`
}

// InputQty is an inventory quantity (InputQty): unit EACH.
type InputQty struct {
	Unit   string `json:"unit"`
	Amount int64  `json:"amount"`
}

// InventoryFeed is the bulk inventory feed's file (feedType=inventory, version 1.4).
type InventoryFeed struct {
	InventoryHeader struct {
		Version string `json:"version"`
	} `json:"InventoryHeader"`
	Inventory []Inventory `json:"Inventory"`
}

// FeedID is the answer of a feed's upload (FeedId).
type FeedID struct {
	FeedID string `json:"feedId"`
}

// FeedStatus is getFeedItemStatus' answer (PartnerFeedResponse).
type FeedStatus struct {
	FeedID          string `json:"feedId"`
	FeedStatus      string `json:"feedStatus"`
	ItemsReceived   int64  `json:"itemsReceived"`
	ItemsSucceeded  int64  `json:"itemsSucceeded"`
	ItemsFailed     int64  `json:"itemsFailed"`
	ItemsProcessing int64  `json:"itemsProcessing"`
	Offset          int64  `json:"offset"`
	Limit           int64  `json:"limit"`
	ItemDetails     struct {
		ItemIngestionStatus []ItemStatus `json:"itemIngestionStatus"`
	} `json:"itemDetails"`
}

// ItemStatus is one item's ingestion in a feed (PartnerItemIngestionStatus).
type ItemStatus struct {
	SKU             string `json:"sku"`
	Index           int64  `json:"index"`
	IngestionStatus string `json:"ingestionStatus"`
	IngestionErrors struct {
		IngestionError []IngestionError `json:"ingestionError"`
	} `json:"ingestionErrors"`
}

// IngestionError is an error of an item in a feed (IngestionError).
type IngestionError struct {
	Type        string `json:"type"`
	Code        string `json:"code"`
	Description string `json:"description"`
}

// FeedList is getAllFeedStatuses' answer (FeedRecordResponse).
type FeedList struct {
	TotalResults int64        `json:"totalResults"`
	Results      FeedListPage `json:"results"`
}

// FeedListPage holds the feeds of a getAllFeedStatuses answer.
type FeedListPage struct {
	Feed []FeedRecord `json:"feed"`
}

// FeedRecord is one feed of the seller (FeedRecord).
type FeedRecord struct {
	FeedID     string `json:"feedId"`
	FeedType   string `json:"feedType"`
	FeedStatus string `json:"feedStatus"`
	FeedDate   int64  `json:"feedDate"`
}

// GatewayError is one of Walmart's errors (GatewayError).
type GatewayError struct {
	Code        string `json:"code"`
	Field       string `json:"field,omitempty"`
	Description string `json:"description,omitempty"`
	Info        string `json:"info,omitempty"`
	Severity    string `json:"severity,omitempty"`
	Category    string `json:"category,omitempty"`
}
