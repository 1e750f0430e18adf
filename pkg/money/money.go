// Package money holds exact amounts of money: a fixed-point integer of
// millionths, read from and written as decimal text (docs/orders.md,
// "Money"). No amount is ever a float64.
package money

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Scale is how many decimal places an Amount keeps: more than any channel's
// currency has (three for the dinars, two for most), so no channel's digits
// are lost.
const Scale = 6

// unit is one whole currency unit in millionths.
const unit = 1_000_000

// Limit is the largest magnitude an Amount holds: a trillion units.
const Limit = 1_000_000_000_000

// Amount is an exact amount of money in millionths of its currency's unit.
// It reads and writes JSON as a number, DynamoDB as a number (N) with its
// decimal text, and prints without trailing zeros ("0.6", "12.5", "3").
type Amount int64

// ErrNotAmount is the error of a text that is not a decimal amount; an
// ErrPrecision is one too.
var ErrNotAmount = errors.New("not a decimal amount")

// ErrPrecision is the error of a decimal number an Amount cannot hold
// exactly: more than Scale decimal places, or a magnitude over Limit.
var ErrPrecision = fmt.Errorf("%w: too precise or too large", ErrNotAmount)

// Parse reads a decimal number ("12.50", "-3", "1e2") exactly: an amount of
// more than Scale decimal places, or of a magnitude over Limit, is an error.
func Parse(s string) (Amount, error) {
	s = strings.TrimSpace(s)
	r, ok := new(big.Rat).SetString(s)
	if !ok || s == "" || strings.ContainsAny(s, "/_xXpP") || strings.EqualFold(strings.TrimLeft(s, "+-"), "inf") {
		return 0, fmt.Errorf("%q: %w", s, ErrNotAmount)
	}
	r.Mul(r, big.NewRat(unit, 1))
	if !r.IsInt() {
		return 0, fmt.Errorf("%q has more than %d decimal places: %w", s, Scale, ErrPrecision)
	}
	n := r.Num()
	if n.CmpAbs(big.NewInt(Limit*unit)) > 0 {
		return 0, fmt.Errorf("%q is over %d: %w", s, Limit, ErrPrecision)
	}
	return Amount(n.Int64()), nil
}

// Cents is the amount of c hundredths.
func Cents(c int64) Amount { return Amount(c * (unit / 100)) }

// String is the amount's decimal text, without trailing zeros.
func (a Amount) String() string {
	v := int64(a)
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	whole, frac := v/unit, v%unit
	if frac == 0 {
		return sign + strconv.FormatInt(whole, 10)
	}
	f := strings.TrimRight(fmt.Sprintf("%06d", frac), "0")
	return sign + strconv.FormatInt(whole, 10) + "." + f
}

// MarshalJSON writes the amount as a JSON number.
func (a Amount) MarshalJSON() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalJSON reads a JSON number, or a string holding one.
func (a *Amount) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("amount: %w", err)
		}
	}
	v, err := Parse(s)
	if err != nil {
		return err
	}
	*a = v
	return nil
}

// MarshalDynamoDBAttributeValue stores the amount as a number with its
// decimal text, which DynamoDB keeps exactly.
func (a Amount) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return &types.AttributeValueMemberN{Value: a.String()}, nil
}

// UnmarshalDynamoDBAttributeValue reads a stored number (or the decimal text
// of one, as a float64 once wrote it).
func (a *Amount) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	var s string
	switch v := av.(type) {
	case *types.AttributeValueMemberN:
		s = v.Value
	case *types.AttributeValueMemberS:
		s = v.Value
	default:
		return fmt.Errorf("amount: unexpected attribute %T", av)
	}
	p, err := Parse(s)
	if err != nil {
		return fmt.Errorf("stored amount: %w", err)
	}
	*a = p
	return nil
}
