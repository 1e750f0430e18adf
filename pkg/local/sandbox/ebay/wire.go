package ebay

// The sandbox's own wire types: the parts of eBay's Sell Fulfillment and Sell Inventory
// OpenAPI documents (sell_fulfillment_v1_oas3, sell_inventory_v1_oas3) it reads and writes,
// each named as the documents' schema it stands for. They are not the connector's: a
// request the connector sends with a wrong JSON name decodes here without the field, and the
// sandbox refuses it as eBay would. TestWireMatchesModels checks every JSON name against the
// documents.

// TimeFormat is eBay's timestamp format (ISO 8601, milliseconds, UTC).
const TimeFormat = "2006-01-02T15:04:05.000Z"

// MaxBulkRequests is the most requests one bulkUpdatePriceQuantity call takes (the
// BulkPriceQuantity.requests description: up to 25).
const MaxBulkRequests = 25

// Amount is a money amount (Amount).
type Amount struct {
	Value    string `json:"value,omitempty"`
	Currency string `json:"currency,omitempty"`
}

// OrderSearchPagedCollection is getOrders' answer.
type OrderSearchPagedCollection struct {
	Href   string  `json:"href,omitempty"`
	Limit  int     `json:"limit"`
	Offset int     `json:"offset"`
	Total  int     `json:"total"`
	Next   string  `json:"next,omitempty"`
	Orders []Order `json:"orders"`
}

// Order is an eBay order (Order).
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
	EbayCollectAndRemitTax       bool                          `json:"ebayCollectAndRemitTax,omitempty"`
}

// CancelStatus is an order's cancellation state (CancelStatus).
type CancelStatus struct {
	CancelState   string `json:"cancelState,omitempty"`
	CancelledDate string `json:"cancelledDate,omitempty"`
}

// PricingSummary is an order's money (PricingSummary).
type PricingSummary struct {
	PriceSubtotal *Amount `json:"priceSubtotal,omitempty"`
	PriceDiscount *Amount `json:"priceDiscount,omitempty"`
	DeliveryCost  *Amount `json:"deliveryCost,omitempty"`
	Tax           *Amount `json:"tax,omitempty"`
	Total         *Amount `json:"total,omitempty"`
}

// PaymentSummary holds an order's payments (PaymentSummary).
type PaymentSummary struct {
	Payments []Payment `json:"payments,omitempty"`
}

// Payment is one payment of an order (Payment).
type Payment struct {
	PaymentDate   string `json:"paymentDate,omitempty"`
	PaymentStatus string `json:"paymentStatus,omitempty"`
}

// FulfillmentStartInstruction says where and how an order ships (FulfillmentStartInstruction).
type FulfillmentStartInstruction struct {
	MaxEstimatedDeliveryDate string        `json:"maxEstimatedDeliveryDate,omitempty"`
	ShippingStep             *ShippingStep `json:"shippingStep,omitempty"`
}

// ShippingStep is the ship-to and the service the buyer chose (ShippingStep).
type ShippingStep struct {
	ShippingCarrierCode string           `json:"shippingCarrierCode,omitempty"`
	ShippingServiceCode string           `json:"shippingServiceCode,omitempty"`
	ShipTo              *ExtendedContact `json:"shipTo,omitempty"`
}

// ExtendedContact is a contact and its address (ExtendedContact).
type ExtendedContact struct {
	FullName       string       `json:"fullName,omitempty"`
	CompanyName    string       `json:"companyName,omitempty"`
	Email          string       `json:"email,omitempty"`
	PrimaryPhone   *PhoneNumber `json:"primaryPhone,omitempty"`
	ContactAddress *Address     `json:"contactAddress,omitempty"`
}

// PhoneNumber is a phone number (PhoneNumber).
type PhoneNumber struct {
	PhoneNumber string `json:"phoneNumber,omitempty"`
}

