package ebay_test

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/connectors/ebay"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
)

// models are eBay's official OpenAPI documents, each with the base path it serves.
var models = &connectorstest.Models{API: ebay.ProductionAPI, Files: map[string]string{
	"ebay/sell_fulfillment_v1_oas3.yaml": "/sell/fulfillment/v1",
	"ebay/sell_inventory_v1_oas3.json":   "/sell/inventory/v1",
}}

// validate checks every request the connector sent to the sandbox against eBay's documents
// (the token request, which no document holds, against eBay's OAuth rules), and every
// answer of the sandbox too, when the documents are present.
func (f *fixture) validate(t *testing.T) {
	if !f.models {
		return
	}
	checked := 0
	for _, x := range f.Rec.Exchanges() {
		if err := validateExchange(x); err != nil {
			t.Errorf("%s %s: %v", x.Request.Method, x.Request.URL.RequestURI(), err)
		}
		checked++
	}
	t.Logf("%d requests and answers checked against eBay's OpenAPI documents", checked)
}

// validateExchange checks one request and its answer.
func validateExchange(x connectorstest.Exchange) error {
	if strings.HasSuffix(x.Request.URL.Path, "/identity/v1/oauth2/token") {
		return validateToken(x)
	}
	if x.Request.URL.Path == "/ws/api.dll" {
		return validateTrading(x)
	}
	if x.Request.URL.Path == "/commerce/identity/v1/user/" {
		return validateGetUser(x)
	}
	in, err := models.ValidateRequest(x.Request, x.Body)
	if err != nil {
		return err
	}
	if x.Status == http.StatusTooManyRequests || x.Status == http.StatusInternalServerError {
		return nil // the framework's injected faults and limit answers
	}
	return connectorstest.ValidateAnswer(in, x.Status, x.Header, x.Answer)
}

// validateToken checks a token request against eBay's OAuth rules: a form of the
// refresh-token grant with the sell scopes, the client as Basic auth.
func validateToken(x connectorstest.Exchange) error {
	if x.Request.Method != http.MethodPost || x.Request.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
		return fmt.Errorf("the token request must be a form POST")
	}
	if _, _, ok := x.Request.BasicAuth(); !ok {
		return fmt.Errorf("the token request has no Basic client authorization")
	}
	form, err := url.ParseQuery(string(x.Body))
	if err != nil {
		return err
	}
	if form.Get("grant_type") != "refresh_token" || form.Get("refresh_token") == "" {
		return fmt.Errorf("the token request is not a refresh_token grant")
	}
	for _, sc := range strings.Fields(form.Get("scope")) {
		if !strings.HasPrefix(sc, "https://api.ebay.com/oauth/api_scope/sell.") && sc != ebay.IdentityScope {
			return fmt.Errorf("scope %s is neither a sell scope nor the identity scope", sc)
		}
	}
	return nil
}

// validateGetUser checks a getUser call against eBay's Commerce Identity API reference (no
// model of it is beside the repository): a GET with a bearer token, answered with the user's
// userId and username.
func validateGetUser(x connectorstest.Exchange) error {
	if x.Request.Method != http.MethodGet || !strings.HasPrefix(x.Request.Header.Get("Authorization"), "Bearer ") {
		return fmt.Errorf("getUser must be a GET with a bearer token")
	}
	if x.Status != http.StatusOK {
		return nil
	}
	var u struct {
		UserID   string `json:"userId"`
		Username string `json:"username"`
	}
	if err := json.Unmarshal(x.Answer, &u); err != nil || u.UserID == "" || u.Username == "" {
		return fmt.Errorf("the getUser answer has no userId and username: %s", x.Answer)
	}
	return nil
}

// validateTrading checks a Trading API request against eBay's Trading API reference (no
// model of it is beside the repository): the headers every call needs, the user token as
// X-EBAY-API-IAF-TOKEN, an XML body whose root is the call's request in eBay's namespace,
// and ReviseInventoryStatus' one to four InventoryStatus, each an ItemID and a Quantity.
func validateTrading(x connectorstest.Exchange) error {
	h := x.Request.Header
	for _, name := range []string{"X-EBAY-API-CALL-NAME", "X-EBAY-API-SITEID", "X-EBAY-API-COMPATIBILITY-LEVEL", "X-EBAY-API-IAF-TOKEN"} {
		if h.Get(name) == "" {
			return fmt.Errorf("the Trading API request has no %s", name)
		}
	}
	if x.Request.Method != http.MethodPost || !strings.HasPrefix(h.Get("Content-Type"), "text/xml") {
		return fmt.Errorf("a Trading API request is an XML POST")
	}
	var root struct {
		XMLName         xml.Name
		InventoryStatus []struct {
			ItemID   string `xml:"ItemID"`
			Quantity *int64 `xml:"Quantity"`
		} `xml:"InventoryStatus"`
	}
	if err := xml.Unmarshal(x.Body, &root); err != nil {
		return fmt.Errorf("the Trading API request is not XML: %w", err)
	}
	if want := (xml.Name{Space: "urn:ebay:apis:eBLBaseComponents", Local: h.Get("X-EBAY-API-CALL-NAME") + "Request"}); root.XMLName != want {
		return fmt.Errorf("the root element is %v, want %v", root.XMLName, want)
	}
	if root.XMLName.Local != "ReviseInventoryStatusRequest" {
		return nil
	}
	if n := len(root.InventoryStatus); n < 1 || n > 4 {
		return fmt.Errorf("ReviseInventoryStatus with %d InventoryStatus, want 1 to 4", n)
	}
	for _, st := range root.InventoryStatus {
		if st.ItemID == "" || st.Quantity == nil || *st.Quantity < 0 {
			return fmt.Errorf("an InventoryStatus without its ItemID or a Quantity of 0 or more")
		}
	}
	return nil
}
