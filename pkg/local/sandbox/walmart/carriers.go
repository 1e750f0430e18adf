package walmart

// carriers are Walmart's carrier names (CarrierNameType.carrier's enum in the Orders API's
// model, orders.json). The sandbox keeps its own copy so that it checks the connector's names
// against Walmart's list, not against the connector's table.
var carriers = map[string]bool{}

// methodCodes are Walmart's shipping method codes (TrackingInfoType.methodCode).
var methodCodes = []string{"Standard", "Express", "OneDay", "Freight", "WhiteGlove", "Value"}

func init() {
	for _, c := range []string{
		"UPS", "USPS", "FedEx", "Airborne", "OnTrac", "DHL Ecommerce - US", "DHL", "LS", "UDS", "UPSMI", "FDX",
		"PILOT", "ESTES", "SAIA", "FDS Express", "Seko Worldwide", "HIT Delivery", "FEDEXSP", "RL Carriers",
		"Metropolitan Warehouse & Delivery", "China Post", "YunExpress", "Yellow Freight Sys",
		"AIT Worldwide Logistics", "Chukou1", "Sendle", "Landmark Global", "Sunyou", "Yanwen", "4PX", "GLS",
		"OSM Worldwide", "FIRST MILE", "AM Trucking", "CEVA", "India Post", "SF Express", "CNE", "TForce Freight",
		"AxleHire", "LSO", "Royal Mail", "ABF Freight System", "WanB", "Roadrunner Freight", "Meyer Distribution",
		"AAA Cooper", "Canada Post", "Southeastern Freight Lines", "Japan Post", "Correos de Mexico",
		"XPO Logistics", "JD Logistics", "YDH", "JCEX", "Flyt", "Deutsche Post",
	} {
		carriers[c] = true
	}
}
