package connectors

import "context"

// Acknowledger is what a connector implements when the channel wants each new order
// acknowledged once the seller has it (Walmart's acknowledgeOrders, within four hours of the
// order): the runtime calls Acknowledge with a page's orders only after the inbox took them
// (Inbox.SendOrders succeeded), never before, so an order is acknowledged only once it is
// safely multisell's. The connector decides from each order's document which ones need it
// (those still new on the channel), so an order sent again is not acknowledged again.
//
// An error ends the poll part way at that page (its position kept): the next poll reads the
// page again, sends it again (the inbox's import is idempotent) and acknowledges what is
// still new then. A connector leaves out of its error what the channel refused for one order
// alone, so one such order does not hold up the others.
type Acknowledger interface {
	Acknowledge(ctx context.Context, s *Session, orders []Order) error
}

// acknowledge acknowledges the orders the inbox took, when the connector asks for it.
func (s *Session) acknowledge(ctx context.Context, orders []Order) error {
	a, ok := s.conn.(Acknowledger)
	if !ok || len(orders) == 0 {
		return nil
	}
	return a.Acknowledge(ctx, s, orders)
}
