package conformance_test

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/testenv"
)

// TestAuthentication: every route refuses a request without valid credentials with the
// same 401 and WWW-Authenticate, and does nothing (docs/decisions.md, Accounts and authentication).
func TestAuthentication(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rts := allRoutes(t)
	bodies := map[route]any{}
	for _, rt := range rts {
		if rt.hasBody() {
			bodies[rt] = writeFor(t, rt).body(w.c, w.ids)
		}
	}
	w.env.Drain(t) // what making the bodies wrote reaches the event feed first
	before := w.snapshot(w.c, rts)
	b64 := base64.StdEncoding.EncodeToString
	bad := []struct{ name, header string }{
		{"no Authorization", ""},
		{"wrong secret", testenv.BasicAuth(testenv.Account{Token: w.acct.Token, Secret: w.acct.Secret + "x"})},
		{"unknown token", testenv.BasicAuth(testenv.Account{Token: "nobody" + w.acct.Token, Secret: w.acct.Secret})},
		{"empty secret", "Basic " + b64([]byte(w.acct.Token+":"))},
		{"no colon", "Basic " + b64([]byte(w.acct.Token+w.acct.Secret))},
		{"not base64", "Basic %%%not-base64%%%"},
		{"other scheme", "Bearer " + w.acct.Token + ":" + w.acct.Secret},
	}
	want := map[string]any{"error": "Could not authenticate you"}
	t.Run("routes", func(t *testing.T) {
		for _, rt := range rts {
			t.Run(rt.String(), func(t *testing.T) {
				t.Parallel()
				c := w.c.in(t)
				path := w.path(t, rt)
				for _, b := range bad {
					r := c.withAuth(b.header).do(rt.Method, path, bodies[rt])
					var got map[string]any
					_ = json.Unmarshal(r.Body, &got)
					if r.Status != http.StatusUnauthorized || !reflect.DeepEqual(got, want) {
						t.Errorf("%s: %d %s, want 401 %v", b.name, r.Status, short(r.String()), want)
					}
					if h := r.Header.Get("WWW-Authenticate"); h != `Basic realm="multisell"` {
						t.Errorf("%s: WWW-Authenticate %q, want Basic realm=\"multisell\"", b.name, h)
					}
				}
			})
		}
	})
	w.env.Drain(t)
	sameSnapshot(t, "after unauthenticated calls", before, w.snapshot(w.c, rts))
}

// TestRateLimitIsPlainText: every route answers an account over its limit with the
// plain-text 403 and Retry-After (docs/decisions.md, Rate limits).
func TestRateLimitIsPlainText(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	rts := allRoutes(t)
	acct := env.NewAccount(t, testenv.AccountOptions{RPS: 1, RPM: 1})
	c := newCaller(t, env, acct)
	// A 401 has no account, so failed authentications spend nothing (docs/decisions.md).
	wrong := c.withAuth(testenv.BasicAuth(testenv.Account{Token: acct.Token, Secret: "wrong"}))
	for range 3 {
		wrong.do(http.MethodGet, "/channels", nil)
	}
	if r := c.do(http.MethodGet, "/channels", nil); r.Status != http.StatusOK { // spends the minute's one request
		t.Errorf("first authenticated request after three 401s: %d %s, want 200", r.Status, short(r.String()))
	}
	nobody := uuid.Must(uuid.NewV7()).String()
	x := ids{Warehouse: nobody, Product: "conf-nobody", Child: "conf-nobody", Group: "conf-nobody", Seq: 1, RequestID: nobody,
		Channel: nobody, Listing: "conf-nobody", Webhook: nobody, Delivery: "dlv_0000000000000001"}
	rollovers := 0
	for _, rt := range rts {
		var body any
		if rt.hasBody() {
			body = "{}"
		}
		path := x.path(t, rt)
		r := c.do(rt.Method, path, body)
		if r.Status != http.StatusForbidden && rollovers == 0 {
			// A new clock minute began: this request spent its budget, the next is refused.
			rollovers++
			r = c.do(rt.Method, path, body)
		}
		if ct := r.Header.Get("Content-Type"); r.Status != http.StatusForbidden || ct != "text/plain; charset=utf-8" {
			t.Errorf("%s over the limit: %d %q %s, want 403 text/plain Rate Limit Exceeded", rt, r.Status, ct, short(r.String()))
		}
	}
}