// Address is a postal address (Address).
type Address struct {
	AddressLine1    string `json:"addressLine1,omitempty"`
	AddressLine2    string `json:"addressLine2,omitempty"`
	City            string `json:"city,omitempty"`
	StateOrProvince string `json:"stateOrProvince,omitempty"`
	PostalCode      string `json:"postalCode,omitempty"`
	CountryCode     string `json:"countryCode,omitempty"`
}

// LineItem is an order line (LineItem).
type LineItem struct {
	LineItemID                string                   `json:"lineItemId"`
	LegacyItemID              string                   `json:"legacyItemId,omitempty"`
	SKU                       string                   `json:"sku,omitempty"`
	Title                     string                   `json:"title,omitempty"`
	Quantity                  int64                    `json:"quantity"`
	LineItemCost              *Amount                  `json:"lineItemCost,omitempty"`
	Total                     *Amount                  `json:"total,omitempty"`
	LineItemFulfillmentStatus string                   `json:"lineItemFulfillmentStatus,omitempty"`
	Taxes                     []Tax                    `json:"taxes"`
	EbayCollectAndRemitTaxes  []EbayCollectAndRemitTax `json:"ebayCollectAndRemitTaxes,omitempty"`
	Refunds                   []LineItemRefund         `json:"refunds"`
}

// Tax is a tax of a line (Tax).
type Tax struct {
	Amount  *Amount `json:"amount,omitempty"`
	TaxType string  `json:"taxType,omitempty"`
}

// EbayCollectAndRemitTax is a tax eBay collects and remits itself (EbayCollectAndRemitTax).
type EbayCollectAndRemitTax struct {
	Amount           *Amount `json:"amount,omitempty"`
	TaxType          string  `json:"taxType,omitempty"`
	CollectionMethod string  `json:"collectionMethod,omitempty"`
}

// LineItemRefund is a refund of a line (LineItemRefund).
type LineItemRefund struct {
	Amount     *Amount `json:"amount,omitempty"`
	RefundDate string  `json:"refundDate,omitempty"`
}

// ShippingFulfillmentDetails is createShippingFulfillment's request.
type ShippingFulfillmentDetails struct {
	LineItems           []LineItemReference `json:"lineItems"`
	ShippedDate         string              `json:"shippedDate,omitempty"`
	ShippingCarrierCode string              `json:"shippingCarrierCode"`
	TrackingNumber      string              `json:"trackingNumber"`
}

// ShippingFulfillmentPagedCollection is getShippingFulfillments' answer.
type ShippingFulfillmentPagedCollection struct {
	Fulfillments []ShippingFulfillment `json:"fulfillments"`
	Total        int                   `json:"total"`
}

// ShippingFulfillment is a shipping fulfillment of an order as getShippingFulfillments
// answers it (its tracking number is shipmentTrackingNumber there).
type ShippingFulfillment struct {
	FulfillmentID          string              `json:"fulfillmentId"`
	LineItems              []LineItemReference `json:"lineItems"`
	ShipmentTrackingNumber string              `json:"shipmentTrackingNumber,omitempty"`
	ShippedDate            string              `json:"shippedDate,omitempty"`
	ShippingCarrierCode    string              `json:"shippingCarrierCode,omitempty"`
}

// LineItemReference is a line and the quantity a fulfillment ships of it (LineItemReference).
type LineItemReference struct {
	LineItemID string `json:"lineItemId"`
	Quantity   int64  `json:"quantity"`
}

// BulkPriceQuantity is bulkUpdatePriceQuantity's request.
type BulkPriceQuantity struct {
	Requests []PriceQuantity `json:"requests"`
}

// PriceQuantity sets one SKU's quantity and its offers' (PriceQuantity).
type PriceQuantity struct {
	SKU                        string                      `json:"sku"`
	ShipToLocationAvailability *ShipToLocationAvailability `json:"shipToLocationAvailability,omitempty"`
	Offers                     []OfferPriceQuantity        `json:"offers,omitempty"`
}

