package channels

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
)

// ParseUpdate reads the body of PUT /channels/{uuid},
// {"channel":{"inventory_rules":{...}}}, into the channel's new rules
// (absent rule fields take their defaults). Other channel fields are
// ignored: a channel's name, type and state come from its connector.
func ParseUpdate(body lenient.Object) (Rules, error) {
	obj, err := channelObject(body)
	if err != nil {
		return Rules{}, err
	}
	rules := obj.Field("inventory_rules")
	if !rules.Present {
		return Rules{}, errs.Invalid("channel.inventory_rules is required")
	}
	rules.Name = "inventory_rules"
	return ParseRules(rules)
}

// MaxConnectBody is the largest body of POST and PATCH /channels: a name, a
// type, endpoints and credentials of at most secrets' 16 KiB.
const MaxConnectBody = 32 << 10

// Limits of a connected channel's fields, in characters.
const (
	maxName     = 200
	maxType     = 64
	maxEndpoint = 2048
)

// channelObject reads the body's "channel" object.
func channelObject(body lenient.Object) (lenient.Object, error) {
	ch := body.Field("channel")
	var obj lenient.Object
	if !ch.Set() || json.Unmarshal(ch.Raw, &obj) != nil || obj == nil {
		return nil, errs.Invalid("channel must be an object")
	}
	return obj, nil
}

// field is the member name of the channel object, named for errors.
func field(obj lenient.Object, name string) lenient.Field {
	f := obj.Field(name)
	f.Name = "channel." + name
	return f
}

// text reads a required string member of at most max characters.
func text(obj lenient.Object, name string, max int) (string, error) {
	f := field(obj, name)
	s, err := f.String()
	if err != nil {
		return "", err
	}
	if s == nil || strings.TrimSpace(*s) == "" {
		return "", errs.Invalid("%s is required", f.Name)
	}
	if utf8.RuneCountInString(*s) > max {
		return "", errs.Invalid("%s must be at most %d characters", f.Name, max)
	}
	return *s, nil
}

// credentials reads the credentials member: a JSON object, returned compact
// (its fields are the connector's to check). Its values are never quoted.
func credentials(obj lenient.Object) ([]byte, error) {
	f := field(obj, "credentials")
	if !f.Set() {
		return nil, errs.Invalid("%s is required", f.Name)
	}
	if _, err := f.Object(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := json.Compact(&b, f.Raw); err != nil {
		return nil, errs.Invalid("%s must be an object", f.Name)
	}
	return b.Bytes(), nil
}

// ParseConnect reads the body of POST /channels,
// {"channel":{"name","type","credentials":{...},"endpoints":{"api","auth"}}}.
// The credentials' own fields and the endpoints' URLs are the connector's
// to check (Verifier).
func ParseConnect(body lenient.Object) (ConnectInput, error) {
	obj, err := channelObject(body)
	if err != nil {
		return ConnectInput{}, err
	}
	var in ConnectInput
	if in.Name, err = text(obj, "name", maxName); err != nil {
		return ConnectInput{}, err
	}
	if in.Type, err = text(obj, "type", maxType); err != nil {
		return ConnectInput{}, err
	}
	if in.Credentials, err = credentials(obj); err != nil {
		return ConnectInput{}, err
	}
	ep := field(obj, "endpoints")
	eps, err := ep.Object()
	if err != nil {
		return ConnectInput{}, err
	}
	for k := range eps {
		if k != "api" && k != "auth" {
			return ConnectInput{}, errs.Invalid("channel.endpoints takes api and auth only")
		}
	}
	for _, e := range []struct {
		name string
		dst  *string
	}{{"api", &in.Endpoints.API}, {"auth", &in.Endpoints.Auth}} {
		f := eps.Field(e.name)
		f.Name = "channel.endpoints." + e.name
		s, err := f.String()
		if err != nil {
			return ConnectInput{}, err
		}
		if s != nil && utf8.RuneCountInString(*s) > maxEndpoint {
			return ConnectInput{}, errs.Invalid("%s must be at most %d characters", f.Name, maxEndpoint)
		}
		if s != nil {
			*e.dst = *s
		}
	}
	return in, nil
}

// ParsePatch reads the body of PATCH /channels/{uuid},
// {"channel":{"state":"active"|"inactive","credentials":{...}}}: at least
// one of them.
func ParsePatch(body lenient.Object) (PatchInput, error) {
	obj, err := channelObject(body)
	if err != nil {
		return PatchInput{}, err
	}
	var in PatchInput
	if st := field(obj, "state"); st.Set() {
		s, err := st.String()
		if err != nil || (*s != StateActive && *s != StateInactive) {
			return PatchInput{}, errs.Invalid("channel.state must be active or inactive (DELETE disconnects a channel)")
		}
		in.State = *s
	}
	if field(obj, "credentials").Set() {
		if in.Credentials, err = credentials(obj); err != nil {
			return PatchInput{}, err
		}
	}
	if in.State == "" && in.Credentials == nil {
		return PatchInput{}, errs.Invalid("channel.state or channel.credentials is required")
	}
	return in, nil
}
