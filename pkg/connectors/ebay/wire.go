package ebay

// The parts of eBay's wire format the connector reads and writes, as the Sell Fulfillment
// and Sell Inventory OpenAPI documents name them. The sandbox speaks the same types.

// Amount is a money amount: a decimal string and a currency code.
type Amount struct {
	Value    string `json:"value,omitempty"`
	Currency string `json:"currency,omitempty"`
}

// OrderPage is getOrders' answer (OrderSearchPagedCollection).
type OrderPage struct {
	Href   string  `json:"href,omitempty"`
	Limit  int     `json:"limit"`
	Offset int     `json:"offset"`
	Total  int     `json:"total"`
	Next   string  `json:"next,omitempty"`
	Orders []Order `json:"orders"`
}

// Order is an eBay order.
type Order struct {
	OrderID                      string                        `json:"orderId"`
	CreationDate                 string                        `json:"creationDate"`
	LastModifiedDate             string                        `json:"lastModifiedDate"`
	OrderFulfillmentStatus       string                        `json:"orderFulfillmentStatus,omitempty"`
	OrderPaymentStatus           string                        `json:"orderPaymentStatus,omitempty"`
	CancelStatus                 *CancelStatus                 `json:"cancelStatus,omitempty"`
	PricingSummary               *PricingSummary               `json:"pricingSummary,omitempty"`
	PaymentSummary               *PaymentSummary               `json:"paymentSummary,omitempty"`
	FulfillmentStartInstructions []FulfillmentStartInstruction `json:"fulfillmentStartInstructions,omitempty"`
	LineItems                    []LineItem                    `json:"lineItems"`
	BuyerCheckoutNotes           string                        `json:"buyerCheckoutNotes,omitempty"`
	FulfillmentHrefs             []string                      `json:"fulfillmentHrefs,omitempty"`
}

// CancelStatus is an order's cancellation state.
type CancelStatus struct {
	CancelState   string `json:"cancelState,omitempty"`
	CancelledDate string `json:"cancelledDate,omitempty"`
}

// PricingSummary is an order's money.
type PricingSummary struct {
	PriceSubtotal    *Amount `json:"priceSubtotal,omitempty"`
	Adjustment       *Amount `json:"adjustment,omitempty"`
	PriceDiscount    *Amount `json:"priceDiscount,omitempty"`
	DeliveryCost     *Amount `json:"deliveryCost,omitempty"`
	DeliveryDiscount *Amount `json:"deliveryDiscount,omitempty"`
	Fee              *Amount `json:"fee,omitempty"`
	Tax              *Amount `json:"tax,omitempty"`
	Total            *Amount `json:"total,omitempty"`
}

// PaymentSummary holds an order's payments.
type PaymentSummary struct {
	Payments []Payment `json:"payments,omitempty"`
}

// Payment is one payment of an order.
type Payment struct {
	PaymentDate   string `json:"paymentDate,omitempty"`
	PaymentStatus string `json:"paymentStatus,omitempty"`
}

// FulfillmentStartInstruction says where and how an order ships.
type FulfillmentStartInstruction struct {
	MaxEstimatedDeliveryDate string        `json:"maxEstimatedDeliveryDate,omitempty"`
	ShippingStep             *ShippingStep `json:"shippingStep,omitempty"`
}

// ShippingStep is the ship-to and the service the buyer chose.
type ShippingStep struct {
	ShippingCarrierCode string           `json:"shippingCarrierCode,omitempty"`
	ShippingServiceCode string           `json:"shippingServiceCode,omitempty"`
	ShipTo              *ExtendedContact `json:"shipTo,omitempty"`
}

// ExtendedContact is a contact and address.
type ExtendedContact struct {
	FullName       string   `json:"fullName,omitempty"`
	CompanyName    string   `json:"companyName,omitempty"`
	Email          string   `json:"email,omitempty"`
	PrimaryPhone   *Phone   `json:"primaryPhone,omitempty"`
	ContactAddress *Address `json:"contactAddress,omitempty"`
}

// Phone is a phone number.
type Phone struct {
	PhoneNumber string `json:"phoneNumber,omitempty"`
}

// Address is a postal address.
type Address struct {
	AddressLine1    string `json:"addressLine1,omitempty"`
	AddressLine2    string `json:"addressLine2,omitempty"`
	City            string `json:"city,omitempty"`
	StateOrProvince string `json:"stateOrProvince,omitempty"`
	PostalCode      string `json:"postalCode,omitempty"`
	CountryCode     string `json:"countryCode,omitempty"`
}

// LineItem is an order line.
type LineItem struct {
	LineItemID                string  `json:"lineItemId"`
	LegacyItemID              string  `json:"legacyItemId,omitempty"`
	SKU                       string  `json:"sku,omitempty"`
	Title                     string  `json:"title,omitempty"`
	Quantity                  int64   `json:"quantity"`
	LineItemCost              *Amount `json:"lineItemCost,omitempty"`
	Total                     *Amount `json:"total,omitempty"`
	LineItemFulfillmentStatus string  `json:"lineItemFulfillmentStatus,omitempty"`
	// Taxes are the line's taxes (with fieldGroups=TAX_BREAKDOWN, the ones eBay collects and
	// remits among them); Refunds the line's refunds.
	Taxes                    []Tax                    `json:"taxes,omitempty"`
	EbayCollectAndRemitTaxes []EbayCollectAndRemitTax `json:"ebayCollectAndRemitTaxes,omitempty"`
	Refunds                  []LineItemRefund         `json:"refunds,omitempty"`
}