// TestMalformedBodies: every route with a body answers 400 to what is not a JSON
// object, 413 to a body over 1 MiB, a 4xx to {}, 422 naming the field to a control
// character in a text field and 422 naming the key to a key repeated in any object of
// an otherwise valid body, and changes nothing (docs/api-conventions.md, JSON in).
func TestMalformedBodies(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rts := allRoutes(t)
	bodies := map[route]any{}
	for _, rt := range rts {
		if rt.hasBody() && !writeFor(t, rt).bodiless {
			bodies[rt] = writeFor(t, rt).body(w.c, w.ids)
		}
	}
	w.env.Drain(t) // what making the bodies wrote reaches the event feed first
	before := w.snapshot(w.c, rts)
	huge := `{"padding":"` + strings.Repeat("x", 1<<20) + `"}`
	cases := []struct {
		name, body string
		want       int
	}{
		{"empty body", "", http.StatusBadRequest},
		{"truncated JSON", `{"name":`, http.StatusBadRequest},
		{"not JSON", "name=x&sku=y", http.StatusBadRequest},
		{"trailing garbage", `{"name":"x"}}`, http.StatusBadRequest},
		{"two objects", `{"name":"x"} {"name":"y"}`, http.StatusBadRequest},
		{"array", `[{"name":"x"}]`, http.StatusBadRequest},
		{"empty array", `[]`, http.StatusBadRequest},
		{"string", `"x"`, http.StatusBadRequest},
		{"number", `42`, http.StatusBadRequest},
		{"null", `null`, http.StatusBadRequest},
		{"over 1 MiB", huge, http.StatusRequestEntityTooLarge},
	}
	t.Run("routes", func(t *testing.T) {
		for _, rt := range rts {
			if !rt.hasBody() || writeFor(t, rt).bodiless {
				continue
			}
			t.Run(rt.String(), func(t *testing.T) {
				t.Parallel()
				c := w.c.in(t)
				path := w.path(t, rt)
				for _, tc := range cases {
					t.Run(tc.name, func(t *testing.T) {
						if r := c.in(t).do(rt.Method, path, tc.body); r.Status != tc.want {
							t.Errorf("%d %s, want %d", r.Status, short(r.String()), tc.want)
						}
					})
				}
				// {} names nothing to create: for an upsert by SKU the SKU is a new one, since
				// {} on an existing product is a valid update that changes nothing (docs/catalog.md).
				empty := rt.build(func(name string) string {
					if name == "sku" {
						return uniq("conf-new")
					}
					v, _ := w.param(rt, name)
					return v
				})
				if r := c.do(rt.Method, empty, "{}"); r.Status < 400 || r.Status >= 500 {
					t.Errorf("{}: %d %s, want a 4xx", r.Status, short(r.String()))
				}
				checkControlCharacters(t, c, rt, path, bodies[rt])
				checkDuplicateKeys(t, c, rt, path, bodies[rt])
			})
		}
	})
	w.env.Drain(t)
	sameSnapshot(t, "after malformed bodies", before, w.snapshot(w.c, rts))
}

// controlMessage is what a text field with a control character is told, after its name.
const controlMessage = "must not contain control characters"

// checkControlCharacters sends rt's valid body with control characters in its text field:
// each is 422 naming the field.
func checkControlCharacters(t *testing.T, c *caller, rt route, path string, valid any) {
	t.Helper()
	w := writeFor(t, rt)
	if w.textless {
		return
	}
	if w.text == nil {
		t.Fatalf("no text field known: set text and field (or textless) in writes in pkg/conformance")
	}
	for _, ctl := range []string{"\x00", "\x07", "\x1b[31m", "\x7f", "\u0085", "\u009b"} {
		t.Run(fmt.Sprintf("control character %q", ctl), func(t *testing.T) {
			body := clone(valid)
			setAt(t, body, w.text, "Conformance "+ctl+" text")
			r := c.in(t).do(rt.Method, path, body)
			if msg := errorText(r); r.Status != http.StatusUnprocessableEntity || !strings.Contains(msg, w.field) || !strings.Contains(msg, controlMessage) {
				t.Errorf("%s = %q: %d %s, want 422 %q", w.field, ctl, r.Status, short(r.String()), w.field+" "+controlMessage)
			}
		})
	}
}

// checkDuplicateKeys sends rt's valid body with the first key of each of its objects
// repeated: each is 422 naming the key by its path (or, in the per-field shape, as
// inside the endpoint's wrapper: name for warehouse.name).
func checkDuplicateKeys(t *testing.T, c *caller, rt route, path string, valid any) {
	t.Helper()
	valid = clone(valid)
	for _, at := range objectPaths(valid, "") {
		body, key := withDuplicate(valid, "", at)
		t.Run("duplicate key "+key, func(t *testing.T) {
			r := c.in(t).do(rt.Method, path, body)
			if r.Status != http.StatusUnprocessableEntity || !namesDuplicate(r, key) {
				t.Errorf("%s: %d %s, want 422 %q", short(body), r.Status, short(r.String()), key+" "+duplicateMessage)
			}
		})
	}
}

// duplicateMessage is what a repeated key is told, after its path.
const duplicateMessage = "is a duplicate key"

// namesDuplicate reports whether r's error is duplicateMessage naming key: by its path,
// or in the per-field shape by the path's end.
func namesDuplicate(r *testenv.Response, key string) bool {
	if errorMessage(r) == key+" "+duplicateMessage {
		return true
	}
	var e struct {
		Error map[string][]string `json:"error"`
	}
	if json.Unmarshal(r.Body, &e) != nil || len(e.Error) != 1 {
		return false
	}
	for field, msgs := range e.Error {
		return (field == key || strings.HasSuffix(key, "."+field)) && slices.Equal(msgs, []string{duplicateMessage})
	}
	return false
}

// errorText returns the error of a response: its message, or for per-field errors each
// "field message" joined by "; ".
func errorText(r *testenv.Response) string {
	var e struct {
		Error any `json:"error"`
	}
	if json.Unmarshal(r.Body, &e) != nil {
		return ""
	}
	if fields, ok := e.Error.(map[string]any); ok {
		var out []string
		for f, msgs := range fields {
			out = append(out, fmt.Sprint(f, " ", msgs))
		}
		sort.Strings(out)
		return strings.Join(out, "; ")
	}
	s, _ := e.Error.(string)
	return s
}

// clone returns a deep copy of a body built of maps, slices and scalars.
func clone(v any) any {
	var out any
	b, _ := json.Marshal(v)
	_ = json.Unmarshal(b, &out)
	return out
}

