package amazon

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/multisell/multisell/pkg/redact"
	"github.com/multisell/multisell/pkg/wire"
)

// amounts sets the order's currency and amounts from Amazon's (docs/connectors.md, "Amazon",
// the amounts' table), exactly (decimal, never float): currency the CurrencyCode of
// OrderTotal (else of the lines' amounts), subtotal the sum of the lines' ItemPrice (each
// the line's price times its quantity, as Amazon states it), shipping_cost of their
// ShippingPrice, tax of their ItemTax and ShippingTax, discount of their PromotionDiscount
// and ShippingDiscount, and total OrderTotal, else subtotal + shipping + tax - discount. An
// amount that is not a decimal number, or of another currency, fails the order.
func amounts(doc *wire.OrderDocument, o order, items []orderItem) error {
	var sum [4]decimal // subtotal, shipping, tax, discount
	cur := ""
	if o.OrderTotal != nil {
		cur = o.OrderTotal.CurrencyCode
	}
	for _, it := range items {
		for i, ms := range [4][]*money{{it.ItemPrice}, {it.ShippingPrice}, {it.ItemTax, it.ShippingTax}, {it.PromotionDiscount, it.ShippingDiscount}} {
			for _, m := range ms {
				if m == nil {
					continue
				}
				if cur == "" {
					cur = m.CurrencyCode
				}
				if m.CurrencyCode != "" && m.CurrencyCode != cur {
					return fmt.Errorf("amazon order %s: an amount in %s, another in %s", o.AmazonOrderID, redact.Clip(m.CurrencyCode, 8), redact.Clip(cur, 8))
				}
				if err := sum[i].add(m.Amount); err != nil {
					return fmt.Errorf("amazon order %s: %w", o.AmazonOrderID, err)
				}
			}
		}
	}
	doc.Currency = cur
	doc.Subtotal, doc.ShippingCost, doc.Tax, doc.Discount = sum[0].amount(), sum[1].amount(), sum[2].amount(), sum[3].amount()
	if t := o.OrderTotal.amount(); t != "" {
		var total decimal
		if err := total.add(t); err != nil {
			return fmt.Errorf("amazon order %s: OrderTotal: %w", o.AmazonOrderID, err)
		}
		doc.Total = total.amount()
		return nil
	}
	if sum[0].seen {
		var total decimal
		total.addDecimal(sum[0], 1)
		total.addDecimal(sum[1], 1)
		total.addDecimal(sum[2], 1)
		total.addDecimal(sum[3], -1)
		doc.Total = total.amount()
	}
	return nil
}

// decimal is an exact sum of decimal amounts, written with as many decimals as the most
// precise of them.
type decimal struct {
	v      big.Rat
	places int
	seen   bool
}

// add adds the decimal string s.
func (d *decimal) add(s string) error {
	var x big.Rat
	if _, ok := x.SetString(s); !ok || strings.ContainsAny(s, "eE/") {
		return fmt.Errorf("amount %q is not a decimal number", redact.Clip(s, 32))
	}
	if _, frac, ok := strings.Cut(s, "."); ok {
		d.places = max(d.places, len(frac))
	}
	d.v.Add(&d.v, &x)
	d.seen = true
	return nil
}

// addDecimal adds sign times o.
func (d *decimal) addDecimal(o decimal, sign int64) {
	if !o.seen {
		return
	}
	var x big.Rat
	x.Mul(&o.v, big.NewRat(sign, 1))
	d.v.Add(&d.v, &x)
	d.places, d.seen = max(d.places, o.places), true
}

// amount is the sum ("" when nothing was added).
func (d decimal) amount() wire.Amount {
	if !d.seen {
		return ""
	}
	return wire.Amount(d.v.FloatString(d.places))
}
