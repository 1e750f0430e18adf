package store

import "regexp"

// namePlaceholder is an expression attribute name placeholder: # followed by
// the attribute name itself, as in "#on_hand".
var namePlaceholder = regexp.MustCompile(`#([A-Za-z0-9_]+)`)

// Names returns the ExpressionAttributeNames of expressions written with
// placeholders that spell the attribute ("SET #on_hand = :x" maps "#on_hand"
// to "on_hand"), so no attribute ever collides with a DynamoDB reserved word
// and no unused name is sent. It returns nil when there is none.
func Names(exprs ...string) map[string]string {
	var out map[string]string
	for _, e := range exprs {
		for _, m := range namePlaceholder.FindAllStringSubmatch(e, -1) {
			if out == nil {
				out = map[string]string{}
			}
			out[m[0]] = m[1]
		}
	}
	return out
}