// setAt sets the member at path (map keys and slice indexes) of body, a clone, to value.
func setAt(t *testing.T, body any, path []any, value string) {
	t.Helper()
	for i, step := range path {
		last := i == len(path)-1
		switch x := body.(type) {
		case map[string]any:
			if last {
				x[step.(string)] = value
				return
			}
			body = x[step.(string)]
		case []any:
			if last {
				x[step.(int)] = value
				return
			}
			body = x[step.(int)]
		default:
			t.Fatalf("text path %v: %v is not an object or array", path, step)
		}
	}
}

// join is the path of member key of the object at path, as error messages write it.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// objectPaths returns the paths of every object in v (the body itself is "").
func objectPaths(v any, path string) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		out = append(out, path)
		for _, k := range slices.Sorted(maps.Keys(x)) {
			out = append(out, objectPaths(x[k], join(path, k))...)
		}
	case []any:
		for i, e := range x {
			out = append(out, objectPaths(e, fmt.Sprintf("%s[%d]", path, i))...)
		}
	}
	return out
}

// withDuplicate returns v as JSON text with the first key (in sorted order) of the object
// at path at written twice, and that key's path.
func withDuplicate(v any, path, at string) (body, key string) {
	var b strings.Builder
	switch x := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		if path == at {
			keys = append([]string{keys[0]}, keys...)
			key = join(path, keys[0])
		}
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			name, _ := json.Marshal(k)
			member, found := withDuplicate(x[k], join(path, k), at)
			b.Write(name)
			b.WriteByte(':')
			b.WriteString(member)
			key = cmp.Or(key, found)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			member, found := withDuplicate(e, fmt.Sprintf("%s[%d]", path, i), at)
			b.WriteString(member)
			key = cmp.Or(key, found)
		}
		b.WriteByte(']')
	default:
		scalar, _ := json.Marshal(x)
		b.Write(scalar)
	}
	return b.String(), key
}

// fixedLists are the lists that are the same for every account (the
// service's own reference data, GET /carriers): shorter than a page of 100,
// and not empty for a new account.
var fixedLists = map[string]bool{"GET /carriers": true}

// TestPagination: every list (a GET answering an array, fulfillments included) refuses
// a page or limit below 1 or not an integer, caps the limit at 100 and answers [] past
// the end (docs/decisions.md, HTTP envelope).
func TestPagination(t *testing.T) {
	t.Parallel()
	c, x := newBigWorld(t)
	rts := allRoutes(t)
	lists := 0
	t.Run("lists", func(t *testing.T) {
		for _, rt := range rts {
			if rt.Method != http.MethodGet {
				continue
			}
			path := x.path(t, rt)
			r := c.do(http.MethodGet, path, nil)
			if r.Status != http.StatusOK {
				t.Errorf("%s: %d %s with the big world's resources; cannot tell whether it is a list", rt, r.Status, short(r.String()))
				continue
			}
			if _, ok := isArray(r); !ok {
				continue
			}
			lists++
			whole := r.String()
			t.Run(rt.String(), func(t *testing.T) {
				t.Parallel()
				c := c.in(t)
				for _, q := range []string{"page=0", "limit=0", "page=abc", "limit=-1", "page=-1", "limit=abc", "page=1.5", "limit=0.5", "page="} {
					r := c.do(http.MethodGet, withQuery(path, q), nil)
					param, _, _ := strings.Cut(q, "=")
					if r.Status != http.StatusUnprocessableEntity || !strings.Contains(errorMessage(r), param) {
						t.Errorf("?%s: %d %s, want 422 naming %s", q, r.Status, short(r.String()), param)
					}
				}
				r := c.do(http.MethodGet, withQuery(path, "limit=1000"), nil)
				n, ok := isArray(r)
				if r.Status != http.StatusOK || !ok || n > 100 {
					t.Errorf("?limit=1000: %d, %d items, want at most 100", r.Status, n)
				}
				if r100 := c.do(http.MethodGet, withQuery(path, "limit=100"), nil); r.String() != r100.String() || r.String() != whole {
					t.Errorf("?limit=1000 is not the page of limit=100 and of no limit")
				}
				// An integer too large for any integer type is still a larger limit: capped.
				if huge := c.do(http.MethodGet, withQuery(path, "limit=99999999999999999999"), nil); huge.Status != http.StatusOK || huge.String() != whole {
					t.Errorf("?limit=99999999999999999999: %d %s, want the capped page", huge.Status, short(huge.String()))
				}
				if next, _ := isArray(c.do(http.MethodGet, withQuery(path, "limit=100&page=2"), nil)); next == 0 && fixedLists[rt.String()] {
					if n >= 100 {
						t.Errorf("a fixed list of %d items: the cap is not tested", n)
					}
				} else if next == 0 {
					t.Errorf("the big world has at most 100 records for this list, so the cap is not tested: seed more in newBigWorld")
				} else if n != 100 {
					t.Errorf("?limit=1000: %d items of more than 100, want 100", n)
				}
				for _, q := range []string{"page=999999", "page=999999&limit=1000", "page=2147483647", "page=99999999999999999999"} {
					t.Run("?"+q, func(t *testing.T) {
						if r := c.in(t).do(http.MethodGet, withQuery(path, q), nil); r.Status != http.StatusOK || r.String() != "[]" {
							t.Errorf("?%s past the end: %d %s, want 200 []", q, r.Status, short(r.String()))
						}
					})
				}
			})
		}
	})
	if lists < 9 {
		t.Errorf("found %d list routes; the template has at least 9 (channels, listings, warehouses, products, variation groups, inventory, orders, fulfillments)", lists)
	}
}