// OfferPriceQuantity sets the quantity one offer makes available on its marketplace
// (OfferPriceQuantity).
type OfferPriceQuantity struct {
	OfferID           string `json:"offerId"`
	AvailableQuantity *int64 `json:"availableQuantity,omitempty"`
}

// Offers is getOffers' answer: the offers of a SKU (Offers).
type Offers struct {
	Href   string                    `json:"href,omitempty"`
	Limit  int                       `json:"limit"`
	Size   int                       `json:"size"`
	Total  int                       `json:"total"`
	Offers []EbayOfferDetailsWithAll `json:"offers"`
}

// EbayOfferDetailsWithAll is an offer as getOffers answers it (EbayOfferDetailsWithAll).
type EbayOfferDetailsWithAll struct {
	OfferID           string          `json:"offerId"`
	SKU               string          `json:"sku"`
	MarketplaceID     string          `json:"marketplaceId"`
	Format            string          `json:"format"`
	Status            string          `json:"status"`
	AvailableQuantity int64           `json:"availableQuantity"`
	Listing           *ListingDetails `json:"listing,omitempty"`
}

// ListingDetails is the eBay listing of a published offer (ListingDetails).
type ListingDetails struct {
	ListingID     string `json:"listingId"`
	ListingStatus string `json:"listingStatus"`
}

// ShipToLocationAvailability is an inventory item's quantity available to buyers.
type ShipToLocationAvailability struct {
	Quantity *int64 `json:"quantity,omitempty"`
}

// BulkPriceQuantityResponse is bulkUpdatePriceQuantity's answer: one response per SKU.
type BulkPriceQuantityResponse struct {
	Responses []PriceQuantityResponse `json:"responses"`
}

// PriceQuantityResponse is how one SKU went (PriceQuantityResponse).
type PriceQuantityResponse struct {
	SKU        string  `json:"sku"`
	OfferID    string  `json:"offerId,omitempty"`
	StatusCode int     `json:"statusCode"`
	Errors     []Error `json:"errors,omitempty"`
}

// ErrorBody is eBay's error answer: {"errors":[Error]}.
type ErrorBody struct {
	Errors []Error `json:"errors"`
}

// Error is one eBay error (Error).
type Error struct {
	ErrorID     int    `json:"errorId"`
	Domain      string `json:"domain,omitempty"`
	Category    string `json:"category,omitempty"`
	Message     string `json:"message"`
	LongMessage string `json:"longMessage,omitempty"`
}

// TokenAnswer is the token endpoint's answer (eBay's OAuth guide; no document holds it):
// an authorization code's carries the user's refresh token and its life too.
type TokenAnswer struct {
	AccessToken           string `json:"access_token"`
	ExpiresIn             int64  `json:"expires_in"`
	TokenType             string `json:"token_type"`
	RefreshToken          string `json:"refresh_token,omitempty"`
	RefreshTokenExpiresIn int64  `json:"refresh_token_expires_in,omitempty"`
}

// BulkMigrateListing is bulkMigrateListing's request (BulkMigrateListing).
type BulkMigrateListing struct {
	Requests []MigrateListing `json:"requests"`
}

// MigrateListing names a listing to migrate (MigrateListing).
type MigrateListing struct {
	ListingID string `json:"listingId"`
}

// BulkMigrateListingResponse is bulkMigrateListing's answer (BulkMigrateListingResponse).
type BulkMigrateListingResponse struct {
	Responses []MigrateListingResponse `json:"responses"`
}

// MigrateListingResponse is one listing's migration (MigrateListingResponse).
type MigrateListingResponse struct {
	ListingID      string                 `json:"listingId"`
	MarketplaceID  string                 `json:"marketplaceId,omitempty"`
	StatusCode     int                    `json:"statusCode"`
	Errors         []Error                `json:"errors,omitempty"`
	InventoryItems []InventoryItemListing `json:"inventoryItems,omitempty"`
}

// InventoryItemListing is a SKU and the offer a migration made of it (InventoryItemListing).
type InventoryItemListing struct {
	SKU     string `json:"sku"`
	OfferID string `json:"offerId"`
}
