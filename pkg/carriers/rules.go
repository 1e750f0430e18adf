package carriers

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/multisell/multisell/pkg/errs"
)

// Rules are how one channel type takes a shipment's tracking
// (docs/shipments.md, "Channel carrier rules").
type Rules struct {
	// Type is the channel type the rules are for ("" for any other).
	Type string
	// Carriers are the preferred carrier names the channel accepts; nil:
	// every preferred name.
	Carriers []string
	// OtherForUnlisted: a carrier the channel does not list is sent as
	// Other (the name given stays in carrier_name_given); else the given
	// name is sent as it is.
	OtherForUnlisted bool
	// URLWithOther: a shipment whose carrier is sent as Other needs a
	// tracking_url.
	URLWithOther bool
	// MethodRequired: the shipment needs a shipping_method from the
	// carrier's list (Methods), and the method is sent.
	MethodRequired bool
	// Codes, when set, are the channel's own codes of the carriers it lists
	// (and of Other): what Code sends.
	Codes map[string]string
}

// ebayCodes are eBay's shipping carrier codes (ShippingCarrierCodeType,
// https://developer.ebay.com/DevZone/xml/docs/reference/eBay/types/ShippingCarrierCodeType.html,
// the values GeteBayDetails' ShippingCarrierDetails answers) of the preferred
// carriers eBay lists; Other is eBay's code "for any carrier not listed".
// Canada Post, Purolator and Amazon Logistics have no code there: they go
// as Other.
var ebayCodes = map[string]string{
	"USPS": "USPS", "UPS": "UPS", "FedEx": "FedEx", "DHL": "DHL", "DHL eCommerce": "DHLGlobalMail",
	"OnTrac": "ONTRACK", "Royal Mail": "RoyalMail", "Parcelforce": "Parcelforce", "Evri": "Hermes",
	"DPD": "DPD", "GLS": "GLS", "Yodel": "Yodel", "Deutsche Post": "DeutschePost", "La Poste": "LAPOSTE",
	"PostNL": "PostNL", "Australia Post": "AustraliaPost", "Japan Post": "JapanPost", "China Post": "ChinaPost",
	"TNT": "TNT", "Aramex": "ARAMEX", Other: "Other",
}

// walmartCodes are Walmart's carrier names (CarrierNameType.carrier of the
// Orders API's shippingUpdates, the US Marketplace's list,
// https://developer.walmart.com/us-marketplace/reference/shippingupdates)
// of the preferred carriers Walmart lists; every other carrier goes as
// otherCarrier, its name given, with a tracking URL. Other has no code of
// Walmart's ("Don't use the attribute Other", Walmart's shipping guide).
var walmartCodes = map[string]string{
	"USPS": "USPS", "UPS": "UPS", "FedEx": "FedEx", "DHL": "DHL", "DHL eCommerce": "DHL Ecommerce - US",
	"OnTrac": "OnTrac", "Canada Post": "Canada Post", "Royal Mail": "Royal Mail", "GLS": "GLS",
	"Deutsche Post": "Deutsche Post", "Japan Post": "Japan Post", "China Post": "China Post",
}

// etsyNames are Etsy's carrier_name values of createReceiptShipment (its supported
// carriers, https://developers.etsy.com/documentation/tutorials/fulfillment#tracking-updates-for-shipping-carriers)
// of the preferred carriers Etsy takes; other is Etsy's name for a carrier it does not
// support ("you may use other as the carrier name", createReceiptShipment's description in
// Etsy's OpenAPI document). Amazon Logistics and TNT go as other.
var etsyNames = map[string]string{
	"USPS": "usps", "UPS": "ups", "FedEx": "fedex", "DHL": "dhl", "DHL eCommerce": "dhl-global-mail",
	"OnTrac": "ontrac", "Canada Post": "canada-post", "Purolator": "purolator", "Royal Mail": "royal-mail",
	"Parcelforce": "parcel-force", "Evri": "hermes", "DPD": "dpd", "GLS": "gls", "Yodel": "yodel",
	"Deutsche Post": "deutsch-post", "La Poste": "la-poste-colissimo", "PostNL": "postnl",
	"Australia Post": "australia-post", "Japan Post": "japan-post", "China Post": "china-post", "Aramex": "aramex",
	Other: "other",
}

// usCarriers are what the US-only marketplaces accept.
var usCarriers = []string{"USPS", "UPS", "FedEx", "DHL", "DHL eCommerce", "OnTrac"}

