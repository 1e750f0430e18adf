package etsy

import "encoding/json"

// The Open API's JSON as the sandbox reads and answers it, taken from Etsy's OpenAPI
// document 3.0.0 (its schemas of the same names), never from the connector's types.

// Money is Etsy's Money.
type Money struct {
	Amount       int64  `json:"amount"`
	Divisor      int64  `json:"divisor"`
	CurrencyCode string `json:"currency_code"`
}

// Receipt is a ShopReceipt.
type Receipt struct {
	ReceiptID         int64         `json:"receipt_id"`
	ReceiptType       int           `json:"receipt_type"`
	SellerUserID      int64         `json:"seller_user_id"`
	BuyerUserID       int64         `json:"buyer_user_id"`
	BuyerEmail        string        `json:"buyer_email"`
	Name              string        `json:"name"`
	FirstLine         string        `json:"first_line"`
	SecondLine        *string       `json:"second_line"`
	City              string        `json:"city"`
	State             *string       `json:"state"`
	Zip               string        `json:"zip"`
	Status            string        `json:"status"`
	CountryISO        string        `json:"country_iso"`
	PaymentMethod     string        `json:"payment_method"`
	MessageFromBuyer  *string       `json:"message_from_buyer"`
	IsPaid            bool          `json:"is_paid"`
	IsShipped         bool          `json:"is_shipped"`
	CreateTimestamp   int64         `json:"create_timestamp"`
	CreatedTimestamp  int64         `json:"created_timestamp"`
	UpdateTimestamp   int64         `json:"update_timestamp"`
	UpdatedTimestamp  int64         `json:"updated_timestamp"`
	Grandtotal        Money         `json:"grandtotal"`
	Subtotal          Money         `json:"subtotal"`
	TotalPrice        Money         `json:"total_price"`
	TotalShippingCost Money         `json:"total_shipping_cost"`
	TotalTaxCost      Money         `json:"total_tax_cost"`
	TotalVATCost      Money         `json:"total_vat_cost"`
	DiscountAmt       Money         `json:"discount_amt"`
	GiftWrapPrice     Money         `json:"gift_wrap_price"`
	Shipments         []Shipment    `json:"shipments"`
	Transactions      []Transaction `json:"transactions"`
	Refunds           []Refund      `json:"refunds"`
}

// Transaction is a ShopReceiptTransaction.
type Transaction struct {
	TransactionID    int64   `json:"transaction_id"`
	Title            *string `json:"title"`
	SellerUserID     int64   `json:"seller_user_id"`
	BuyerUserID      int64   `json:"buyer_user_id"`
	CreatedTimestamp int64   `json:"created_timestamp"`
	PaidTimestamp    *int64  `json:"paid_timestamp"`
	ShippedTimestamp *int64  `json:"shipped_timestamp"`
	Quantity         int64   `json:"quantity"`
	ReceiptID        int64   `json:"receipt_id"`
	IsDigital        bool    `json:"is_digital"`
	ListingID        *int64  `json:"listing_id"`
	TransactionType  string  `json:"transaction_type"`
	ProductID        *int64  `json:"product_id"`
	SKU              *string `json:"sku"`
	Price            Money   `json:"price"`
	ShippingCost     Money   `json:"shipping_cost"`
}

// Shipment is a ShopReceiptShipment.
type Shipment struct {
	ReceiptShippingID             *int64 `json:"receipt_shipping_id"`
	ShipmentNotificationTimestamp int64  `json:"shipment_notification_timestamp"`
	CarrierName                   string `json:"carrier_name"`
	TrackingCode                  string `json:"tracking_code"`
}

// Refund is a ShopRefund.
type Refund struct {
	Amount           Money   `json:"amount"`
	CreatedTimestamp int64   `json:"created_timestamp"`
	Reason           *string `json:"reason"`
	Status           *string `json:"status"`
}

// Receipts is ShopReceipts.
type Receipts struct {
	Count   int       `json:"count"`
	Results []Receipt `json:"results"`
}

// Inventory is a ListingInventory.
type Inventory struct {
	Products           []Product `json:"products"`
	PriceOnProperty    []int64   `json:"price_on_property"`
	QuantityOnProperty []int64   `json:"quantity_on_property"`
	SKUOnProperty      []int64   `json:"sku_on_property"`
}

// Product is a ListingInventoryProduct.
type Product struct {
	ProductID      int64           `json:"product_id"`
	SKU            string          `json:"sku"`
	IsDeleted      bool            `json:"is_deleted"`
	Offerings      []Offering      `json:"offerings"`
	PropertyValues []PropertyValue `json:"property_values"`
}

// Offering is a ListingInventoryProductOffering.
type Offering struct {
	OfferingID int64 `json:"offering_id"`
	Quantity   int64 `json:"quantity"`
	IsEnabled  bool  `json:"is_enabled"`
	IsDeleted  bool  `json:"is_deleted"`
	Price      Money `json:"price"`
}

