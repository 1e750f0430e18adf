package amazon

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/multisell/multisell/pkg/local/sandbox"
)

// Issue is a listing's issue as the Listings Items API and the feed reports state it.
type Issue struct {
	Code           string   `json:"code"`
	Message        string   `json:"message"`
	Severity       string   `json:"severity"`
	AttributeNames []string `json:"attributeNames,omitempty"`
	Categories     []string `json:"categories"`
}

// patch is one operation of a listing's patch.
type patch struct {
	Op    string            `json:"op"`
	Path  string            `json:"path"`
	Value []json.RawMessage `json:"value"`
}

// availabilityPath is the attribute of a listing's quantity.
const availabilityPath = "/attributes/fulfillment_availability"

// fbaChannel is the fulfillment channel code of an FBA listing's availability.
const fbaChannel = "AMAZON_NA"

// applyPatches applies a listing's patches: only fulfillment_availability of the DEFAULT
// channel is kept; the issues say why a patch was refused (none: accepted). As Amazon keeps
// the attribute, a replace (or add) sets the whole value: a sub-attribute it does not carry
// (lead_time_to_ship_max_days, the seller's handling time) is cleared; a merge sets those it
// carries and keeps the others.
func applyPatches(s *Seller, sku string, patches []patch) []Issue {
	l := s.Listings[sku]
	if l == nil {
		return []Issue{{Code: "4000001", Message: fmt.Sprintf("SKU %s was not found for this seller", sku), Severity: "ERROR", Categories: []string{"INVALID_ATTRIBUTE"}}}
	}
	if len(patches) == 0 {
		return []Issue{{Code: "4000002", Message: "patches must hold at least one operation", Severity: "ERROR", Categories: []string{"INVALID_ATTRIBUTE"}}}
	}
	for _, p := range patches {
		if p.Path != availabilityPath || (p.Op != "replace" && p.Op != "merge" && p.Op != "add") || len(p.Value) != 1 {
			return []Issue{{Code: "4000003", Message: "the sandbox takes only a replace, add or merge of " + availabilityPath + " with one value", Severity: "ERROR",
				AttributeNames: []string{strings.TrimPrefix(p.Path, "/attributes/")}, Categories: []string{"INVALID_ATTRIBUTE"}}}
		}
		var v struct {
			Channel  string `json:"fulfillment_channel_code"`
			Quantity *int64 `json:"quantity"`
			LeadTime *int64 `json:"lead_time_to_ship_max_days"`
		}
		if json.Unmarshal(p.Value[0], &v) != nil || v.Channel != "DEFAULT" || v.Quantity == nil || *v.Quantity < 0 {
			return []Issue{{Code: "90220", Message: "fulfillment_availability needs fulfillment_channel_code DEFAULT and a quantity of 0 or more", Severity: "ERROR",
				AttributeNames: []string{"fulfillment_availability"}, Categories: []string{"INVALID_ATTRIBUTE"}}}
		}
		if l.FBA {
			return []Issue{{Code: "8560", Message: "This SKU is fulfilled by Amazon: its quantity cannot be set with fulfillment_channel_code DEFAULT", Severity: "ERROR",
				AttributeNames: []string{"fulfillment_availability"}, Categories: []string{"INVALID_ATTRIBUTE"}}}
		}
		l.Quantity = *v.Quantity
		if p.Op != "merge" || v.LeadTime != nil {
			l.HandlingDays = v.LeadTime
		}
	}
	return nil
}

// availability is a listing's fulfillmentAvailability as getListingsItem answers it.
func (l *Listing) availability() []map[string]any {
	code := "DEFAULT"
	if l.FBA {
		code = fbaChannel
	}
	return []map[string]any{{"fulfillmentChannelCode": code, "quantity": l.Quantity}}
}

// checkListingPath answers 400 and false unless the path's seller is s and marketplaceIds
// names its marketplace.
func checkListingPath(w http.ResponseWriter, r *http.Request, s *Seller) bool {
	if r.PathValue("sellerId") != s.ID {
		writeError(w, http.StatusForbidden, "Unauthorized", "the sellerId is not the seller of the access token")
		return false
	}
	if !slices.Contains(strings.Split(r.URL.Query().Get("marketplaceIds"), ","), s.MarketplaceID) {
		writeError(w, http.StatusBadRequest, "InvalidInput", "marketplaceIds must name the seller's marketplace")
		return false
	}
	return true
}

// patchListingsItem applies a listing's patch: ACCEPTED, or INVALID with the issues.
func (a *Amazon) patchListingsItem(w http.ResponseWriter, r *http.Request, s *Seller) {
	if !checkListingPath(w, r, s) {
		return
	}
	var in struct {
		ProductType string  `json:"productType"`
		Patches     []patch `json:"patches"`
	}
	if json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&in) != nil || in.ProductType == "" {
		writeError(w, http.StatusBadRequest, "InvalidInput", "the body must be a ListingsItemPatchRequest with productType and patches")
		return
	}
	sku := r.PathValue("sku")
	status, issues := "ACCEPTED", applyPatches(s, sku, in.Patches)
	if len(issues) > 0 {
		status = "INVALID"
	}
	sandbox.WriteJSON(w, http.StatusOK, map[string]any{"sku": sku, "status": status, "submissionId": a.nextID("sub-"), "issues": append(issues, []Issue{}...)})
}

// getListingsItem answers a listing with its fulfillmentAvailability.
func (a *Amazon) getListingsItem(w http.ResponseWriter, r *http.Request, s *Seller) {
	if !checkListingPath(w, r, s) {
		return
	}
	l := s.Listings[r.PathValue("sku")]
	if l == nil {
		writeError(w, http.StatusNotFound, "NOT_FOUND", "SKU "+r.PathValue("sku")+" not found")
		return
	}
	out := map[string]any{"sku": l.SKU}
	if strings.Contains(r.URL.Query().Get("includedData"), "fulfillmentAvailability") {
		out["fulfillmentAvailability"] = l.availability()
	}
	sandbox.WriteJSON(w, http.StatusOK, out)
}
