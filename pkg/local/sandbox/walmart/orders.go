package walmart

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/local/sandbox"
)

// MaxLimit is getAllOrders' most orders a page ("Cannot be larger than 200").
const MaxLimit = 200

// lastModified is an order's last change: its lines' latest statusDate, at least its
// orderDate.
func lastModified(o *PurchaseOrder) int64 {
	t := o.OrderDate
	for _, l := range o.OrderLines.OrderLine {
		t = max(t, l.StatusDate)
	}
	return t
}

// parseDate reads a date of getAllOrders' query: yyyy-MM-dd or ISO 8601 (UTC), as Walmart
// documents; "" is zero.
func parseDate(v string) (time.Time, bool) {
	if v == "" {
		return time.Time{}, true
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t, true
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	return t, err == nil
}

// getAllOrders serves getAllOrders: the seller's orders changed from lastModifiedStartDate
// to before lastModifiedEndDate ("modified before this date"; now by default) (created from createdStartDate; by default created in the last 7
// days, as Walmart's default), oldest change first, limit (1 to 200, 100 by default) at a
// time. A page that has more after it answers meta.nextCursor: the query of the next page,
// which carries the page's last order (soIndex, poIndex) and pins lastModifiedEndDate at the
// first page's time, so the pages of one walk are of one window.
func (s *Sandbox) getAllOrders(w http.ResponseWriter, r *http.Request, sl *Seller) {
	q := r.URL.Query()
	limit := 100
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxLimit {
			writeError(w, http.StatusBadRequest, "INVALID_REQUEST_PARAM", "limit cannot be larger than 200")
			return
		}
		limit = n
	}
	from, ok1 := parseDate(q.Get("lastModifiedStartDate"))
	to, ok2 := parseDate(q.Get("lastModifiedEndDate"))
	created, ok3 := parseDate(q.Get("createdStartDate"))
	if !ok1 || !ok2 || !ok3 {
		writeError(w, http.StatusBadRequest, "INVALID_REQUEST_PARAM", "dates must be yyyy-MM-dd or yyyy-MM-ddTHH:mm:ssZ")
		return
	}
	if from.IsZero() && created.IsZero() {
		created = time.Now().Add(-7 * 24 * time.Hour)
	}
	if to.IsZero() {
		to = time.Now()
	}
	afterAt, afterPO := int64(-1), ""
	if q.Get("hasMoreElements") != "" {
		n, err := strconv.ParseInt(q.Get("soIndex"), 10, 64)
		if err != nil || q.Get("poIndex") == "" {
			writeError(w, http.StatusBadRequest, "INVALID_REQUEST_PARAM", "soIndex and poIndex come only from a nextCursor")
			return
		}
		afterAt, afterPO = n, q.Get("poIndex")
	}
	var match []*PurchaseOrder
	for _, o := range sl.Orders {
		at := lastModified(o)
		if at < from.UnixMilli() || at >= to.UnixMilli() || o.OrderDate < created.UnixMilli() {
			continue
		}
		match = append(match, o)
	}
	slices.SortFunc(match, func(a, b *PurchaseOrder) int {
		return cmp.Or(cmp.Compare(lastModified(a), lastModified(b)), strings.Compare(a.PurchaseOrderID, b.PurchaseOrderID))
	})
	start := 0
	for start < len(match) && (lastModified(match[start]) < afterAt ||
		lastModified(match[start]) == afterAt && match[start].PurchaseOrderID <= afterPO) {
		start++
	}
	page := match[start:min(start+limit, len(match))]
	var out struct {
		List struct {
			Meta struct {
				TotalCount int    `json:"totalCount"`
				Limit      int    `json:"limit"`
				NextCursor string `json:"nextCursor,omitempty"`
			} `json:"meta"`
			Elements struct {
				Order []*PurchaseOrder `json:"order"`
			} `json:"elements"`
		} `json:"list"`
	}
	out.List.Meta.TotalCount, out.List.Meta.Limit = len(match), len(page)
	out.List.Elements.Order = page
	if start+limit < len(match) {
		last := page[len(page)-1]
		next := url.Values{"limit": {strconv.Itoa(limit)}, "hasMoreElements": {"true"},
			"soIndex": {strconv.FormatInt(lastModified(last), 10)}, "poIndex": {last.PurchaseOrderID},
			"lastModifiedEndDate": {to.UTC().Format(time.RFC3339Nano)}}
		if !from.IsZero() {
			next.Set("lastModifiedStartDate", from.UTC().Format(time.RFC3339Nano))
		}
		if !created.IsZero() {
			next.Set("createdStartDate", created.UTC().Format(time.RFC3339Nano))
		}
		out.List.Meta.NextCursor = "?" + next.Encode()
	}
	sandbox.WriteJSON(w, http.StatusOK, out)
}

