package api

import (
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"
)

func TestValidKey(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		key  string
		want bool
	}{
		{"a", true}, {"order-42/retry#1", true}, {strings.Repeat("k", 255), true},
		{"", false}, {strings.Repeat("k", 256), false}, {"a b", false}, {"tab\t", false}, {"clé", false}, {"nul\x00", false},
	} {
		if got := validKey(c.key); got != c.want {
			t.Errorf("validKey(%q) = %v, want %v", c.key, got, c.want)
		}
	}
}

// TestFingerprint: a request's fingerprint changes with its method, path,
// query and body, and not with the order of its query parameters.
func TestFingerprint(t *testing.T) {
	t.Parallel()
	base := events.APIGatewayProxyRequest{HTTPMethod: "POST", Path: "/v1/shipments", Body: `{"a":1}`,
		MultiValueQueryStringParameters: map[string][]string{"x": {"1"}, "y": {"2"}}}
	same := base
	same.MultiValueQueryStringParameters = map[string][]string{"y": {"2"}, "x": {"1"}}
	if fingerprint(base) != fingerprint(same) {
		t.Error("the order of query parameters changed the fingerprint")
	}
	for name, change := range map[string]func(*events.APIGatewayProxyRequest){
		"method": func(r *events.APIGatewayProxyRequest) { r.HTTPMethod = "PUT" },
		"path":   func(r *events.APIGatewayProxyRequest) { r.Path = "/v1/inventory" },
		"query": func(r *events.APIGatewayProxyRequest) {
			r.MultiValueQueryStringParameters = map[string][]string{"x": {"1"}}
		},
		"body":  func(r *events.APIGatewayProxyRequest) { r.Body = `{"a":2}` },
		"split": func(r *events.APIGatewayProxyRequest) { r.Path, r.Body = "/v1/shipments{", `"a":1}` },
	} {
		other := base
		change(&other)
		if fingerprint(other) == fingerprint(base) {
			t.Errorf("a different %s has the same fingerprint", name)
		}
	}
}