// badValue is a path parameter or key value that names nothing of the account.
type badValue struct {
	name  string
	value func() string
	// validSKU is set for values that are valid SKUs (an upsert creates them).
	validSKU bool
}

func badValues(kind string) []badValue {
	nobody := func() string { return uuid.Must(uuid.NewV7()).String() }
	special := func() string { return uniq("A/B C+#?") } // a unique prefix keeps the special characters
	long := func(n int) func() string {
		return func() string { p := uniq("conf"); return p + strings.Repeat("s", n-len(p)) }
	}
	control := func() string { return uniq("conf\x01ctl") }
	switch kind {
	case "sku":
		return []badValue{
			{"unknown SKU", func() string { return uniq("conf-nobody") }, true},
			{"A/B C+#?", special, true},
			{"percent signs (decoded once)", func() string { return uniq("100% cotton %2F") }, true},
			{"255 characters", long(255), true},
			{"255 four-byte characters", func() string { p := uniq("e"); return p + strings.Repeat("😀", 255-len(p)) }, true},
			{"300 characters", long(300), false},
			{"control character", control, false},
		}
	case "seq":
		return []badValue{
			{"unknown number", func() string { return "987654321" }, false},
			{"uuid of nobody", nobody, false},
			{"A/B C+#?", special, false},
			{"300 characters", long(300), false},
			{"control character", control, false},
		}
	}
	return []badValue{
		{"uuid of nobody", nobody, false},
		{"A/B C+#?", special, false},
		{"300 characters", long(300), false},
		{"control character", control, false},
	}
}

// TestUnknownPathParams: an unknown or malformed id or SKU in a path, or in the query
// parameters that name a route's resource (its keys), is the documented 404 (or 422
// naming the parameter for an invalid SKU), or, for an upsert by a valid SKU, a creation
// under the SKU decoded once; never a 5xx (docs/api-conventions.md). A missing or empty
// key is 422 naming it.
func TestUnknownPathParams(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rts := allRoutes(t)
	gets := map[string]bool{}
	for _, rt := range rts {
		if rt.Method == http.MethodGet {
			gets[rt.Path] = true
		}
	}
	t.Run("routes", func(t *testing.T) {
		for _, rt := range rts {
			if len(rt.names()) == 0 {
				continue
			}
			t.Run(rt.String(), func(t *testing.T) {
				t.Parallel()
				c := w.c.in(t)
				for _, p := range rt.names() {
					for _, bv := range badValues(paramKind(p)) {
						value := bv.value()
						path := rt.build(func(name string) string {
							if name == p {
								return value
							}
							v, ok := w.param(rt, name)
							if !ok {
								t.Fatalf("no fixture for {%s}", name)
							}
							return v
						})
						var body any
						if rt.hasBody() {
							body = writeFor(t, rt).body(c, w.ids)
						}
						r := c.do(rt.Method, path, body)
						what := fmt.Sprintf("{%s} = %s", p, bv.name)
						switch {
						case bv.validSKU && rt.upsert():
							var got struct {
								SKU string `json:"sku"`
							}
							_ = json.Unmarshal(r.Body, &got)
							if r.Status != http.StatusOK || got.SKU != value {
								t.Errorf("%s: %d %s, want 200 creating SKU %q", what, r.Status, short(r.String()), short(value))
							} else if gets[rt.Path] {
								g := c.do(http.MethodGet, path, nil)
								_ = json.Unmarshal(g.Body, &got)
								if g.Status != http.StatusOK || got.SKU != value {
									t.Errorf("%s: GET after creation: %d %s", what, g.Status, short(g.String()))
								}
							}
						case paramKind(p) == "sku" && !bv.validSKU:
							if r.Status != http.StatusUnprocessableEntity || !strings.Contains(errorMessage(r), p) {
								t.Errorf("%s: %d %s, want 422 naming %s", what, r.Status, short(r.String()), p)
							}
						default:
							msg := notFoundMessage(rt)
							if r.Status != http.StatusNotFound || (msg != "" && errorMessage(r) != msg) {
								t.Errorf("%s: %d %s, want 404 %q", what, r.Status, short(r.String()), msg)
							}
						}
					}
				}
				// Each key missing, then empty, the others naming the world's resource.
				for _, k := range rt.keys() {
					var body any
					if rt.hasBody() {
						body = writeFor(t, rt).body(c, w.ids)
					}
					var others []string
					for _, o := range rt.keys() {
						if v, _ := w.param(rt, o); o != k {
							others = append(others, o+"="+url.QueryEscape(v))
						}
					}
					base := rt.expand(func(name string) string { v, _ := w.param(rt, name); return v })
					for _, q := range [][]string{others, append(slices.Clone(others), k+"=")} {
						query := strings.Join(q, "&")
						if r := c.do(rt.Method, base+"?"+query, body); r.Status != http.StatusUnprocessableEntity || !strings.Contains(errorMessage(r), k) {
							t.Errorf("?%s: %d %s, want 422 naming %s", query, r.Status, short(r.String()), k)
						}
					}
				}
			})
		}
	})
}