// order is the seller's purchase order of the path, or Walmart's 404 and nil.
func order(w http.ResponseWriter, r *http.Request, sl *Seller) *PurchaseOrder {
	o := sl.Orders[r.PathValue("purchaseOrderId")]
	if o == nil {
		writeError(w, http.StatusNotFound, "CONTENT_NOT_FOUND.GMP_ORDER_API", "purchase order "+r.PathValue("purchaseOrderId")+" not found")
	}
	return o
}

// answerOrder answers {"order": o}.
func answerOrder(w http.ResponseWriter, o *PurchaseOrder) {
	sandbox.WriteJSON(w, http.StatusOK, map[string]any{"order": o})
}

// getAnOrder serves getAnOrder.
func (s *Sandbox) getAnOrder(w http.ResponseWriter, r *http.Request, sl *Seller) {
	if o := order(w, r, sl); o != nil {
		answerOrder(w, o)
	}
}

// units is how many units of a line are in each status.
func units(l *OrderLine) map[string]int64 {
	out := map[string]int64{}
	for _, st := range l.OrderLineStatuses.OrderLineStatus {
		n, _ := strconv.ParseInt(st.StatusQuantity.Amount, 10, 64)
		out[st.Status] += n
	}
	return out
}

// acknowledge serves acknowledgeOrders: the order's Created units become Acknowledged.
// Walmart's rules: an order with units shipped (Shipped, Delivered, Refund) is not
// acknowledged (400), nor one cancelled whole; one already Acknowledged may be again.
func (s *Sandbox) acknowledge(w http.ResponseWriter, r *http.Request, sl *Seller) {
	o := order(w, r, sl)
	if o == nil {
		return
	}
	open := false
	for i := range o.OrderLines.OrderLine {
		u := units(&o.OrderLines.OrderLine[i])
		if u["Shipped"]+u["Delivered"]+u["Refund"] > 0 {
			writeError(w, http.StatusBadRequest, "INVALID_REQUEST_CONTENT.GMP_ORDER_API", "orders with line items that are shipped can't be acknowledged")
			return
		}
		open = open || u["Created"]+u["Acknowledged"] > 0
	}
	if !open {
		writeError(w, http.StatusBadRequest, "INVALID_REQUEST_CONTENT.GMP_ORDER_API", "orders with every line cancelled can't be acknowledged")
		return
	}
	now := time.Now().UnixMilli()
	for i := range o.OrderLines.OrderLine {
		l := &o.OrderLines.OrderLine[i]
		if u := units(l); u["Created"] > 0 {
			move(l, "Created", "Acknowledged", u["Created"], nil)
			l.StatusDate = now
		}
	}
	sl.Acks[o.PurchaseOrderID]++
	s.Save()
	answerOrder(w, o)
}

// move moves n units of line l from the status from to the status to (with tracking for
// Shipped), merging with the line's statuses of the same kind and tracking.
func move(l *OrderLine, from, to string, n int64, tracking *TrackingInfoType) {
	var out []OrderLineStatus
	left := n
	for _, st := range l.OrderLineStatuses.OrderLineStatus {
		q, _ := strconv.ParseInt(st.StatusQuantity.Amount, 10, 64)
		if st.Status == from && left > 0 {
			take := min(q, left)
			q, left = q-take, left-take
		}
		if q > 0 {
			st.StatusQuantity.Amount = strconv.FormatInt(q, 10)
			out = append(out, st)
		}
	}
	for i := range out {
		if out[i].Status == to && tracking == nil && out[i].TrackingInfo == nil {
			q, _ := strconv.ParseInt(out[i].StatusQuantity.Amount, 10, 64)
			out[i].StatusQuantity.Amount = strconv.FormatInt(q+n, 10)
			l.OrderLineStatuses.OrderLineStatus = out
			return
		}
	}
	l.OrderLineStatuses.OrderLineStatus = append(out, OrderLineStatus{Status: to,
		StatusQuantity: QuantityType{UnitOfMeasurement: "EACH", Amount: strconv.FormatInt(n, 10)}, TrackingInfo: tracking})
}

// open is how many units of a line are still to ship (Created or Acknowledged).
func open(l *OrderLine) int64 {
	u := units(l)
	return u["Created"] + u["Acknowledged"]
}

// ship moves n open units of a line (Acknowledged first) to Shipped with tracking.
func ship(l *OrderLine, n int64, t *TrackingInfoType) {
	ack := min(units(l)["Acknowledged"], n)
	if ack > 0 {
		move(l, "Acknowledged", "Shipped", ack, t)
	}
	if n-ack > 0 {
		move(l, "Created", "Shipped", n-ack, t)
	}
}

