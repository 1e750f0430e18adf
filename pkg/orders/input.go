package orders

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/lenient"
	"github.com/multisell/multisell/pkg/money"
	"github.com/multisell/multisell/pkg/sku"
)

// Import document limits.
const (
	maxItems      = 250
	maxText       = 4096
	maxRefLength  = 255
	maxQuantity   = 1_000_000
	maxDocument   = 256 << 10
	fieldBillCo   = "billing_company_name"
	fieldBillCoV2 = "billing_company"
	fieldCurrency = "currency"
)

// Order-level fields an import document may set, by kind: the keys of
// wire.OrderDocument (a test holds that they agree). The service's own
// fields (ignoredFields) are ignored if sent; any other key refuses the
// document.
var (
	orderText = []string{
		"shipping_contact_name", "shipping_email", "shipping_company_name",
		"shipping_address_1", "shipping_address_2", "shipping_address_3", "shipping_city",
		"shipping_state_region", "shipping_postal_code", "shipping_country_code", "shipping_phone_number",
		"billing_address_1", "billing_address_2", "billing_address_3", "billing_city",
		"billing_state_region", "billing_postal_code", "billing_country", "billing_country_code",
		"billing_phone_number", "billing_contact_name", "billing_email", fieldBillCo,
		"requested_shipping_service", "requested_shipping_provider", "requested_shipping_special",
		"merchant_notes", "customer_notes",
	}
	orderNumbers = []string{"subtotal", "discount", "tax", "shipping_cost", "total"}
	orderTimes   = []string{"paid_at", "cancelled_at", "ship_by_date", "deliver_by_date"}
	itemText     = []string{"title", "status"}
	itemNumbers  = []string{"unit_price", "price", "total", "tax"}
	itemTimes    = []string{"cancelled_at"}
	// itemChannel is the line's state on the channel (channelstate.go):
	// read into docItem's own fields, not overlaid on the line.
	itemChannel = []string{fieldShipped, fieldCancelled, fieldCarrier, fieldTracking}
)

// The keys a document and a line may have besides those above: the
// identity, the message type, the alias of billing_company_name, and the
// service's own fields, which are ignored.
var (
	orderKeys     = []string{"type", "channel_uuid", "display_ref", "ordered_at", "payment_status", "items", fieldBillCoV2, fieldCurrency}
	ignoredFields = []string{"sb_order_seq", "sb_status", "shipment_status", "sb_payment_status", "shipped_at",
		"channel_name", "channel_type_display_name"}
	itemKeys          = []string{"order_item_ref", "sku", "quantity"}
	ignoredItemFields = []string{"inventory_sku", "quantity_fulfilled", "warehouses"}
)

// known is the set of keys of names.
func known(names ...[]string) map[string]bool {
	out := map[string]bool{}
	for _, ns := range names {
		for _, n := range ns {
			out[n] = true
		}
	}
	return out
}

// documentKeys and lineKeys are every key a document and a line may have.
var (
	documentKeys = known(orderKeys, ignoredFields, orderText, orderNumbers, orderTimes)
	lineKeys     = known(itemKeys, ignoredItemFields, itemText, itemNumbers, itemTimes, itemChannel)
)

