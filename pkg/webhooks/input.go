package webhooks

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/lenient"
)

// Input is the body of POST /webhooks and PUT /webhooks/{id}: the fields
// given (nil: absent; for a PUT, keep the stored value).
type Input struct {
	URL            *string
	Events         []string
	Description    *string
	DescriptionSet bool
	Active         *bool
}

// ParseInput reads {"webhook":{...}}. A creation needs url and events; an
// update takes any of the fields. urls checks the URL's form.
func ParseInput(body lenient.Object, create bool, urls URLPolicy) (Input, error) {
	w := body.Field("webhook")
	var obj lenient.Object
	if !w.Set() || json.Unmarshal(w.Raw, &obj) != nil || obj == nil {
		return Input{}, errs.Invalid("webhook must be an object")
	}
	var in Input
	var err error
	if in.URL, err = obj.Field("url").String(); err != nil {
		return Input{}, err
	}
	switch {
	case in.URL != nil:
		if err := urls.CheckURL(*in.URL); err != nil {
			return Input{}, errs.Invalid("%s", err.Error())
		}
	case create || obj.Field("url").Null():
		return Input{}, errs.Invalid("url is required")
	}
	if f := obj.Field("events"); f.Present || create {
		if in.Events, err = parseTypes(f); err != nil {
			return Input{}, err
		}
	}
	if f := obj.Field("description"); f.Present {
		if in.Description, err = f.String(); err != nil {
			return Input{}, err
		}
		if in.Description != nil && utf8.RuneCountInString(*in.Description) > maxDescription {
			return Input{}, errs.Invalid("description must be at most %d characters", maxDescription)
		}
		in.DescriptionSet = true
	}
	if f := obj.Field("active"); f.Present {
		if in.Active, err = f.Bool(); err != nil {
			return Input{}, err
		}
		if in.Active == nil {
			return Input{}, errs.Invalid("active must be true or false")
		}
	}
	return in, nil
}

// parseTypes reads the events member: a non-empty list of event types, or
// "*" for all; repeats are dropped, and a list holding "*" is ["*"] (it
// names every type already).
func parseTypes(f lenient.Field) ([]string, error) {
	if !f.Set() {
		return nil, errs.Invalid("events is required: a list of event types or [\"*\"]")
	}
	if !strings.HasPrefix(strings.TrimSpace(string(f.Raw)), "[") {
		return nil, errs.Invalid("events must be an array of event types")
	}
	list, err := f.Strings()
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, errs.Invalid("events must not be empty: list event types, or [\"*\"] for all")
	}
	out := make([]string, 0, len(list))
	for _, t := range list {
		if t != events.AllTypes && !events.KnownType(t) {
			return nil, errs.Invalid("events: unknown event type %q; the types are %s, or \"*\" for all", t, events.TypeList())
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	if slices.Contains(out, events.AllTypes) {
		return []string{events.AllTypes}, nil
	}
	return out, nil
}

// URLPolicy checks a destination URL's form; its error's text is the
// client's message (it names the url field).
type URLPolicy interface {
	CheckURL(raw string) error
}