// TestFilterValues: a list filter naming an id the account does not have is the
// documented 404, an invalid SKU or a value outside an enumerated filter's is 422 naming
// the filter, and an unknown valid SKU is an empty list; a filter's values are matched
// whatever their case and surrounding spaces where the filter is an enumeration. Nothing
// changes (docs/api-conventions.md).
func TestFilterValues(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rts := allRoutes(t)
	before := w.snapshot(w.c, rts)
	q := url.QueryEscape
	for _, f := range []struct {
		path, param, kind, notFound string
	}{
		{"/listings", "channel_uuid", "id", "Channel not found"},
		{"/listings", "sku", "sku", ""},
	} {
		t.Run(f.path+"?"+f.param, func(t *testing.T) {
			c := w.c.in(t)
			for _, bv := range badValues(f.kind) {
				path := f.path + "?" + f.param + "=" + q(bv.value())
				r := c.do(http.MethodGet, path, nil)
				switch {
				case f.kind == "sku" && bv.validSKU:
					if r.Status != http.StatusOK || r.String() != "[]" {
						t.Errorf("%s: %d %s, want 200 []", bv.name, r.Status, short(r.String()))
					}
				case f.kind == "sku":
					if r.Status != http.StatusUnprocessableEntity || !strings.Contains(errorMessage(r), f.param) {
						t.Errorf("%s: %d %s, want 422 naming %s", bv.name, r.Status, short(r.String()), f.param)
					}
				default:
					if r.Status != http.StatusNotFound || errorMessage(r) != f.notFound {
						t.Errorf("%s: %d %s, want 404 %q", bv.name, r.Status, short(r.String()), f.notFound)
					}
				}
			}
		})
	}
	t.Run("/listings?sync_status", func(t *testing.T) {
		c := w.c.in(t)
		for _, bad := range []string{"bogus", "sync", "pending,synced", "0"} {
			if r := c.do(http.MethodGet, "/listings?sync_status="+q(bad), nil); r.Status != http.StatusUnprocessableEntity ||
				!strings.Contains(errorMessage(r), "sync_status") {
				t.Errorf("sync_status=%s: %d %s, want 422 naming sync_status", bad, r.Status, short(r.String()))
			}
		}
		all := 0
		for _, st := range []string{"synced", "PENDING", " Failed ", "unlinked", "off"} {
			r := c.do(http.MethodGet, "/listings?sync_status="+q(st), nil)
			n, ok := isArray(r)
			if r.Status != http.StatusOK || !ok {
				t.Errorf("sync_status=%s: %d %s, want 200 and a list", st, r.Status, short(r.String()))
			}
			all += n
		}
		if all != 1 {
			t.Errorf("the sync statuses list %d listings in all, want the world's one", all)
		}
	})
	w.env.Drain(t)
	sameSnapshot(t, "after bad filter values", before, w.snapshot(w.c, rts))
}