// unknownKey refuses an object with a key outside keys (the first, by
// name), named with prefix: a misspelt field is an error, not a field
// silently dropped.
func unknownKey(obj lenient.Object, keys map[string]bool, prefix string) error {
	var bad []string
	for k := range obj {
		if !keys[k] {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	slices.Sort(bad)
	return invalid("%s%s is not a field of an import document", prefix, bad[0])
}

// Payment status values accepted in payment_status.
var paymentStatuses = []string{All, Partial, None}

// document is a validated import document: the identity, and the fields it
// sends (explicit nulls included) in their normalised JSON form, so a
// re-import changes exactly what it sends.
type document struct {
	ChannelUUID string
	DisplayRef  string
	OrderedAt   string
	// Payment is the payment status the document implies, "" when it says
	// nothing about payment.
	Payment string
	Fields  map[string]any
	Items   []docItem
}

// docItem is a validated line of a document.
type docItem struct {
	Ref      string
	SKU      string
	Quantity int
	Fields   map[string]any
	// Channel is what the channel says of the line's shipment and
	// cancellation.
	Channel channelLine
}

// docError is a document's validation failure: its message is the result's
// error.
type docError struct{ msg string }

func (e *docError) Error() string { return e.msg }

func invalid(format string, args ...any) error { return &docError{fmt.Sprintf(format, args...)} }

// asDocError turns an accessor's 422 into a document error.
func asDocError(err error) error {
	if e, ok := errs.As(err); ok {
		return &docError{e.Message}
	}
	return err
}

// SplitDocuments reads an import input: a JSON array of documents or a
// single document.
func SplitDocuments(b []byte) ([]json.RawMessage, error) {
	trimmed := strings.TrimSpace(string(b))
	if !json.Valid([]byte(trimmed)) {
		return nil, errors.New("import input is not valid JSON")
	}
	if strings.HasPrefix(trimmed, "[") {
		var docs []json.RawMessage
		if err := json.Unmarshal([]byte(trimmed), &docs); err != nil {
			return nil, fmt.Errorf("import input: %w", err)
		}
		return docs, nil
	}
	return []json.RawMessage{json.RawMessage(trimmed)}, nil
}

// parseDocument validates one import document (docs/orders.md, "Import").
func parseDocument(raw json.RawMessage) (*document, error) {
	if len(raw) > maxDocument {
		return nil, invalid("document is too large (limit %d KiB)", maxDocument>>10)
	}
	obj, err := lenient.DecodeObject(string(raw))
	switch {
	case errs.KindOf(err) == errs.KindInvalid:
		return nil, asDocError(err) // a duplicate key
	case err != nil:
		return nil, invalid("document must be a JSON object")
	}
	if err := unknownKey(obj, documentKeys, ""); err != nil {
		return nil, err
	}
	d := &document{Fields: map[string]any{}}
	if d.ChannelUUID, err = requiredText(obj, "channel_uuid", maxRefLength); err != nil {
		return nil, err
	}
	if d.DisplayRef, err = requiredText(obj, "display_ref", maxRefLength); err != nil {
		return nil, err
	}
	if !obj.Field("ordered_at").Set() {
		return nil, invalid("ordered_at is required")
	}
	if d.OrderedAt, err = timeField(obj.Field("ordered_at")); err != nil {
		return nil, err
	}
	if obj.Has(fieldBillCoV2) && !obj.Has(fieldBillCo) {
		obj[fieldBillCo] = obj[fieldBillCoV2]
	}
	if err := readFields(obj, d.Fields, orderText, orderNumbers, orderTimes); err != nil {
		return nil, err
	}
	if d.Payment, err = payment(obj, d.Fields); err != nil {
		return nil, err
	}
	if err := currency(obj, d.Fields); err != nil {
		return nil, err
	}
	if d.Items, err = parseItems(obj.Field("items")); err != nil {
		return nil, err
	}
	return d, nil
}

// currency reads the document's currency into fields: an ISO 4217 code,
// three letters, stored in capitals; null clears it.
func currency(obj lenient.Object, fields map[string]any) error {
	f := obj.Field(fieldCurrency)
	if !f.Present {
		return nil
	}
	s, err := f.String()
	if err != nil {
		return asDocError(err)
	}
	if s == nil {
		fields[fieldCurrency] = nil
		return nil
	}
	code := strings.ToUpper(strings.TrimSpace(*s))
	if len(code) != 3 || strings.ContainsFunc(code, func(r rune) bool { return r < 'A' || r > 'Z' }) {
		return invalid("%s must be an ISO 4217 code of three letters (USD)", fieldCurrency)
	}
	fields[fieldCurrency] = code
	return nil
}

// payment returns the payment status a document sets: payment_status if
// sent, else all when paid_at is set and none when it is null.
func payment(obj lenient.Object, fields map[string]any) (string, error) {
	s, err := obj.Field("payment_status").String()
	if err != nil {
		return "", asDocError(err)
	}
	if s != nil {
		v := strings.ToLower(strings.TrimSpace(*s))
		for _, p := range paymentStatuses {
			if v == p {
				return v, nil
			}
		}
		return "", invalid("payment_status must be one of all, partial, none")
	}
	if paid, ok := fields["paid_at"]; ok {
		if paid == nil {
			return None, nil
		}
		return All, nil
	}
	return "", nil
}

func parseItems(f lenient.Field) ([]docItem, error) {
	if !f.Set() {
		return nil, invalid("items is required")
	}
	if !strings.HasPrefix(strings.TrimSpace(string(f.Raw)), "[") {
		return nil, invalid("items must be an array")
	}
	elems, err := f.Array()
	if err != nil {
		return nil, asDocError(err)
	}
	if len(elems) == 0 {
		return nil, invalid("items must not be empty")
	}
	if len(elems) > maxItems {
		return nil, invalid("items may hold at most %d lines", maxItems)
	}
	out := make([]docItem, 0, len(elems))
	refs := map[string]bool{}
	for _, e := range elems {
		it, err := parseItem(e)
		if err != nil {
			return nil, err
		}
		if refs[it.Ref] {
			return nil, invalid("%s.order_item_ref %q appears twice", e.Name, it.Ref)
		}
		refs[it.Ref] = true
		out = append(out, it)
	}
	return out, nil
}

func parseItem(e lenient.Field) (docItem, error) {
	obj, err := e.Object()
	if err != nil || obj == nil {
		return docItem{}, invalid("%s must be an object", e.Name)
	}
	if err := unknownKey(obj, lineKeys, e.Name+"."); err != nil {
		return docItem{}, err
	}
	prefixed := lenient.Object{}
	for k, v := range obj {
		prefixed[e.Name+"."+k] = v
	}
	name := func(n string) string { return e.Name + "." + n }
	it := docItem{Fields: map[string]any{}}
	if it.Ref, err = requiredText(prefixed, name("order_item_ref"), maxRefLength); err != nil {
		return docItem{}, err
	}
	code, err := prefixed.Field(name("sku")).String()
	if err != nil {
		return docItem{}, asDocError(err)
	}
	if code == nil {
		return docItem{}, invalid("%s is required", name("sku"))
	}
	if err := sku.Check(name("sku"), *code); err != nil {
		return docItem{}, asDocError(err)
	}
	it.SKU = *code
	q, err := prefixed.Field(name("quantity")).Int()
	switch {
	case err != nil:
		return docItem{}, asDocError(err)
	case q == nil:
		return docItem{}, invalid("%s is required", name("quantity"))
	case *q < 1 || *q > maxQuantity:
		return docItem{}, invalid("%s must be an integer from 1 to %d", name("quantity"), maxQuantity)
	}
	it.Quantity = int(*q)
	if it.Channel, err = readChannelLine(prefixed, e.Name, it.Quantity); err != nil {
		return docItem{}, err
	}
	scoped := map[string]any{}
	if err := readFields(prefixed, scoped, prefix(e.Name, itemText), prefix(e.Name, itemNumbers), prefix(e.Name, itemTimes)); err != nil {
		return docItem{}, err
	}
	for k, v := range scoped {
		it.Fields[strings.TrimPrefix(k, e.Name+".")] = v
	}
	return it, nil
}

func prefix(p string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = p + "." + n
	}
	return out
}

// requiredText reads a non-blank text field of at most limit characters.
func requiredText(obj lenient.Object, name string, limit int) (string, error) {
	s, err := obj.Field(name).String()
	if err != nil {
		return "", asDocError(err)
	}
	if s == nil || strings.TrimSpace(*s) == "" {
		return "", invalid("%s is required", name)
	}
	if utf8.RuneCountInString(*s) > limit || !utf8.ValidString(*s) {
		return "", invalid("%s must be at most %d characters", name, limit)
	}
	return strings.TrimSpace(*s), nil
}

// readFields copies the present fields of obj into dst, normalised: text as
// strings, amounts as exact money.Amounts, times as RFC 3339 UTC; an explicit null as
// nil.
func readFields(obj lenient.Object, dst map[string]any, text, numbers, times []string) error {
	for _, n := range text {
		f := obj.Field(n)
		if !f.Present {
			continue
		}
		s, err := f.String()
		if err != nil {
			return asDocError(err)
		}
		if s != nil && utf8.RuneCountInString(*s) > maxText {
			return invalid("%s must be at most %d characters", n, maxText)
		}
		dst[n] = s
	}
	for _, n := range numbers {
		f := obj.Field(n)
		if !f.Present {
			continue
		}
		v, err := amountField(f)
		if err != nil {
			return err
		}
		dst[n] = v
	}
	for _, n := range times {
		f := obj.Field(n)
		if !f.Present {
			continue
		}
		if f.Null() {
			dst[n] = nil
			continue
		}
		s, err := timeField(f)
		if err != nil {
			return err
		}
		dst[n] = s
	}
	return nil
}

// amountField reads a money amount exactly (pkg/money): a JSON number or a
// numeric string; nil for null.
func amountField(f lenient.Field) (*money.Amount, error) {
	if f.Null() {
		return nil, nil
	}
	s, err := f.String()
	if err != nil {
		return nil, invalid("%s must be a number", f.Name)
	}
	a, err := money.Parse(*s)
	switch {
	case errors.Is(err, money.ErrPrecision):
		return nil, invalid("%s must have at most %d decimal places and be at most %d", f.Name, money.Scale, int64(money.Limit))
	case err != nil:
		return nil, invalid("%s must be a number", f.Name)
	}
	return &a, nil
}

// timeField reads an ISO 8601 time into its output form.
func timeField(f lenient.Field) (string, error) {
	s, err := f.String()
	if err != nil || s == nil {
		return "", invalid("%s must be an ISO 8601 date-time", f.Name)
	}
	t, ok := isotime.Parse(*s)
	if !ok || t.Year() < 1 || t.Year() > 9999 {
		return "", invalid("%s must be an ISO 8601 date-time", f.Name)
	}
	return isotime.Format(t), nil
}

// overlay sets the fields of dst (a struct with json tags) that fields
// names, keeping the others: a JSON round trip.
func overlay[T any](dst *T, fields map[string]any) error {
	b, err := json.Marshal(dst)
	if err != nil {
		return fmt.Errorf("overlay: %w", err)
	}
	m := map[string]any{}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // amounts keep their digits
	if err := dec.Decode(&m); err != nil {
		return fmt.Errorf("overlay: %w", err)
	}
	for k, v := range fields {
		m[k] = v
	}
	if b, err = json.Marshal(m); err != nil {
		return fmt.Errorf("overlay: %w", err)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		return fmt.Errorf("overlay: %w", err)
	}
	*dst = out
	return nil
}
