package etsy

import "encoding/json"

// The Open API's JSON as the connector reads and writes it (Etsy's OpenAPI document
// 3.0.0: its schemas of the same names); fields the connector does not use are left out.

// Money is Etsy's amount: amount over divisor, in currency_code.
type Money struct {
	Amount       int64  `json:"amount"`
	Divisor      int64  `json:"divisor"`
	CurrencyCode string `json:"currency_code"`
}

// ShopReceipts is a page of getShopReceipts.
type ShopReceipts struct {
	Count   int           `json:"count"`
	Results []ShopReceipt `json:"results"`
}

// ShopReceipt is an order.
type ShopReceipt struct {
	ReceiptID         int64                    `json:"receipt_id"`
	Name              string                   `json:"name"`
	FirstLine         string                   `json:"first_line"`
	SecondLine        string                   `json:"second_line"`
	City              string                   `json:"city"`
	State             string                   `json:"state"`
	Zip               string                   `json:"zip"`
	CountryISO        string                   `json:"country_iso"`
	BuyerEmail        string                   `json:"buyer_email"`
	Status            string                   `json:"status"`
	MessageFromBuyer  string                   `json:"message_from_buyer"`
	IsPaid            bool                     `json:"is_paid"`
	IsShipped         bool                     `json:"is_shipped"`
	CreatedTimestamp  int64                    `json:"created_timestamp"`
	UpdatedTimestamp  int64                    `json:"updated_timestamp"`
	Grandtotal        *Money                   `json:"grandtotal"`
	TotalPrice        *Money                   `json:"total_price"`
	TotalShippingCost *Money                   `json:"total_shipping_cost"`
	DiscountAmt       *Money                   `json:"discount_amt"`
	Shipments         []ShopReceiptShipment    `json:"shipments"`
	Transactions      []ShopReceiptTransaction `json:"transactions"`
	Refunds           []ShopRefund             `json:"refunds"`
}

// ShopReceiptTransaction is a line of a receipt.
type ShopReceiptTransaction struct {
	TransactionID    int64  `json:"transaction_id"`
	Title            string `json:"title"`
	Quantity         int64  `json:"quantity"`
	ListingID        int64  `json:"listing_id"`
	ProductID        int64  `json:"product_id"`
	SKU              string `json:"sku"`
	Price            *Money `json:"price"`
	PaidTimestamp    *int64 `json:"paid_timestamp"`
	ShippedTimestamp *int64 `json:"shipped_timestamp"`
	ShippingMethod   string `json:"shipping_method"`
}

// ShopReceiptShipment is a tracking posted on a receipt.
type ShopReceiptShipment struct {
	CarrierName  string `json:"carrier_name"`
	TrackingCode string `json:"tracking_code"`
}

// ShopRefund is a refund of a receipt.
type ShopRefund struct {
	Amount *Money `json:"amount"`
}

// ListingInventory is a listing's inventory as getListingInventory answers it.
type ListingInventory struct {
	Products           []ListingInventoryProduct `json:"products"`
	PriceOnProperty    []int64                   `json:"price_on_property"`
	QuantityOnProperty []int64                   `json:"quantity_on_property"`
	SKUOnProperty      []int64                   `json:"sku_on_property"`
}

// ListingInventoryProduct is a product of a listing.
type ListingInventoryProduct struct {
	ProductID      int64                             `json:"product_id"`
	SKU            string                            `json:"sku"`
	IsDeleted      bool                              `json:"is_deleted"`
	Offerings      []ListingInventoryProductOffering `json:"offerings"`
	PropertyValues []ListingPropertyValue            `json:"property_values"`
}

// ListingInventoryProductOffering is a product's offering: its price and quantity.
type ListingInventoryProductOffering struct {
	OfferingID int64  `json:"offering_id"`
	Quantity   int64  `json:"quantity"`
	IsEnabled  bool   `json:"is_enabled"`
	IsDeleted  bool   `json:"is_deleted"`
	Price      *Money `json:"price"`
}

// ListingPropertyValue is a product's value of one property.
type ListingPropertyValue struct {
	PropertyID   int64    `json:"property_id"`
	PropertyName *string  `json:"property_name"`
	ScaleID      *int64   `json:"scale_id"`
	ValueIDs     []int64  `json:"value_ids"`
	Values       []string `json:"values"`
}

// InventoryUpdate is updateListingInventory's body: the whole inventory.
type InventoryUpdate struct {
	Products           []ProductUpdate `json:"products"`
	PriceOnProperty    []int64         `json:"price_on_property"`
	QuantityOnProperty []int64         `json:"quantity_on_property"`
	SKUOnProperty      []int64         `json:"sku_on_property"`
}

// ProductUpdate is a product of an InventoryUpdate.
type ProductUpdate struct {
	SKU            string                `json:"sku"`
	PropertyValues []PropertyValueUpdate `json:"property_values"`
	Offerings      []OfferingUpdate      `json:"offerings"`
}

// PropertyValueUpdate is a product's property value in an InventoryUpdate.
type PropertyValueUpdate struct {
	PropertyID   int64    `json:"property_id"`
	ValueIDs     []int64  `json:"value_ids"`
	ScaleID      *int64   `json:"scale_id,omitempty"`
	PropertyName string   `json:"property_name,omitempty"`
	Values       []string `json:"values"`
}

// OfferingUpdate is an offering in an InventoryUpdate: its price is a decimal number (the
// Money's amount over divisor, written exactly).
type OfferingUpdate struct {
	Price     json.Number `json:"price"`
	Quantity  int64       `json:"quantity"`
	IsEnabled bool        `json:"is_enabled"`
}

// ShopListings is a page of getListingsByShop with its inventories (includes=Inventory).
type ShopListings struct {
	Count   int           `json:"count"`
	Results []ShopListing `json:"results"`
}

// ShopListing is a listing and its inventory.
type ShopListing struct {
	ListingID int64             `json:"listing_id"`
	State     string            `json:"state"`
	Inventory *ListingInventory `json:"inventory"`
}

// Shop is the part of Etsy's shop the connector reads.
type Shop struct {
	ShopID int64 `json:"shop_id"`
}

// Payments is getShopPaymentByReceiptId's answer: the receipt's payments.
type Payments struct {
	Results []Payment `json:"results"`
}

// Payment is a receipt's payment with its refunds (payment adjustments).
type Payment struct {
	PaymentAdjustments []PaymentAdjustment `json:"payment_adjustments"`
}

// PaymentAdjustment is a refund of a payment, item by item.
type PaymentAdjustment struct {
	IsSuccess              bool                    `json:"is_success"`
	PaymentAdjustmentItems []PaymentAdjustmentItem `json:"payment_adjustment_items"`
}

// PaymentAdjustmentItem is what a refund pays back of one transaction, in the minor units
// of the payment's currency.
type PaymentAdjustmentItem struct {
	TransactionID int64 `json:"transaction_id"`
	Amount        int64 `json:"amount"`
}
