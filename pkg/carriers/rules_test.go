package carriers

import (
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/errs"
)

// TestChannelCarrier: the carrier name each channel type is sent, for
// aliases, case and punctuation, preferred names the channel does not list,
// and unknown names.
func TestChannelCarrier(t *testing.T) {
	t.Parallel()
	tests := []struct {
		channel, given, want string
	}{
		{"Amazon", "usps", "USPS"},
		{"amazon", "U.S.P.S.", "USPS"},
		{"AMAZON", "Federal Express", "FedEx"},
		{"Amazon", "Royal Mail", "Royal Mail"},
		{"Amazon", "Bob's Couriers", "Other"},
		{"eBay", "Bob's Couriers", "Other"},
		{"eBay", "Canada Post", "Other"},
		{"ebay", " fed-ex ", "FedEx"},
		{"eBay", "other", "Other"},
		{"Walmart", "ups", "UPS"},
		{"Walmart", "Royal Mail", "Royal Mail"},
		{"Walmart", "Evri", "Other"},
		{"Walmart", "Bob's Couriers", "Other"},
		{"Etsy", "auspost", "Australia Post"},
		{"Etsy", "TNT", "Other"},
		{"Shopify", "hermes", "Evri"},
		{"Shopify", "Bob's Couriers", "Other"},
		{"Newegg", "DHL Express", "DHL"},
		{"Newegg", "Canada Post", "Other"},
		{"Target", "AMZL", "Amazon Logistics"},
		{"Target", "Yodel", "Other"},
		{"Google", "colissimo", "La Poste"},
		{"Google", "Bob's Couriers", "Other"},
		{"Faire", "purolator", "Purolator"},
		{"Faire", "OnTrac", "Other"},
		{"Bol.com", "dpd", "DPD"},
		{"Bol.com", "Bob's Couriers", "Bob's Couriers"},
		{"", "航空便", "航空便"},
	}
	for _, tt := range tests {
		if got := RulesFor(tt.channel).Carrier(tt.given); got != tt.want {
			t.Errorf("%s: Carrier(%q) = %q, want %q", tt.channel, tt.given, got, tt.want)
		}
	}
}

// TestChannelCheck: Walmart's shipping methods and the tracking_url some
// channels need with Other.
func TestChannelCheck(t *testing.T) {
	t.Parallel()
	s := func(v string) *string { return &v }
	tests := []struct {
		name, channel, carrier string
		url, method            *string
		wantMethod             *string
		err                    string // a part of the 422, "" for none
	}{
		{"walmart method", "Walmart", "USPS", nil, s("priority mail"), s("Priority Mail"), ""},
		{"walmart method punctuation", "Walmart", "UPS", nil, s("2nd day air"), s("2nd Day Air"), ""},
		{"walmart no method", "Walmart", "USPS", nil, nil, nil, "shipping_method must be one of Priority Mail, "},
		{"walmart other carrier's method", "Walmart", "FedEx", nil, s("Priority Mail"), nil, "shipping_method must be one of Ground, "},
		{"walmart other with url and method", "Walmart", "Bob's", s("https://t/1"), s("Truck"), s("Truck"), ""},
		{"walmart other without method", "Walmart", "Bob's", s("https://t/1"), nil, nil, "shipping_method is required"},
		{"walmart other without url", "Walmart", "Bob's", nil, s("Truck"), nil, "tracking_url"},
		{"amazon method kept", "Amazon", "USPS", nil, s("anything"), s("anything"), ""},
		{"amazon other without url", "Amazon", "Bob's", nil, nil, nil, ""},
		{"shopify other without url", "Shopify", "Bob's", nil, nil, nil, "tracking_url"},
		{"shopify other with url", "Shopify", "Bob's", s("https://t/1"), nil, nil, ""},
		{"shopify listed without url", "Shopify", "UPS", nil, nil, nil, ""},
		{"faire unlisted without url", "Faire", "OnTrac", nil, nil, nil, "tracking_url"},
		{"ebay unknown without url", "eBay", "Bob's", nil, nil, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := RulesFor(tt.channel).Check(tt.carrier, tt.url, tt.method)
			if tt.err != "" {
				if err == nil || errs.KindOf(err) != errs.KindInvalid || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Check = %v, want a 422 with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Check: %v", err)
			}
			if (got == nil) != (tt.wantMethod == nil) || got != nil && *got != *tt.wantMethod {
				t.Errorf("method = %v, want %v", got, tt.wantMethod)
			}
		})
	}
}

