package connectors

import "encoding/json"

// OAuthError is a token endpoint's OAuth 2.0 error answer, {"error","error_description"}.
type OAuthError struct {
	Code        string `json:"error"`
	Description string `json:"error_description"`
}

// ParseOAuthError reads an answer's body as an OAuthError; a body that is not one reads as
// the zero value.
func ParseOAuthError(body []byte) OAuthError {
	var e OAuthError
	_ = json.Unmarshal(body, &e)
	return e
}

// Message is "code: description", or the code alone when there is no description.
func (e OAuthError) Message() string {
	if e.Description == "" {
		return e.Code
	}
	return e.Code + ": " + e.Description
}
