package amazon

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
)

// resumePrefix marks a page token of the connector's own (resume), told apart from
// Amazon's NextToken.
const resumePrefix = "multisell-resume."

// resume is where a getOrders page cut short by getOrderItems' limit goes on: the page
// (Amazon's NextToken of it, or for the first page the LastUpdatedAfter it was asked with),
// how many of its orders (oldest change first) were done, and the last one done.
type resume struct {
	Next   string `json:"n,omitempty"`
	Since  string `json:"s,omitempty"`
	Offset int    `json:"o"`
	Last   string `json:"l"`
}

// token is r as a page token.
func (r resume) token() string {
	b, _ := json.Marshal(r)
	return resumePrefix + base64.RawURLEncoding.EncodeToString(b)
}

// parseResume reads a page token: the connector's own (resume), or Amazon's NextToken as
// a resume of none of its orders done ("" for the first page).
func parseResume(page string) (resume, error) {
	raw, ok := strings.CutPrefix(page, resumePrefix)
	if !ok {
		return resume{Next: page}, nil
	}
	var r resume
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err == nil {
		err = json.Unmarshal(b, &r)
	}
	if err != nil || r.Offset < 0 || (r.Next == "") == (r.Since == "") {
		return resume{}, fmt.Errorf("amazon getOrders: page token %.40q is not one of the connector's", page)
	}
	return r, nil
}

// skip is the index of the first order of the page read again not done: Offset when the
// order before it is still the last one done, else 0 (the page changed since: every order
// is read again, the import being idempotent, rather than one skipped).
func (r resume) skip(orders []order) int {
	if r.Offset > 0 && r.Offset <= len(orders) && orders[r.Offset-1].AmazonOrderID == r.Last {
		return r.Offset
	}
	return 0
}
