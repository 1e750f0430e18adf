// Package auth authenticates API calls: it parses HTTP Basic credentials and
// implements the API Gateway REQUEST authorizer that maps an account token
// and secret key to the account.
package auth

import (
	"encoding/base64"
	"strings"
)

// ParseBasic extracts the token and secret from an Authorization header of
// the Basic scheme (RFC 7617, standard base64). It fails for another scheme,
// bad base64, a missing colon, or an empty token or secret.
func ParseBasic(header string) (token, secret string, ok bool) {
	scheme, payload, found := strings.Cut(strings.TrimSpace(header), " ")
	if !found || !strings.EqualFold(scheme, "Basic") {
		return "", "", false
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(payload))
	if err != nil {
		return "", "", false
	}
	token, secret, found = strings.Cut(string(raw), ":")
	if !found || token == "" || secret == "" {
		return "", "", false
	}
	return token, secret, true
}
