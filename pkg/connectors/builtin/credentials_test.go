package builtin_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/builtin"
	"github.com/multisell/multisell/pkg/errs"
)

// validCredentials are credentials each built-in connector takes, by its name.
var validCredentials = map[string]map[string]any{
	"amazon": {"refresh_token": "Atzr|secret-r", "client_id": "amzn1.application-oa2-client.x", "client_secret": "secret-c",
		"seller_id": "A2SELLER", "marketplace_id": "ATVPDKIKX0DER"},
	"shopify": {"shop_domain": "example.myshopify.com", "access_token": "shpat_secret", "location_id": "gid://shopify/Location/1"},
	"ebay":    {"refresh_token": "v^1.1#secret-r", "client_id": "App-x", "client_secret": "secret-c", "marketplace_id": "EBAY_US"},
	"walmart": {"client_id": "0f5c6c3e-walmart-client", "client_secret": "secret-c", "market": "US"},
	"etsy":    {"refresh_token": "12345678.secret-r", "client_id": "keystring-x", "client_secret": "secret-c", "shop_id": "12345678"},
}

// TestCredentialsBadInput: each built-in connector takes its type's credentials and refuses,
// as errs.Invalid naming the field and never quoting the value, a body that is not a JSON
// object, a field missing, blank, of the wrong type or too long, and a field it does not take.
func TestCredentialsBadInput(t *testing.T) {
	t.Parallel()
	builtin.Register()
	valid := validCredentials
	with := func(base map[string]any, k string, v any) []byte {
		m := map[string]any{}
		for bk, bv := range base {
			m[bk] = bv
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		b, _ := json.Marshal(m)
		return b
	}
	for name, creds := range valid {
		c, ok := connectors.Lookup(name)
		if !ok {
			t.Fatalf("%s is not registered", name)
		}
		field := "client_id"
		if name == "shopify" {
			field = "access_token"
		}
		good, _ := json.Marshal(creds)
		tests := []struct {
			name string
			raw  []byte
			want string // "" for valid, else a part of the message
		}{
			{"valid", good, ""},
			{"not JSON", []byte(`{"client_id":`), "credentials"},
			{"an array", []byte(`[]`), "credentials"},
			{"missing " + field, with(creds, field, nil), field},
			{"blank " + field, with(creds, field, "  "), field},
			{field + " a number", with(creds, field, 7), field},
			{field + " too long", with(creds, field, strings.Repeat("x", 5000)), field},
			{"an unknown field", with(creds, "password", "hunter2"), "password"},
		}
		for _, tc := range tests {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				_, err := c.ParseCredentials(tc.raw)
				switch {
				case tc.want == "" && err != nil:
					t.Fatalf("got %v, want valid", err)
				case tc.want == "":
					return
				case errs.KindOf(err) != errs.KindInvalid || !strings.Contains(err.Error(), tc.want):
					t.Fatalf("got %v, want an invalid error naming %q", err, tc.want)
				case strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "xxxx"):
					t.Errorf("the error %q quotes a value", err)
				}
			})
		}
	}
}