// Tax is a tax of a line.
type Tax struct {
	Amount  *Amount `json:"amount,omitempty"`
	TaxType string  `json:"taxType,omitempty"`
}

// EbayCollectAndRemitTax is a tax eBay collects from the buyer and remits itself.
type EbayCollectAndRemitTax struct {
	Amount  *Amount `json:"amount,omitempty"`
	TaxType string  `json:"taxType,omitempty"`
}

// LineItemRefund is a refund of a line.
type LineItemRefund struct {
	Amount     *Amount `json:"amount,omitempty"`
	RefundDate string  `json:"refundDate,omitempty"`
}

// BulkPriceQuantity is bulkUpdatePriceQuantity's request.
type BulkPriceQuantity struct {
	Requests []PriceQuantity `json:"requests"`
}

// PriceQuantity sets one SKU's available quantity and its offer's.
type PriceQuantity struct {
	SKU                        string                      `json:"sku"`
	ShipToLocationAvailability *ShipToLocationAvailability `json:"shipToLocationAvailability,omitempty"`
	Offers                     []OfferPriceQuantity        `json:"offers,omitempty"`
}

// OfferPriceQuantity sets the quantity an offer makes available on its marketplace.
type OfferPriceQuantity struct {
	OfferID           string `json:"offerId"`
	AvailableQuantity int64  `json:"availableQuantity"`
}

// Offers is getOffers' answer: a SKU's offers.
type Offers struct {
	Total  int     `json:"total"`
	Offers []Offer `json:"offers"`
}

// Offer is one offer of a SKU (EbayOfferDetailsWithAll).
type Offer struct {
	OfferID       string `json:"offerId"`
	MarketplaceID string `json:"marketplaceId"`
	Format        string `json:"format"`
	Status        string `json:"status"`
}

// ShipToLocationAvailability is an inventory item's quantity available to buyers.
type ShipToLocationAvailability struct {
	Quantity int64 `json:"quantity"`
}

// BulkPriceQuantityResponse is bulkUpdatePriceQuantity's answer: one response per SKU (and
// offer).
type BulkPriceQuantityResponse struct {
	Responses []PriceQuantityResponse `json:"responses"`
}

// PriceQuantityResponse is how one SKU went.
type PriceQuantityResponse struct {
	SKU        string  `json:"sku"`
	OfferID    string  `json:"offerId,omitempty"`
	StatusCode int     `json:"statusCode"`
	Errors     []Error `json:"errors,omitempty"`
}

// BulkMigrateListing is bulkMigrateListing's request.
type BulkMigrateListing struct {
	Requests []MigrateListing `json:"requests"`
}

// MigrateListing names one listing to migrate by its ItemID.
type MigrateListing struct {
	ListingID string `json:"listingId"`
}

// BulkMigrateListingResponse is bulkMigrateListing's answer: one response per listing.
type BulkMigrateListingResponse struct {
	Responses []MigrateListingResponse `json:"responses"`
}

// MigrateListingResponse is how one listing's migration went.
type MigrateListingResponse struct {
	ListingID      string                 `json:"listingId"`
	StatusCode     int                    `json:"statusCode"`
	Errors         []Error                `json:"errors,omitempty"`
	InventoryItems []InventoryItemListing `json:"inventoryItems,omitempty"`
}

// InventoryItemListing is a SKU and offer a migration made.
type InventoryItemListing struct {
	SKU     string `json:"sku"`
	OfferID string `json:"offerId"`
}

// ShippingFulfillmentDetails is createShippingFulfillment's request.
type ShippingFulfillmentDetails struct {
	LineItems           []LineItemReference `json:"lineItems"`
	ShippedDate         string              `json:"shippedDate,omitempty"`
	ShippingCarrierCode string              `json:"shippingCarrierCode"`
	TrackingNumber      string              `json:"trackingNumber"`
}

// ShippingFulfillmentPagedCollection is getShippingFulfillments' answer: an order's
// shipping fulfillments.
type ShippingFulfillmentPagedCollection struct {
	Fulfillments []ShippingFulfillment `json:"fulfillments"`
	Total        int                   `json:"total"`
}

// ShippingFulfillment is a shipping fulfillment of an order as getShippingFulfillments
// answers it (its tracking number is shipmentTrackingNumber there).
type ShippingFulfillment struct {
	FulfillmentID          string              `json:"fulfillmentId"`
	LineItems              []LineItemReference `json:"lineItems"`
	ShipmentTrackingNumber string              `json:"shipmentTrackingNumber"`
	ShippingCarrierCode    string              `json:"shippingCarrierCode"`
}

// LineItemReference is a line and the quantity a fulfillment ships of it.
type LineItemReference struct {
	LineItemID string `json:"lineItemId"`
	Quantity   int64  `json:"quantity"`
}

// ErrorBody is eBay's error answer.
type ErrorBody struct {
	Errors []Error `json:"errors"`
}

// Error is one eBay error.
type Error struct {
	ErrorID     int    `json:"errorId"`
	Domain      string `json:"domain,omitempty"`
	Category    string `json:"category,omitempty"`
	Message     string `json:"message"`
	LongMessage string `json:"longMessage,omitempty"`
}

// TokenAnswer is the token endpoint's answer.
type TokenAnswer struct {
	AccessToken string `json:"access_token"`
	ExpiresIn   int64  `json:"expires_in"`
	TokenType   string `json:"token_type"`
}