// TestTenantIsolation: account B calls every route on account A's ids and SKUs: reads
// are 404 or empty, writes 404 or a creation of B's own, and A's data does not change
// (docs/decisions.md). The steps run in order: B's upserts come last, since after them
// B has products with A's SKUs.
func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	a := newWorld(t)
	rts := allRoutes(t)
	before := a.snapshot(a.c, rts)
	env := a.env
	bAcct := env.NewAccount(t, testenv.AccountOptions{})
	b := newCaller(t, env, bAcct)
	q := url.QueryEscape

	// Reads of A's ids: 404; B's lists: empty.
	t.Run("reads", func(t *testing.T) {
		for _, rt := range rts {
			if rt.Method != http.MethodGet {
				continue
			}
			t.Run(rt.String(), func(t *testing.T) {
				r := b.in(t).do(rt.Method, a.path(t, rt), nil)
				if len(rt.names()) > 0 {
					if msg := notFoundMessage(rt); r.Status != http.StatusNotFound || (msg != "" && errorMessage(r) != msg) {
						t.Errorf("B %s on A's: %d %s, want 404 %q", rt, r.Status, short(r.String()), msg)
					}
				} else if fixedLists[rt.String()] {
					if ra := a.c.in(t).do(rt.Method, a.path(t, rt), nil); r.Status != http.StatusOK || r.String() != ra.String() {
						t.Errorf("B %s: %d %s, want 200 and the list A sees", rt, r.Status, short(r.String()))
					}
				} else if want := cmp.Or(emptyLists[rt.String()], "[]"); r.Status != http.StatusOK || r.String() != want {
					t.Errorf("B %s: %d %s, want 200 %s", rt, r.Status, short(r.String()), want)
				}
			})
		}
	})
	t.Run("filters", func(t *testing.T) {
		for _, f := range []struct {
			path string
			want int
		}{
			{"/inventory?warehouse_uuid=" + q(a.Warehouse), http.StatusNotFound},
			{"/inventory?sku=" + q(a.Product), http.StatusOK},
			{"/inventories?sku[]=" + q(a.Child), http.StatusOK},
			{"/products?skus=" + q(a.Product) + "&skus=" + q(a.Group), http.StatusOK},
			{"/products?sku[]=" + q(a.Child), http.StatusOK},
			{"/variation_groups?skus=" + q(a.Group), http.StatusOK},
			{"/orders?sb_status=open", http.StatusOK},
			{"/orders/" + fmt.Sprint(a.Cancelled), http.StatusNotFound},
			{"/products/" + url.PathEscape(a.Child), http.StatusNotFound},
			{"/products/" + url.PathEscape(a.Group), http.StatusNotFound},
			{"/listings?channel_uuid=" + q(a.Channel), http.StatusNotFound},
			{"/listings?sku=" + q(a.Product), http.StatusOK},
			{"/listings?channel_uuid=" + q(a.Channel) + "&sku=" + q(a.Product), http.StatusNotFound},
		} {
			t.Run(f.path, func(t *testing.T) {
				r := b.in(t).do(http.MethodGet, f.path, nil)
				if r.Status != f.want || (f.want == http.StatusOK && r.String() != "[]") {
					t.Errorf("B GET %s: %d %s, want %d (an empty list for 200)", f.path, r.Status, short(r.String()), f.want)
				}
			})
		}
	})

	// Deletes of A's SKUs: 404.
	t.Run("deletes", func(t *testing.T) {
		for _, rt := range rts {
			if rt.Method != http.MethodDelete {
				continue
			}
			t.Run(rt.String(), func(t *testing.T) {
				r := b.in(t).do(rt.Method, a.path(t, rt), nil)
				if msg := notFoundMessage(rt); r.Status != http.StatusNotFound || (msg != "" && errorMessage(r) != msg) {
					t.Errorf("B %s on A's: %d %s, want 404 %q", rt, r.Status, short(r.String()), msg)
				}
			})
		}
	})
	// A variation group of A's products: they are not B's (422 naming the child).
	t.Run("group of A's products", func(t *testing.T) {
		r := b.in(t).do(http.MethodPut, "/variation_groups/"+url.PathEscape(uniq("conf-b-group")), map[string]any{
			"name": "B's group", "child_skus": []string{a.Child}, "variation_attributes": []string{"color"}})
		if r.Status != http.StatusUnprocessableEntity || !strings.Contains(errorMessage(r), a.Child) {
			t.Errorf("B groups A's product: %d %s, want 422 naming %s", r.Status, short(r.String()), a.Child)
		}
	})
	// B's own channel cannot draw on A's products or count A's warehouses: 404 Product
	// not found, 422 naming the rule. (B's lists were read above, while it had no channel.)
	t.Run("B's channel and A's resources", func(t *testing.T) {
		ch, err := env.Deps.Channels().Create(context.Background(), bAcct.ID, channels.Input{Name: "B's shop", Type: "Shopify"})
		if err != nil {
			t.Fatalf("create B's channel: %v", err)
		}
		b := b.in(t)
		for _, tc := range []struct {
			name, method, path string
			body               any
			want               int
			msg                string
		}{
			{"listing of A's product", http.MethodPut, "/listings", map[string]any{"listing": map[string]any{
				"channel_uuid": ch.UUID, "channel_sku": uniq("conf-b-listing"), "sku": a.Product}}, http.StatusNotFound, "Product not found"},
			{"listing counting A's warehouse", http.MethodPut, "/listings", map[string]any{"listing": map[string]any{
				"channel_uuid": ch.UUID, "channel_sku": uniq("conf-b-listing"), "inventory_rules": map[string]any{"warehouses": []string{a.Warehouse}}}},
				http.StatusUnprocessableEntity, "inventory_rules.warehouses"},
			{"rules counting A's warehouse", http.MethodPut, "/channels/" + ch.UUID, map[string]any{"channel": map[string]any{
				"inventory_rules": map[string]any{"warehouses": []string{a.Warehouse}}}}, http.StatusUnprocessableEntity, "inventory_rules.warehouses"},
			{"delete of A's listing key on B's channel", http.MethodDelete, "/listings?channel_uuid=" + q(ch.UUID) + "&channel_sku=" + q(a.Listing), nil,
				http.StatusNotFound, "Listing not found"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := b.in(t).do(tc.method, tc.path, tc.body)
				if r.Status != tc.want || !strings.Contains(errorMessage(r), tc.msg) {
					t.Errorf("%s %s: %d %s, want %d naming %s", tc.method, short(tc.path), r.Status, short(r.String()), tc.want, tc.msg)
				}
			})
		}
		if r := b.do(http.MethodGet, "/listings", nil); r.Status != http.StatusOK || r.String() != "[]" {
			t.Errorf("B's listings after refused writes: %d %s, want []", r.Status, short(r.String()))
		}
	})
	// An order of A's channel cannot enter B's account.
	t.Run("order of A's channel", func(t *testing.T) {
		res := importResults(t, env, bAcct.ID, map[string]any{"channel_uuid": a.Channel, "display_ref": "B-1",
			"ordered_at": "2024-05-01T00:00:00Z", "items": []any{map[string]any{"order_item_ref": "1", "sku": a.Product, "quantity": 1}}})
		if res[0].Result != "error" {
			t.Errorf("B imports an order of A's channel: %+v, want an error", res[0])
		}
	})

	// Writes on A's ids: 404; creations (upserts by SKU, new warehouses) are B's own.
	for _, step := range []struct {
		name    string
		upserts bool
	}{{"writes", false}, {"upserts", true}} {
		t.Run(step.name, func(t *testing.T) {
			for _, rt := range rts {
				if !rt.hasBody() || rt.upsert() != step.upserts {
					continue
				}
				t.Run(rt.String(), func(t *testing.T) {
					w := writeFor(t, rt)
					b := b.in(t)
					r := b.do(rt.Method, a.path(t, rt), w.body(b, a.ids))
					if r.Status != w.foreign || (w.foreignMsg != "" && errorMessage(r) != w.foreignMsg) {
						t.Errorf("B %s on A's: %d %s, want %d %s", rt, r.Status, short(r.String()), w.foreign, w.foreignMsg)
					}
				})
			}
		})
	}
	for _, rt := range rts {
		if rt.Method != http.MethodGet && rt.Method != http.MethodDelete && !rt.hasBody() {
			t.Errorf("%s: method not covered by the isolation test", rt)
		}
	}
	// B's product with A's SKU is B's: its own name, no stock of A's.
	t.Run("B's product with A's SKU", func(t *testing.T) {
		b := b.in(t)
		var p struct {
			Name string `json:"name"`
		}
		b.must(http.StatusOK, http.MethodGet, "/products/"+url.PathEscape(a.Product), nil, &p)
		if got, want := p.Name, "Conformance product"; got != want {
			t.Errorf("B's product %s is named %q, want B's name %q", a.Product, got, want)
		}
		if r := b.do(http.MethodGet, "/inventory?sku="+q(a.Product), nil); r.String() != "[]" {
			t.Errorf("B sees stock of %s: %s", a.Product, short(r.String()))
		}
	})

	env.Drain(t)
	sameSnapshot(t, "A after B's calls", before, a.snapshot(a.c, rts))
}