// channelRules are the rules per channel type, by lowercased type name.
var channelRules = map[string]Rules{
	"amazon": {Type: "Amazon", OtherForUnlisted: true},
	"ebay": {Type: "eBay", Carriers: slices.DeleteFunc(slices.Sorted(maps.Keys(ebayCodes)), func(c string) bool { return c == Other }),
		OtherForUnlisted: true, Codes: ebayCodes},
	"walmart": {Type: "Walmart", Carriers: slices.Sorted(maps.Keys(walmartCodes)), OtherForUnlisted: true, URLWithOther: true,
		MethodRequired: true, Codes: walmartCodes},
	"etsy": {Type: "Etsy", Carriers: slices.DeleteFunc(slices.Sorted(maps.Keys(etsyNames)), func(c string) bool { return c == Other }),
		OtherForUnlisted: true, Codes: etsyNames},
	"shopify": {Type: "Shopify", OtherForUnlisted: true, URLWithOther: true},
	"newegg":  {Type: "Newegg", Carriers: usCarriers, OtherForUnlisted: true},
	"target":  {Type: "Target", Carriers: append(slices.Clone(usCarriers), "Amazon Logistics"), OtherForUnlisted: true, URLWithOther: true},
	"google":  {Type: "Google", OtherForUnlisted: true},
	"faire": {Type: "Faire", Carriers: []string{"USPS", "UPS", "FedEx", "DHL", "Canada Post", "Purolator", "Royal Mail",
		"DPD", "Australia Post"}, OtherForUnlisted: true, URLWithOther: true},
}

// RulesFor returns the rules of a channel type (its
// channel_type_display_name, matched ignoring case); a type without rules
// of its own takes every carrier and sends an unlisted one as given.
func RulesFor(channelType string) Rules {
	if r, ok := channelRules[strings.ToLower(strings.TrimSpace(channelType))]; ok {
		return r
	}
	return Rules{}
}

// AllRules returns the rules of every channel type, by type name,
// then those of any other type.
func AllRules() []Rules {
	out := make([]Rules, 0, len(channelRules)+1)
	for _, r := range channelRules {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i].Type) < strings.ToLower(out[j].Type) })
	return append(out, Rules{})
}

// accepts reports whether the channel lists the preferred carrier name.
func (r Rules) accepts(name string) bool {
	return name != Other && (r.Carriers == nil || slices.Contains(r.Carriers, name))
}

// Carrier is the carrier name the channel is sent for a carrier given as
// given: its preferred name when the channel lists it, else Other or the
// given name itself (OtherForUnlisted).
func (r Rules) Carrier(given string) string {
	name, known := Normalize(given)
	switch {
	case known && r.accepts(name):
		return name
	case r.OtherForUnlisted || name == Other && known:
		return Other
	}
	return strings.TrimSpace(given)
}

// Code is the channel's code of the carrier given as given: its code in
// Codes of the name Carrier sends, or that name when the rules have no codes.
func (r Rules) Code(given string) string {
	name := r.Carrier(given)
	if c, ok := r.Codes[name]; ok {
		return c
	}
	return name
}

// Check validates a shipment's tracking against the channel's rules and
// returns the shipping method to store (the carrier's own spelling when the
// channel requires one): a missing or unlisted method where one is
// required, or a carrier sent as Other without a tracking_url where the
// channel needs one, is 422 naming the field.
func (r Rules) Check(carrierGiven string, trackingURL, method *string) (*string, error) {
	carrier := r.Carrier(carrierGiven)
	if carrier == Other && r.URLWithOther && (trackingURL == nil || *trackingURL == "") {
		return nil, errs.Invalid("shipment.tracking_url is required for a carrier that %s takes as Other", r.name())
	}
	if !r.MethodRequired {
		return method, nil
	}
	methods := Methods[carrier]
	if carrier == Other || len(methods) == 0 {
		if method == nil || *method == "" {
			return nil, errs.Invalid("shipment.shipping_method is required on %s", r.name())
		}
		return method, nil
	}
	if method != nil {
		if m, ok := MatchMethod(carrier, *method); ok {
			return &m, nil
		}
	}
	return nil, errs.Invalid("shipment.shipping_method must be one of %s for %s on %s",
		strings.Join(methods, ", "), carrier, r.name())
}

// name is how an error message names the channel type.
func (r Rules) name() string {
	if r.Type == "" {
		return "this channel"
	}
	return r.Type
}
