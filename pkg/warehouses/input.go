package warehouses

import (
	"errors"
	"net/mail"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
)

// maxText is the longest text value a warehouse field takes.
const maxText = 255

// textField is a writable text field: the request names it accepts and the
// stored attribute.
type textField struct {
	names []string
	attr  string
	check func(string) (string, bool)
}

var countryCode = regexp.MustCompile(`^[A-Za-z]{2}$`)

var textFields = []textField{
	{names: []string{"name"}, attr: "name"},
	{names: []string{"sender_name"}, attr: "sender_name"},
	{names: []string{"company_name"}, attr: "company_name"},
	{names: []string{"email"}, attr: "email", check: func(s string) (string, bool) {
		a, err := mail.ParseAddress(s)
		return s, err == nil && a.Address == s && strings.Contains(s[strings.IndexByte(s, '@'):], ".")
	}},
	{names: []string{"phone_number"}, attr: "phone_number"},
	{names: []string{"address_1"}, attr: "address_1"},
	{names: []string{"address_2"}, attr: "address_2"},
	{names: []string{"postal_code"}, attr: "postal_code"},
	{names: []string{"city"}, attr: "city"},
	{names: []string{"region", "state_region"}, attr: "state_region"},
	{names: []string{"country_code"}, attr: "country_code", check: func(s string) (string, bool) {
		return strings.ToUpper(s), countryCode.MatchString(s)
	}},
}

// Input is a warehouse to create or the change to one: the text fields it
// sets, by the name stored and returned (state_region, not region), the
// flags and the priority it sets (nil leaves them as they are), and the
// optional text fields it clears. A create needs the name.
type Input struct {
	Text                             map[string]string
	EnableShippingSoftware, Archived *bool
	Priority                         *int
	Clear                            []string
}

// empty reports whether in changes nothing.
func (in Input) empty() bool {
	return len(in.Text) == 0 && len(in.Clear) == 0 && in.EnableShippingSoftware == nil && in.Archived == nil && in.Priority == nil
}

// archives reports whether in sets archived to true.
func (in Input) archives() bool { return in.Archived != nil && *in.Archived }

// check holds an Input that was not parsed from a body (the demo's) to what
// parseBody guarantees: known text fields, the name never cleared or blank
// and present on create, a priority of at least 1.
func (in Input) check(create bool) error {
	problems := map[string][]string{}
	for attr, v := range in.Text {
		if !knownText(attr) {
			problems[attr] = []string{"is not a warehouse field"}
		} else if strings.TrimSpace(v) == "" {
			problems[attr] = []string{"can't be blank"}
		}
	}
	for _, attr := range in.Clear {
		if attr == "name" || !knownText(attr) {
			problems[attr] = []string{"can't be cleared"}
		}
	}
	if _, ok := in.Text["name"]; create && !ok {
		problems["name"] = []string{"can't be blank"}
	}
	if in.Priority != nil && *in.Priority < 1 {
		problems["priority"] = []string{"must be an integer greater than or equal to 1"}
	}
	if len(problems) > 0 {
		return errs.Fields(problems)
	}
	return nil
}

// knownText reports whether attr is a writable text field.
func knownText(attr string) bool {
	for _, tf := range textFields {
		if tf.attr == attr {
			return true
		}
	}
	return false
}

// parseBody validates a POST or PUT body {"warehouse": {...}}. On create the
// name is required. Errors come in the API's per-field shape.
func parseBody(body lenient.Object, create bool) (Input, error) {
	wf := body.Field("warehouse")
	w, err := wf.Object()
	if err != nil || w == nil {
		msg := "can't be blank"
		if err != nil {
			msg = "must be an object"
		}
		return Input{}, errs.Fields(map[string][]string{"warehouse": {msg}})
	}
	in := Input{Text: map[string]string{}}
	problems := map[string][]string{}
	for _, tf := range textFields {
		in.text(w, tf, problems)
	}
	if _, bad := problems["name"]; create && !bad && in.Text["name"] == "" {
		problems["name"] = []string{"can't be blank"}
	}
	for _, flag := range []struct {
		name string
		to   **bool
	}{{"enable_shipping_software", &in.EnableShippingSoftware}, {"archived", &in.Archived}} {
		b, err := w.Field(flag.name).Bool()
		switch {
		case err != nil:
			problems[flag.name] = []string{"must be true or false"}
		case b != nil:
			*flag.to = b
		case w.Field(flag.name).Null():
			*flag.to = new(bool)
		}
	}
	if p, err := w.Field("priority").Int(); err != nil || (p != nil && (*p < 1 || *p > 1<<31-1)) {
		problems["priority"] = []string{"must be an integer greater than or equal to 1"}
	} else if p != nil {
		n := int(*p)
		in.Priority = &n
	}
	if len(problems) > 0 {
		return Input{}, errs.Fields(problems)
	}
	return in, nil
}

// text validates one text field into in, recording its error in problems.
func (in *Input) text(w lenient.Object, tf textField, problems map[string][]string) {
	for _, name := range tf.names {
		f := w.Field(name)
		if !f.Present {
			continue
		}
		if f.Null() || isBlank(f) {
			if tf.attr == "name" {
				problems["name"] = []string{"can't be blank"}
			} else {
				in.Clear = append(in.Clear, tf.attr)
			}
			return
		}
		s, err := f.String()
		var fe *lenient.FieldError // String's errors are FieldErrors
		switch {
		case errors.As(err, &fe):
			problems[name] = []string{fe.Problem}
		case utf8.RuneCountInString(*s) > maxText:
			problems[name] = []string{"is too long (maximum is 255 characters)"}
		default:
			v := strings.TrimSpace(*s)
			ok := true
			if tf.check != nil {
				v, ok = tf.check(v)
			}
			if !ok {
				problems[name] = []string{"is invalid"}
				return
			}
			in.Text[tf.attr] = v
		}
		return
	}
}

func isBlank(f lenient.Field) bool {
	s, err := f.String()
	return err == nil && s != nil && strings.TrimSpace(*s) == ""
}
