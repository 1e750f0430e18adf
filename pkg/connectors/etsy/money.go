package etsy

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/multisell/multisell/pkg/money"
)

// amountOf is Etsy's Money as an exact amount: amount over divisor, which must be a
// positive power of ten or another divisor the amount's decimals end within money.Scale
// places ("an amount is not exact" otherwise: never rounded, never a float).
func amountOf(m *Money) (money.Amount, error) {
	if m == nil {
		return 0, nil
	}
	if m.Divisor <= 0 {
		return 0, fmt.Errorf("money with divisor %d", m.Divisor)
	}
	r := new(big.Rat).SetFrac(big.NewInt(m.Amount), big.NewInt(m.Divisor))
	if !new(big.Rat).Mul(r, big.NewRat(1_000_000, 1)).IsInt() {
		return 0, fmt.Errorf("%d/%d is not an exact decimal amount", m.Amount, m.Divisor)
	}
	return money.Parse(r.FloatString(money.Scale))
}

// errCurrencies is the error of an order of amounts in more than one currency.
var errCurrencies = errors.New("amounts in more than one currency")

// amounts converts Etsy's Money into the document's amounts, keeping the one currency they
// share ("" for none given).
type amounts struct {
	currency string
	err      error
}

// value is m as an amount, and whether there is one (m given and readable), recording its
// currency and the first error.
func (a *amounts) value(m *Money) (money.Amount, bool) {
	if m == nil || a.err != nil {
		return 0, false
	}
	v, err := amountOf(m)
	switch {
	case err != nil:
		a.err = err
		return 0, false
	case m.CurrencyCode == "":
	case a.currency == "":
		a.currency = m.CurrencyCode
	case a.currency != m.CurrencyCode:
		a.err = errCurrencies
		return 0, false
	}
	return v, true
}