// TestTimes: times in are any ISO 8601 offset (a date alone is midnight UTC); times out
// are RFC 3339 UTC with Z to the whole second, and a returned time used as a max bound
// includes its record (docs/decisions.md). Every response of every test has its _at and
// _date members checked too (checkEnvelope).
func TestTimes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rts := allRoutes(t)
	snapshot(w.c, rts, w.ids) // every GET route, walked by checkEnvelope
	q := url.QueryEscape

	t.Run("order", func(t *testing.T) {
		var o map[string]any
		w.c.in(t).must(http.StatusOK, http.MethodGet, fmt.Sprintf("/orders/%d", w.Seq), nil, &o)
		for _, tc := range []struct{ field, want string }{
			{"ordered_at", orderedAtOut},
			{"paid_at", paidAtOut},
			{"ship_by_date", shipByOut},
			{"deliver_by_date", "2024-03-08T00:00:00Z"},
		} {
			t.Run(tc.field, func(t *testing.T) {
				if got := o[tc.field]; got != tc.want {
					t.Errorf("order %s = %v, want %s", tc.field, got, tc.want)
				}
			})
		}
		if o["shipped_at"] == nil {
			t.Errorf("shipped order has shipped_at null")
		}
	})
	t.Run("cancelled order", func(t *testing.T) {
		var o map[string]any
		w.c.in(t).must(http.StatusOK, http.MethodGet, fmt.Sprintf("/orders/%d", w.Cancelled), nil, &o)
		if got, want := o["cancelled_at"], cancelledAtOut; got != want {
			t.Errorf("cancelled_at = %v, want %s", got, want)
		}
	})

	// Bounds: inclusive, any offset, a date alone.
	t.Run("order bounds", func(t *testing.T) {
		for _, f := range []struct {
			query string
			want  bool
		}{
			{"max_ordered_at=" + orderedAtOut, true},
			{"min_ordered_at=" + q(orderedAtIn), true},
			{"max_ordered_at=" + q("2024-03-01T10:15:29+02:00"), false},
			{"min_ordered_at=2024-03-01&max_ordered_at=" + q("2024-03-01T09:15:30+01:00"), true},
			{"ordered_at_max=2024-03-01", false},
		} {
			t.Run(f.query, func(t *testing.T) {
				var list []struct {
					Seq int64 `json:"sb_order_seq"`
				}
				w.c.in(t).must(http.StatusOK, http.MethodGet, "/orders?"+f.query, nil, &list)
				if got := len(list) > 0 && list[0].Seq == w.Seq; got != f.want {
					t.Errorf("GET /orders?%s: order %d listed %v, want %v", f.query, w.Seq, got, f.want)
				}
			})
		}
	})
	t.Run("product up to its modified_at", func(t *testing.T) {
		c := w.c.in(t)
		var p struct {
			SKU        string `json:"sku"`
			ModifiedAt string `json:"modified_at"`
		}
		c.must(http.StatusOK, http.MethodGet, "/products/"+url.PathEscape(w.Product), nil, &p)
		var ps []struct {
			SKU string `json:"sku"`
		}
		c.must(http.StatusOK, http.MethodGet, "/products?skus="+q(w.Product)+"&max_modified_at="+q(p.ModifiedAt), nil, &ps)
		if len(ps) != 1 || ps[0].SKU != w.Product {
			t.Errorf("products up to their own modified_at %s: %v, want %s", p.ModifiedAt, ps, w.Product)
		}
	})
	t.Run("inventory up to its updated_at", func(t *testing.T) {
		c := w.c.in(t)
		var inv []struct {
			SKU       string `json:"sku"`
			UpdatedAt string `json:"updated_at"`
		}
		c.must(http.StatusOK, http.MethodGet, "/inventory?sku="+q(w.Product), nil, &inv)
		if len(inv) != 1 {
			t.Fatalf("inventory of %s: %v", w.Product, inv)
		}
		c.must(http.StatusOK, http.MethodGet, "/inventory?sku="+q(w.Product)+"&updated_at_max="+q(inv[0].UpdatedAt), nil, &inv)
		if len(inv) != 1 {
			t.Errorf("inventory up to its own updated_at: %v, want the record", inv)
		}
	})
	t.Run("invalid", func(t *testing.T) {
		for _, bad := range []string{"/orders?min_ordered_at=yesterday", "/products?max_modified_at=2024-13-01", "/inventory?updated_at_min=1/2/2024"} {
			t.Run(bad, func(t *testing.T) {
				if r := w.c.in(t).do(http.MethodGet, bad, nil); r.Status != http.StatusUnprocessableEntity {
					t.Errorf("GET %s: %d, want 422", bad, r.Status)
				}
			})
		}
	})
}

