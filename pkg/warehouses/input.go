package warehouses

import (
	"net/mail"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
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

// changes is a validated warehouse body: attributes to set and to clear.
type changes struct {
	set    map[string]types.AttributeValue
	remove []string
}

// parseBody validates a POST or PUT body {"warehouse": {...}}. On create the
// name is required. Errors come in the spec's per-field shape.
func parseBody(body lenient.Object, create bool) (changes, error) {
	wf := body.Field("warehouse")
	w, err := wf.Object()
	if err != nil || w == nil {
		msg := "can't be blank"
		if err != nil {
			msg = "must be an object"
		}
		return changes{}, errs.Fields(map[string][]string{"warehouse": {msg}})
	}
	c := changes{set: map[string]types.AttributeValue{}}
	problems := map[string][]string{}
	for _, tf := range textFields {
		c.text(w, tf, problems)
	}
	if _, bad := problems["name"]; create && !bad && c.set["name"] == nil {
		problems["name"] = []string{"can't be blank"}
	}
	for _, name := range []string{"enable_shipping_software", "archived"} {
		b, err := w.Field(name).Bool()
		switch {
		case err != nil:
			problems[name] = []string{"must be true or false"}
		case b != nil:
			c.set[name] = &types.AttributeValueMemberBOOL{Value: *b}
		case w.Field(name).Null():
			c.set[name] = &types.AttributeValueMemberBOOL{Value: false}
		}
	}
	if p, err := w.Field("priority").Int(); err != nil || (p != nil && (*p < 1 || *p > 1<<31-1)) {
		problems["priority"] = []string{"must be an integer greater than or equal to 1"}
	} else if p != nil {
		c.set["priority"] = &types.AttributeValueMemberN{Value: itoa(*p)}
	}
	if len(problems) > 0 {
		return changes{}, errs.Fields(problems)
	}
	return c, nil
}

// text validates one text field into c, recording its error in problems.
func (c *changes) text(w lenient.Object, tf textField, problems map[string][]string) {
	for _, name := range tf.names {
		f := w.Field(name)
		if !f.Present {
			continue
		}
		if f.Null() || isBlank(f) {
			if tf.attr == "name" {
				problems["name"] = []string{"can't be blank"}
			} else {
				c.remove = append(c.remove, tf.attr)
			}
			return
		}
		s, err := f.String()
		switch {
		case err != nil:
			problems[name] = []string{"must be a string"}
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
			c.set[tf.attr] = &types.AttributeValueMemberS{Value: v}
		}
		return
	}
}

func isBlank(f lenient.Field) bool {
	s, err := f.String()
	return err == nil && s != nil && strings.TrimSpace(*s) == ""
}