// shipping serves shippingUpdates: each line of the body ships its Shipped quantity with its
// tracking, after Walmart's checks (shipLine); nothing is changed unless every line passes.
func (s *Sandbox) shipping(w http.ResponseWriter, r *http.Request, sl *Seller) {
	o := order(w, r, sl)
	if o == nil {
		return
	}
	var in OrderShipment
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&in); err != nil || in.OrderShipment == nil ||
		in.OrderShipment.OrderLines == nil || len(in.OrderShipment.OrderLines.OrderLine) == 0 {
		writeError(w, http.StatusBadRequest, "INVALID_REQUEST_CONTENT.GMP_ORDER_API", "orderShipment.orderLines.orderLine is required")
		return
	}
	type shipOne struct {
		line *OrderLine
		n    int64
		t    TrackingInfoType
	}
	var todo []shipOne
	asked := map[string]int64{}
	for _, sh := range in.OrderShipment.OrderLines.OrderLine {
		var line *OrderLine
		for i := range o.OrderLines.OrderLine {
			if o.OrderLines.OrderLine[i].LineNumber == sh.LineNumber {
				line = &o.OrderLines.OrderLine[i]
			}
		}
		if line == nil {
			writeError(w, http.StatusBadRequest, "INVALID_REQUEST_CONTENT.GMP_ORDER_API", "order "+o.PurchaseOrderID+" has no line "+sh.LineNumber)
			return
		}
		if sh.SellerOrderID == "" || len(sh.SellerOrderID) > 30 {
			writeError(w, http.StatusBadRequest, "INVALID_REQUEST_CONTENT.GMP_ORDER_API", "sellerOrderId is required, at most 30 characters")
			return
		}
		for _, st := range sh.OrderLineStatuses.OrderLineStatus {
			n, msg := shipLine(st)
			if msg == "" && asked[sh.LineNumber]+n > open(line) {
				msg = fmt.Sprintf("line %s has %d units to ship, not %d", sh.LineNumber, open(line), asked[sh.LineNumber]+n)
			}
			if msg != "" {
				writeError(w, http.StatusBadRequest, "INVALID_REQUEST_CONTENT.GMP_ORDER_API", msg)
				return
			}
			asked[sh.LineNumber] += n
			todo = append(todo, shipOne{line, n, *st.TrackingInfo})
		}
	}
	now := time.Now().UnixMilli()
	for _, x := range todo {
		t := x.t
		ship(x.line, x.n, &t)
		x.line.StatusDate = now
	}
	sl.Shipments[o.PurchaseOrderID]++
	s.Save()
	answerOrder(w, o)
}

// shipLine checks one status of a shipping update against Walmart's rules and returns its
// quantity, or the refusal's message: status Shipped, a quantity of EACH from 1, and
// trackingInfo with shipDateTime, methodCode of Walmart's codes, trackingNumber, and either
// carrier of Walmart's list or otherCarrier with a trackingURL.
func shipLine(st OrderLineStatus) (int64, string) {
	n, err := strconv.ParseInt(st.StatusQuantity.Amount, 10, 64)
	t := st.TrackingInfo
	switch {
	case st.Status != "Shipped":
		return 0, "status must be Shipped"
	case err != nil || n < 1 || (st.StatusQuantity.UnitOfMeasurement != "EACH" && st.StatusQuantity.UnitOfMeasurement != "EA"):
		return 0, "statusQuantity must be a quantity of EACH from 1"
	case t == nil || t.ShipDateTime <= 0 || t.TrackingNumber == "":
		return 0, "trackingInfo with shipDateTime and trackingNumber is required"
	case !slices.Contains(methodCodes, t.MethodCode):
		return 0, "methodCode must be one of " + strings.Join(methodCodes, ", ")
	case t.CarrierName.Carrier != "" && t.CarrierName.OtherCarrier != "":
		return 0, "carrierName takes carrier or otherCarrier, not both"
	case t.CarrierName.Carrier != "" && !carriers[t.CarrierName.Carrier]:
		return 0, "carrier " + t.CarrierName.Carrier + " is not one of Walmart's; use otherCarrier"
	case t.CarrierName.Carrier == "" && t.CarrierName.OtherCarrier == "":
		return 0, "carrierName needs carrier or otherCarrier"
	case t.CarrierName.OtherCarrier != "" && t.TrackingURL == "":
		return 0, "trackingURL is required with otherCarrier"
	}
	return n, ""
}