// TestUnknownRoutes: a path or method the template does not route is 404
// {"error":"Not found"}, with or without credentials (in AWS through the gateway
// responses of template.yaml).
func TestUnknownRoutes(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	c := newCaller(t, env, acct)
	want := map[string]any{"error": "Not found"}
	check := func(what string, status int, body []byte, ct string) {
		t.Helper()
		var got map[string]any
		_ = json.Unmarshal(body, &got)
		if status != http.StatusNotFound || !reflect.DeepEqual(got, want) || ct != jsonType {
			t.Errorf("%s: %d %q %s, want 404 %s %v", what, status, ct, short(string(body)), jsonType, want)
		}
	}
	for _, u := range []struct{ method, path string }{
		{http.MethodGet, "/nope"},
		{http.MethodGet, ""},
		{http.MethodGet, "/"},
		{http.MethodGet, "/Orders"},
		{http.MethodGet, "/orders/1/items"},
		{http.MethodDelete, "/orders"},
		{http.MethodDelete, "/channels"},
		{http.MethodPatch, "/warehouses"},
		{http.MethodGet, "/warehouses/fulfillments"},
		{http.MethodPut, "/shipments"},
		{http.MethodGet, "/inventory/adjustments"},
		{http.MethodDelete, "/inventories"},
		{http.MethodGet, "/channels/" + uuid.Must(uuid.NewV7()).String()},
		{http.MethodPost, "/channels/" + uuid.Must(uuid.NewV7()).String()},
		{http.MethodPost, "/listings"},
		{http.MethodPatch, "/listings"},
		{http.MethodGet, "/listings/conf-widget"},
	} {
		for _, auth := range []struct{ name, header string }{
			{"authenticated", testenv.BasicAuth(acct)},
			{"no Authorization", ""},
			{"wrong secret", testenv.BasicAuth(testenv.Account{Token: acct.Token, Secret: "wrong"})},
		} {
			r := c.withAuth(auth.header).do(u.method, u.path, nil)
			check(fmt.Sprintf("%s %s (%s)", u.method, u.path, auth.name), r.Status, r.Body, r.Header.Get("Content-Type"))
		}
	}
	// Outside the stage.
	for _, p := range []string{"/v2/orders", "/orders", "/", "/v1orders"} {
		req, err := http.NewRequest(http.MethodGet, env.Server.URL+p, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", testenv.BasicAuth(acct))
		resp, err := env.Server.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		check("GET "+p, resp.StatusCode, body, resp.Header.Get("Content-Type"))
	}
}

// TestAliases: routes of one function (/inventories for /inventory, both fulfillments
// paths) answer alike, and the /inventories writes work (docs/openapi.yaml).
func TestAliases(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rts := allRoutes(t)
	byFunction := map[string][]route{}
	for _, rt := range rts {
		if rt.Method == http.MethodGet {
			byFunction[rt.Function] = append(byFunction[rt.Function], rt)
		}
	}
	aliased := 0
	for _, fn := range slices.Sorted(maps.Keys(byFunction)) {
		group := byFunction[fn]
		if len(group) < 2 {
			continue
		}
		aliased++
		t.Run(fn, func(t *testing.T) {
			for _, query := range []string{"", "limit=1&page=1"} {
				t.Run(cmp.Or(query, "no query"), func(t *testing.T) {
					c := w.c.in(t)
					first := c.do(http.MethodGet, withQuery(w.path(t, group[0]), query), nil)
					if first.Status != http.StatusOK {
						t.Errorf("%s%s: %d %s", group[0], query, first.Status, short(first.String()))
					}
					if n, ok := isArray(first); ok && n == 0 {
						t.Errorf("%s%s: an empty list; the world should show something", group[0], query)
					}
					for _, other := range group[1:] {
						r := c.do(http.MethodGet, withQuery(w.path(t, other), query), nil)
						if r.Status != first.Status || r.String() != first.String() {
							t.Errorf("%s: %s%s answers %d %s, %s answers %d %s", fn, group[0], query, first.Status, short(first.String()),
								other, r.Status, short(r.String()))
						}
					}
				})
			}
		})
	}
	if aliased < 3 {
		t.Errorf("%d aliased GET functions, want at least 3 (inventory list, adjustments, fulfillments)", aliased)
	}

	t.Run("writes through /inventories", func(t *testing.T) {
		c := w.c.in(t)
		sku := uniq("conf-alias")
		c.must(http.StatusCreated, http.MethodPost, "/inventories", map[string]any{"inventory": map[string]any{
			"sku": sku, "warehouse_uuid": w.Warehouse, "on_hand": 4}}, nil)
		var adj struct {
			RequestID string `json:"request_id"`
		}
		c.must(http.StatusOK, http.MethodPut, "/inventories", map[string]any{"inventory": []any{map[string]any{
			"sku": sku, "warehouse_uuid": w.Warehouse, "on_hand": 7}}}, &adj)
		c.must(http.StatusOK, http.MethodPatch, "/inventories", map[string]any{"inventory": []any{map[string]any{
			"sku": sku, "warehouse_uuid": w.Warehouse, "available": 6}}}, nil)
		w.env.Drain(t)
		var st struct {
			Status string `json:"status"`
		}
		c.must(http.StatusOK, http.MethodGet, "/inventories/adjustments/"+adj.RequestID, nil, &st)
		var inv []struct {
			OnHand int `json:"on_hand"`
		}
		c.must(http.StatusOK, http.MethodGet, "/inventory?sku="+sku, nil, &inv)
		if st.Status != "applied" || len(inv) != 1 || inv[0].OnHand != 6 {
			t.Errorf("writes through /inventories: adjustment %q, records %v; want applied and on_hand 6", st.Status, inv)
		}
	})
}
