package carriers

import (
	"sort"
	"strings"
	"unicode"
)

// Other is the carrier type of a carrier outside the preferred list.
const Other = "Other"

// Preferred are the preferred carrier names (docs/shipments.md), each with
// the spellings merchants send for it.
var Preferred = map[string][]string{
	"USPS":             {"usps", "us postal service", "united states postal service"},
	"UPS":              {"ups", "united parcel service", "ups mail innovations"},
	"FedEx":            {"fedex", "federal express", "fedex smartpost"},
	"DHL":              {"dhl", "dhl express"},
	"DHL eCommerce":    {"dhl ecommerce", "dhl global mail"},
	"OnTrac":           {"ontrac"},
	"Amazon Logistics": {"amazon logistics", "amzl", "amazon shipping"},
	"Canada Post":      {"canada post", "postes canada"},
	"Purolator":        {"purolator"},
	"Royal Mail":       {"royal mail"},
	"Parcelforce":      {"parcelforce", "parcelforce worldwide"},
	"Evri":             {"evri", "hermes", "myhermes"},
	"DPD":              {"dpd"},
	"GLS":              {"gls"},
	"Yodel":            {"yodel"},
	"Deutsche Post":    {"deutsche post"},
	"La Poste":         {"la poste", "colissimo"},
	"PostNL":           {"postnl"},
	"Australia Post":   {"australia post", "auspost"},
	"Japan Post":       {"japan post"},
	"China Post":       {"china post"},
	"TNT":              {"tnt"},
	"Aramex":           {"aramex"},
	Other:              {"other"},
}

// carrierIndex maps a folded spelling to its preferred name.
var carrierIndex = func() map[string]string {
	m := map[string]string{}
	for name, spellings := range Preferred {
		m[fold(name)] = name
		for _, s := range spellings {
			m[fold(s)] = name
		}
	}
	return m
}()

// fold lowercases s and drops everything but letters and digits.
func fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Normalize returns the preferred name of a carrier, and whether it
// is one; an unknown carrier is Other.
func Normalize(name string) (string, bool) {
	if c, ok := carrierIndex[fold(name)]; ok {
		return c, true
	}
	return Other, false
}

// Carrier is a preferred carrier as GET /carriers returns it.
type Carrier struct {
	Name            string   `json:"name"`
	Aliases         []string `json:"aliases"`
	ShippingMethods []string `json:"shipping_methods"`
}

// List returns every preferred carrier, by name (ignoring case),
// with the other spellings it is known by and its shipping methods (Other
// has none).
func List() []Carrier {
	out := make([]Carrier, 0, len(Preferred))
	for name, spellings := range Preferred {
		c := Carrier{Name: name, Aliases: []string{}, ShippingMethods: append([]string{}, Methods[name]...)}
		for _, s := range spellings {
			if fold(s) != fold(name) {
				c.Aliases = append(c.Aliases, s)
			}
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name) })
	return out
}
