package ebay

// carrierCodes are eBay's shipping carrier codes, the values of the Trading API's
// ShippingCarrierCodeType
// (https://developer.ebay.com/DevZone/xml/docs/reference/eBay/types/ShippingCarrierCodeType.html),
// which the Sell Fulfillment document names for ShippingFulfillmentDetails.shippingCarrierCode
// (through GeteBayDetails' ShippingCarrierDetails). The sandbox keeps its own copy so that it
// checks the connector's codes against eBay's list, not against the connector's table.
var carrierCodes = map[string]bool{}

func init() {
	for _, c := range []string{
		"UPS", "USPS", "FedEx", "DeutschePost", "DHL", "Hermes", "iLoxx", "Other", "ColiposteDomestic",
		"ColiposteInternational", "Chronopost", "Correos", "Seur", "Nacex", "FourPX", "FourPXCHINA",
		"FourPXExpress", "FourPXLTD", "SevenLSP", "A1CourierServices", "ABF", "AeroPost", "ALLIEDEXPRESS",
		"AMWST", "AnPost", "APC", "ARAMEX", "ARVATO", "ASM", "AustraliaPost", "AustralianAirExpress",
		"AVRT", "BPost", "Bartolini", "BELGIANPOST", "BKNS", "BluePackage", "BusinessPost", "CanPar",
		"CENF", "CEVA", "ChinaPost", "Chronoexpres", "CHUKOU1", "ChunghwaPost", "CitiPost", "CityLink",
		"ClickandQuick", "CNWY", "Colissimo", "CollectPlus", "CPC", "DAIPost", "DayandRoss", "DBSchenker",
		"DHLEXPRESS", "DHLGlobalMail", "DHLEKB", "DHLG", "DieSchweizerischePost", "DPD", "DPXThailand",
		"Ducros", "EGO", "EMF", "Exapaq", "Fastway", "FASTWAYCOURIERS", "FedExSmartPost", "FLYT",
		"FLYTExpress", "FlytExpressUSDirectline", "FTFT", "FulfilExpressAccStation",
		"FulfilExpresseForCity", "FulfilExpressEverydaySource", "FulfilExpressiTrimming", "GLS", "HDUSA",
		"HomeDeliveryNetwork", "HongKongPost", "HUNTEREXPRESS", "IndiaPost", "IndonesiaPost", "Interlink",
		"InterPost", "IoInvio", "Iparcel", "IsraelPost", "JapanPost", "KIALA", "KoreaPost", "LAPOSTE",
		"Landmark", "LDSO", "LTL", "MALAYSIAPOST", "MannaFreight", "Metapack", "MNGTurkey",
		"MondialRelay", "MRW", "MSI", "NEMF", "ODFL", "OFFD", "ONTRACK", "OsterreichischePostAG", "OVNT",
		"ParcelPool", "Parcelforce", "Philpost", "Pilot", "PITD", "PocztaPolska", "Pocztex",
		"POSTITALIANO", "PostNL", "PostNordNorway", "PosteItaliane", "Prestige", "Quantium", "RETL",
		"RoyalMail", "RRUN", "SAIA", "SDA", "SFC", "SFCExpress", "SINGAPOREPOST", "Siodemka",
		"SioliandFontana", "SkynetMalaysia", "SMARTSEND", "Sogetras", "Spediamo", "SpeeDee", "StarTrack",
		"SuntekExpressLTD", "SwissPost", "TELE", "TEMANDO", "THAILANDPOST", "TNT", "TNTEXPRESS",
		"TNTPost", "Toll", "TPG", "TWW", "UBI", "UKMail", "UPSMailInnovations", "UPSC", "USFG", "USPSCeP",
		"USPSPMI", "VietnamPost", "VITR", "WATKINS", "Winit", "Wise", "WNdirect", "WPX", "YANWEN",
		"Yodel", "YRC", "CustomCode",
	} {
		carrierCodes[c] = true
	}
}
