package carriers

// Methods are the method names each preferred carrier accepts
// (docs/shipments.md), published by GET /carriers. A channel that requires
// a method (Walmart) takes one of these for the shipment's carrier; Other
// has none (any method is taken as given).
var Methods = map[string][]string{
	"USPS":             {"Priority Mail", "Priority Mail Express", "First-Class Mail", "Ground Advantage", "Media Mail", "Parcel Select"},
	"UPS":              {"Ground", "3 Day Select", "2nd Day Air", "2nd Day Air A.M.", "Next Day Air", "Next Day Air Saver", "Next Day Air Early", "SurePost", "Standard", "Worldwide Expedited", "Worldwide Express", "Worldwide Saver"},
	"FedEx":            {"Ground", "Home Delivery", "Ground Economy", "Express Saver", "2Day", "2Day A.M.", "Standard Overnight", "Priority Overnight", "First Overnight", "International Priority", "International Economy"},
	"DHL":              {"Express Worldwide", "Express 9:00", "Express 12:00", "Economy Select"},
	"DHL eCommerce":    {"Parcel Expedited", "Parcel Expedited Max", "Parcel Ground", "Parcel International Direct"},
	"OnTrac":           {"Ground", "Sunrise", "Sunrise Gold"},
	"Amazon Logistics": {"Standard", "Expedited", "Next Day"},
	"Canada Post":      {"Regular Parcel", "Expedited Parcel", "Xpresspost", "Priority", "Small Packet"},
	"Purolator":        {"Ground", "Express", "Express 9AM", "Express 10:30AM"},
	"Royal Mail":       {"1st Class", "2nd Class", "Tracked 24", "Tracked 48", "Special Delivery Guaranteed", "International Tracked"},
	"Parcelforce":      {"express24", "express48", "expressAM", "Global Priority", "Global Express"},
	"Evri":             {"Standard", "Next Day", "ParcelShop"},
	"DPD":              {"Next Day", "Classic", "Express", "Pickup"},
	"GLS":              {"Business Parcel", "Express Parcel", "Euro Business Parcel"},
	"Yodel":            {"Xpect 24", "Xpect 48", "Xpress"},
	"Deutsche Post":    {"Warenpost", "Paket", "Paeckchen", "Brief International"},
	"La Poste":         {"Colissimo Domicile", "Colissimo Expert", "Lettre Suivie", "Chronopost"},
	"PostNL":           {"Standard", "Evening Delivery", "Pakket International"},
	"Australia Post":   {"Parcel Post", "Express Post", "International Standard", "International Express"},
	"Japan Post":       {"EMS", "International ePacket", "Yu-Pack", "SAL"},
	"China Post":       {"ePacket", "EMS", "Registered Air Mail"},
	"TNT":              {"Express", "Economy Express", "12:00 Express"},
	"Aramex":           {"Priority Parcel Express", "Economy Parcel Express", "Domestic"},
	Other:              {},
}

// MatchMethod returns the carrier's method name that method spells,
// ignoring case and punctuation, and whether there is one.
func MatchMethod(carrier, method string) (string, bool) {
	want := fold(method)
	for _, m := range Methods[carrier] {
		if fold(m) == want && want != "" {
			return m, true
		}
	}
	return "", false
}
