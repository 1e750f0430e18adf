package gateway

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"

	"github.com/multisell/multisell/pkg/local/template"
)

// Gateway response types, with API Gateway's own status and message for each.
const (
	respUnauthorized       = "UNAUTHORIZED"
	respAccessDenied       = "ACCESS_DENIED"
	respMissingAuthToken   = "MISSING_AUTHENTICATION_TOKEN"
	respRequestTooLarge    = "REQUEST_TOO_LARGE"
	respAuthorizerFailure  = "AUTHORIZER_FAILURE"
	respAuthorizerConfig   = "AUTHORIZER_CONFIGURATION_ERROR"
	respIntegrationTimeout = "INTEGRATION_TIMEOUT"
	respDefault5XX         = "DEFAULT_5XX"
	respThrottled          = "THROTTLED"
	respInvalidAPIKey      = "INVALID_API_KEY"
)

var responseDefaults = map[string]struct {
	status  int
	message string
}{
	respUnauthorized:       {http.StatusUnauthorized, "Unauthorized"},
	respAccessDenied:       {http.StatusForbidden, "User is not authorized to access this resource with an explicit deny"},
	respMissingAuthToken:   {http.StatusForbidden, "Missing Authentication Token"},
	respRequestTooLarge:    {http.StatusRequestEntityTooLarge, "Request Too Long"},
	respAuthorizerFailure:  {http.StatusInternalServerError, "Internal server error"},
	respAuthorizerConfig:   {http.StatusInternalServerError, "Internal server error"},
	respIntegrationTimeout: {http.StatusGatewayTimeout, "Endpoint request timed out"},
	// A failed or malformed Lambda proxy response: 502 with the default 5XX response.
	respDefault5XX:    {http.StatusBadGateway, "Internal server error"},
	respThrottled:     {http.StatusTooManyRequests, "Too Many Requests"},
	respInvalidAPIKey: {http.StatusForbidden, "Forbidden"},
}

// writeGatewayResponse renders a gateway response the way API Gateway does: the template's
// customization of the type, else of DEFAULT_4XX/DEFAULT_5XX, else AWS's default body.
func (g *Gateway) writeGatewayResponse(w http.ResponseWriter, r *http.Request, typ, requestID string) {
	def := responseDefaults[typ]
	status, message := def.status, def.message
	var custom *template.GatewayResponse
	if g.api != nil {
		if gr, ok := g.api.GatewayResponses[typ]; ok {
			custom = &gr
		} else {
			group := "DEFAULT_4XX"
			if status >= 500 {
				group = "DEFAULT_5XX"
			}
			if gr, ok := g.api.GatewayResponses[group]; ok {
				custom = &gr
			}
		}
	}
	body := `{"message":$context.error.messageString}`
	h := w.Header()
	h.Set("Content-Type", "application/json")
	if custom != nil {
		if custom.StatusCode != 0 {
			status = custom.StatusCode
		}
		if tpl, ok := custom.Templates["application/json"]; ok {
			body = tpl
		} else if len(custom.Templates) > 0 {
			keys := make([]string, 0, len(custom.Templates))
			for k := range custom.Templates {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			body = custom.Templates[keys[0]]
		}
		for name, v := range custom.Headers {
			if hv, ok := strings.CutPrefix(v, "method.request.header."); ok {
				v = r.Header.Get(hv)
			}
			h.Set(name, v)
		}
	}
	quoted, _ := json.Marshal(message)
	body = strings.NewReplacer(
		"$context.error.messageString", string(quoted),
		"$context.error.message", message,
		"$context.error.responseType", typ,
		"$context.requestId", requestID,
	).Replace(body)
	h.Set("X-Amzn-Requestid", requestID)
	h.Set("X-Amzn-Errortype", errorType(typ))
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

func errorType(typ string) string {
	switch typ {
	case respUnauthorized:
		return "UnauthorizedException"
	case respAccessDenied:
		return "AccessDeniedException"
	case respMissingAuthToken:
		return "MissingAuthenticationTokenException"
	case respRequestTooLarge:
		return "RequestTooLargeException"
	case respAuthorizerConfig:
		return "AuthorizerConfigurationException"
	case respAuthorizerFailure:
		return "AuthorizerFailureException"
	case respThrottled:
		return "TooManyRequestsException"
	case respInvalidAPIKey:
		return "ForbiddenException"
	}
	return "InternalServerErrorException"
}
