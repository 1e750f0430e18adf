package connectors

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

// Field is one credential field a channel type takes: a non-empty string of at most Max
// characters.
type Field struct {
	Name string
	Max  int
}

// ParseFields reads raw, a channel's credentials, as a JSON object of exactly fields, each a
// non-empty string without control characters of at most its Max characters. The error is
// errs.Invalid naming the field ("credentials.client_id is required"); it never quotes a
// value, since credentials are secrets. Connectors build their ParseCredentials on it.
func ParseFields(raw []byte, fields ...Field) (map[string]string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	var obj map[string]json.RawMessage
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return nil, errs.Invalid("credentials must be a JSON object")
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errs.Invalid("credentials must be a JSON object")
	}
	var extra []string
	for k := range obj {
		if !slices.ContainsFunc(fields, func(f Field) bool { return f.Name == k }) {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		slices.Sort(extra)
		return nil, errs.Invalid("credentials.%s is not a field of this channel type", clipName(extra[0]))
	}
	out := make(map[string]string, len(fields))
	for _, f := range fields {
		v, ok := obj[f.Name]
		if !ok || bytes.Equal(v, []byte("null")) {
			return nil, errs.Invalid("credentials.%s is required", f.Name)
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, errs.Invalid("credentials.%s must be a string", f.Name)
		}
		switch {
		case strings.TrimSpace(s) == "":
			return nil, errs.Invalid("credentials.%s is required", f.Name)
		case utf8.RuneCountInString(s) > f.Max:
			return nil, errs.Invalid("credentials.%s must be at most %d characters", f.Name, f.Max)
		case strings.ContainsFunc(s, unicode.IsControl):
			return nil, errs.Invalid("credentials.%s must not contain control characters", f.Name)
		}
		out[f.Name] = s
	}
	return out, nil
}

// clipName shortens an unknown field's name for a message.
func clipName(s string) string {
	if len(s) > 64 {
		return strings.ToValidUTF8(s[:64], "") + "..."
	}
	return s
}

// Endpoints are where a channel is reached: API is the base URL the API's own paths are
// appended to, Auth the whole token URL ("" when the channel type has none).
type Endpoints struct {
	API  string `json:"api"`
	Auth string `json:"auth"`
}

// Or returns e with each empty endpoint taken from d (the connector's defaults).
func (e Endpoints) Or(d Endpoints) Endpoints {
	if e.API == "" {
		e.API = d.API
	}
	if e.Auth == "" {
		e.Auth = d.Auth
	}
	return e
}

// Check holds each endpoint that is set to the webhook URL rule of p (https only in AWS; on
// the local stack http to a loopback host too): errs.Invalid naming endpoints.api or
// endpoints.auth.
func (e Endpoints) Check(p webhookhttp.Policy) error {
	for _, ep := range []struct{ name, url string }{{"api", e.API}, {"auth", e.Auth}} {
		if ep.url == "" {
			continue
		}
		var ue *webhookhttp.URLError
		if err := p.CheckURL(ep.url); errors.As(err, &ue) {
			// The policy's messages name the field "url".
			return errs.Invalid("endpoints.%s%s", ep.name, strings.TrimPrefix(ue.Message, "url"))
		} else if err != nil {
			return err
		}
	}
	return nil
}