// TestMethodsOfPreferredCarriers: every preferred carrier has its list
// (Other an empty one), every channel's carriers are preferred names, and
// no list spells a method twice.
func TestMethodsOfPreferredCarriers(t *testing.T) {
	t.Parallel()
	for name := range Preferred {
		ms, ok := Methods[name]
		if !ok {
			t.Errorf("%s has no shipping methods", name)
		}
		seen := map[string]bool{}
		for _, m := range ms {
			if seen[fold(m)] {
				t.Errorf("%s spells %q twice", name, m)
			}
			seen[fold(m)] = true
		}
	}
	for name := range Methods {
		if _, ok := Preferred[name]; !ok {
			t.Errorf("methods of %q, which is not a preferred carrier", name)
		}
	}
	for _, r := range AllRules() {
		for _, c := range r.Carriers {
			if _, ok := Preferred[c]; !ok || c == Other {
				t.Errorf("%s lists %q", r.Type, c)
			}
		}
	}
}

// TestChannelCodes: every carrier of the preferred list maps to one of the
// channel's own codes: eBay's shipping carrier codes
// (ShippingCarrierCodeType, Other for a carrier eBay does not list and an
// unknown one), Walmart's carrier names (CarrierNameType.carrier; Other,
// sent as otherCarrier, for the rest).
func TestChannelCodes(t *testing.T) {
	t.Parallel()
	want := map[string]map[string]string{
		"eBay": {
			"USPS": "USPS", "UPS": "UPS", "FedEx": "FedEx", "DHL": "DHL", "DHL eCommerce": "DHLGlobalMail",
			"OnTrac": "ONTRACK", "Amazon Logistics": "Other", "Canada Post": "Other", "Purolator": "Other",
			"Royal Mail": "RoyalMail", "Parcelforce": "Parcelforce", "Evri": "Hermes", "DPD": "DPD", "GLS": "GLS",
			"Yodel": "Yodel", "Deutsche Post": "DeutschePost", "La Poste": "LAPOSTE", "PostNL": "PostNL",
			"Australia Post": "AustraliaPost", "Japan Post": "JapanPost", "China Post": "ChinaPost", "TNT": "TNT",
			"Aramex": "ARAMEX", "Other": "Other",
		},
		"Walmart": {
			"USPS": "USPS", "UPS": "UPS", "FedEx": "FedEx", "DHL": "DHL", "DHL eCommerce": "DHL Ecommerce - US",
			"OnTrac": "OnTrac", "Amazon Logistics": "Other", "Canada Post": "Canada Post", "Purolator": "Other",
			"Royal Mail": "Royal Mail", "Parcelforce": "Other", "Evri": "Other", "DPD": "Other", "GLS": "GLS",
			"Yodel": "Other", "Deutsche Post": "Deutsche Post", "La Poste": "Other", "PostNL": "Other",
			"Australia Post": "Other", "Japan Post": "Japan Post", "China Post": "China Post", "TNT": "Other",
			"Aramex": "Other", "Other": "Other",
		},
	}
	for channel, codes := range want {
		for name := range Preferred {
			if _, ok := codes[name]; !ok {
				t.Errorf("preferred carrier %s has no expected %s code in this test", name, channel)
			}
		}
		rules := RulesFor(channel)
		for name, code := range codes {
			t.Run(channel+"/"+name, func(t *testing.T) {
				t.Parallel()
				if got := rules.Code(name); got != code {
					t.Errorf("Code(%q) = %q, want %q", name, got, code)
				}
			})
		}
		if got := rules.Code("Bob's Couriers"); got != "Other" {
			t.Errorf("%s: Code of an unknown carrier = %q, want Other", channel, got)
		}
	}
}
