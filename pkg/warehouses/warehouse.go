package warehouses

import "github.com/multisell/multisell/pkg/store"

// InventoryMaster values: the service keeps the stock of its own warehouses;
// a marketplace keeps the stock of the warehouses it fulfils from.
const (
	MasterMultisell   = "multisell"
	MasterMarketplace = "marketplace"
)

// NotFoundMessage is the API error message for an unknown warehouse.
const NotFoundMessage = "Warehouse not found"

// Warehouse is a warehouse as stored and returned (the API's fields plus the
// written ones, priority and archived; docs/decisions.md). A text field the
// warehouse does not have is null in the response and absent from the item.
type Warehouse struct {
	UUID                   string  `json:"uuid" dynamodbav:"uuid"`
	Name                   string  `json:"name" dynamodbav:"name"`
	InventoryMaster        string  `json:"inventory_master" dynamodbav:"inventory_master"`
	SenderName             *string `json:"sender_name" dynamodbav:"sender_name,omitempty"`
	CompanyName            *string `json:"company_name" dynamodbav:"company_name,omitempty"`
	Email                  *string `json:"email" dynamodbav:"email,omitempty"`
	PhoneNumber            *string `json:"phone_number" dynamodbav:"phone_number,omitempty"`
	Address1               *string `json:"address_1" dynamodbav:"address_1,omitempty"`
	Address2               *string `json:"address_2" dynamodbav:"address_2,omitempty"`
	City                   *string `json:"city" dynamodbav:"city,omitempty"`
	StateRegion            *string `json:"state_region" dynamodbav:"state_region,omitempty"`
	PostalCode             *string `json:"postal_code" dynamodbav:"postal_code,omitempty"`
	CountryCode            *string `json:"country_code" dynamodbav:"country_code,omitempty"`
	EnableShippingSoftware bool    `json:"enable_shipping_software" dynamodbav:"enable_shipping_software"`
	Archived               bool    `json:"archived" dynamodbav:"archived"`
	Priority               int     `json:"priority" dynamodbav:"priority"`
	CreatedAt              string  `json:"created_at" dynamodbav:"created_at"`
}

// newWarehouse is the warehouse a create of in makes: the fields in sets,
// kept by the service (inventory_master), priority as given, flags false
// unless set.
func newWarehouse(uuid, createdAt string, priority int, in Input) Warehouse {
	w := Warehouse{UUID: uuid, InventoryMaster: MasterMultisell, Priority: priority, CreatedAt: createdAt}
	for attr, v := range in.Text {
		if attr == "name" {
			w.Name = v
		} else if f := w.optionalText(attr); f != nil {
			*f = &v
		}
	}
	if in.EnableShippingSoftware != nil {
		w.EnableShippingSoftware = *in.EnableShippingSoftware
	}
	if in.Archived != nil {
		w.Archived = *in.Archived
	}
	return w
}

// optionalText is the address of w's optional text field stored as attr,
// nil for any other name.
func (w *Warehouse) optionalText(attr string) **string {
	switch attr {
	case "sender_name":
		return &w.SenderName
	case "company_name":
		return &w.CompanyName
	case "email":
		return &w.Email
	case "phone_number":
		return &w.PhoneNumber
	case "address_1":
		return &w.Address1
	case "address_2":
		return &w.Address2
	case "city":
		return &w.City
	case "state_region":
		return &w.StateRegion
	case "postal_code":
		return &w.PostalCode
	case "country_code":
		return &w.CountryCode
	}
	return nil
}

// ArchiveChanged decodes a stream record of a warehouse: its uuid, when it
// was archived or brought back (its stock stops or starts counting).
func ArchiveChanged(c store.Change) (string, bool) {
	if c.Kind != "WH" || !c.Old.Exists() || !c.New.Exists() {
		return "", false
	}
	return c.SK, !store.Same(c.Old, c.New, "archived")
}
