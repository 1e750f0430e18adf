package ebay

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/multisell/multisell/pkg/wire"
)

// cents is an eBay amount in hundredths, and whether it is one ("19.99", "-2.5", "3"); an
// amount with more than two decimals, or none, is not.
func cents(a *Amount) (int64, bool) {
	if a == nil || a.Value == "" {
		return 0, a == nil
	}
	v := strings.TrimSpace(a.Value)
	neg := strings.HasPrefix(v, "-")
	whole, frac, _ := strings.Cut(strings.TrimPrefix(v, "-"), ".")
	if len(frac) > 2 || whole == "" && frac == "" {
		return 0, false
	}
	frac += strings.Repeat("0", 2-len(frac))
	n, err := strconv.ParseInt(cmp.Or(whole, "0")+frac, 10, 64)
	if err != nil || n < 0 {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

// abs is |n|.
func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// totals sets the order document's currency and money from eBay's pricingSummary, as
// docs/connectors.md ("eBay", order totals) defines them: subtotal is priceSubtotal plus
// adjustment, discount the item and delivery discounts (without eBay's minus sign),
// shipping_cost deliveryCost, total eBay's total, and tax all the rest of eBay's total (its
// tax, its special fees and, with fieldGroups=TAX_BREAKDOWN, the tax eBay collects and
// remits), so that subtotal - discount + shipping_cost + tax is total to the cent. Amounts
// that are not two-decimal numbers are passed on as eBay writes them.
func totals(d *wire.OrderDocument, p *PricingSummary) {
	if p == nil {
		return
	}
	for _, a := range []*Amount{p.Total, p.PriceSubtotal} {
		if a != nil && a.Currency != "" {
			d.Currency = a.Currency
			break
		}
	}
	sub, ok1 := cents(p.PriceSubtotal)
	adj, ok2 := cents(p.Adjustment)
	disc, ok3 := cents(p.PriceDiscount)
	ddisc, ok4 := cents(p.DeliveryDiscount)
	ship, ok5 := cents(p.DeliveryCost)
	total, ok6 := cents(p.Total)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || p.Total == nil || p.PriceSubtotal == nil {
		d.Subtotal, d.Discount, d.ShippingCost = money(p.PriceSubtotal), money(p.PriceDiscount), money(p.DeliveryCost)
		d.Tax, d.Total = money(p.Tax), money(p.Total)
		return
	}
	discount := abs(disc) + abs(ddisc)
	d.Subtotal, d.ShippingCost, d.Total = wire.Cents(sub+adj), wire.Cents(ship), wire.Cents(total)
	if discount != 0 || p.PriceDiscount != nil || p.DeliveryDiscount != nil {
		d.Discount = wire.Cents(discount)
	}
	if tax := total - (sub + adj) - ship + discount; tax != 0 || p.Tax != nil {
		d.Tax = wire.Cents(tax)
	}
}