// PropertyValue is a ListingPropertyValue.
type PropertyValue struct {
	PropertyID   int64    `json:"property_id"`
	PropertyName *string  `json:"property_name"`
	ScaleID      *int64   `json:"scale_id"`
	ScaleName    *string  `json:"scale_name"`
	ValueIDs     []int64  `json:"value_ids"`
	Values       []string `json:"values"`
}

// UpdateInventory is updateListingInventory's request body. Prices are JSON numbers, kept
// as their text (never a float) and read exactly.
type UpdateInventory struct {
	Products           []UpdateProduct `json:"products"`
	PriceOnProperty    []int64         `json:"price_on_property"`
	QuantityOnProperty []int64         `json:"quantity_on_property"`
	SKUOnProperty      []int64         `json:"sku_on_property"`
}

// UpdateProduct is a product of UpdateInventory.
type UpdateProduct struct {
	SKU            *string               `json:"sku"`
	PropertyValues []UpdatePropertyValue `json:"property_values"`
	Offerings      []UpdateOffering      `json:"offerings"`
}

// UpdatePropertyValue is a property value of UpdateProduct.
type UpdatePropertyValue struct {
	PropertyID   int64    `json:"property_id"`
	ValueIDs     []int64  `json:"value_ids"`
	ScaleID      *int64   `json:"scale_id"`
	PropertyName string   `json:"property_name"`
	Values       []string `json:"values"`
}

// UpdateOffering is an offering of UpdateProduct.
type UpdateOffering struct {
	Price     *json.Number `json:"price"`
	Quantity  *int64       `json:"quantity"`
	IsEnabled *bool        `json:"is_enabled"`
}

// Listing is a ShopListingWithAssociations, as getListingsByShop answers it.
type Listing struct {
	ListingID     int64      `json:"listing_id"`
	UserID        int64      `json:"user_id"`
	ShopID        int64      `json:"shop_id"`
	Title         string     `json:"title"`
	State         string     `json:"state"`
	Quantity      int64      `json:"quantity"`
	HasVariations bool       `json:"has_variations"`
	Inventory     *Inventory `json:"inventory,omitempty"`
}

// Listings is ShopListingsWithAssociations.
type Listings struct {
	Count   int       `json:"count"`
	Results []Listing `json:"results"`
}

// ShopAnswer is the part of a Shop the sandbox answers.
type ShopAnswer struct {
	ShopID       int64  `json:"shop_id"`
	UserID       int64  `json:"user_id"`
	ShopName     string `json:"shop_name"`
	CurrencyCode string `json:"currency_code"`
}

// TokenAnswer is the OAuth token endpoint's answer.
type TokenAnswer struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
}

// Payments is getShopPaymentByReceiptId's answer.
type Payments struct {
	Count   int       `json:"count"`
	Results []Payment `json:"results"`
}

// Payment is a receipt's payment through Etsy Payments, with its refunds.
type Payment struct {
	PaymentID          int64               `json:"payment_id"`
	BuyerUserID        int64               `json:"buyer_user_id"`
	ShopID             int64               `json:"shop_id"`
	ReceiptID          int64               `json:"receipt_id"`
	AmountGross        Money               `json:"amount_gross"`
	Currency           string              `json:"currency"`
	Status             string              `json:"status"`
	CreatedTimestamp   int64               `json:"created_timestamp"`
	UpdatedTimestamp   int64               `json:"updated_timestamp"`
	PaymentAdjustments []PaymentAdjustment `json:"payment_adjustments"`
}

// PaymentAdjustment is a refund of a payment.
type PaymentAdjustment struct {
	PaymentAdjustmentID    int64                   `json:"payment_adjustment_id"`
	PaymentID              int64                   `json:"payment_id"`
	Status                 string                  `json:"status"`
	IsSuccess              bool                    `json:"is_success"`
	ReasonCode             string                  `json:"reason_code"`
	TotalAdjustmentAmount  int64                   `json:"total_adjustment_amount"`
	CreatedTimestamp       int64                   `json:"created_timestamp"`
	PaymentAdjustmentItems []PaymentAdjustmentItem `json:"payment_adjustment_items"`
}

// PaymentAdjustmentItem is what a refund pays back of one transaction (minor units).
type PaymentAdjustmentItem struct {
	PaymentAdjustmentID     int64  `json:"payment_adjustment_id"`
	PaymentAdjustmentItemID int64  `json:"payment_adjustment_item_id"`
	AdjustmentType          string `json:"adjustment_type"`
	Amount                  int64  `json:"amount"`
	ShopAmount              int64  `json:"shop_amount"`
	TransactionID           int64  `json:"transaction_id"`
}
