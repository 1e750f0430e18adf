package webhooks_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/webhookhttp"
	"github.com/multisell/multisell/pkg/webhooks"
)

// badCase is one request that must be refused with status, its body
// containing contains.
type badCase struct {
	name, method, path string
	body               any
	status             int
	contains           string
}

// runBad runs the cases in parallel as acct, each with its own client.
func runBad(t *testing.T, env *testenv.Env, acct testenv.Account, cases []badCase) {
	t.Helper()
	t.Run("cases", func(t *testing.T) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				r := env.Client(t, acct).Do(tc.method, tc.path, tc.body)
				if got, want := r.Status, tc.status; got != want || !strings.Contains(r.String(), tc.contains) {
					t.Errorf("%s %s: got %d %s, want %d naming %q", tc.method, tc.path, got, r, want, tc.contains)
				}
			})
		}
	})
}

// hookBody is {"webhook": fields}, fields overriding a valid webhook to
// url; "<absent>" removes a field.
func hookBody(url string, fields map[string]any) map[string]any {
	w := map[string]any{"url": url, "events": []string{"*"}, "description": "bad input"}
	for k, v := range fields {
		if v == "<absent>" {
			delete(w, k)
			continue
		}
		w[k] = v
	}
	return map[string]any{"webhook": w}
}

// badURLs are URLs the local stack refuses, with what each breaks.
func badURLs(good string) []struct{ name, url string } {
	return []struct{ name, url string }{
		{"empty", ""},
		{"not a URL", "hooks"},
		{"ftp", "ftp://hooks.example.com/in"},
		{"mailto", "mailto:ops@example.com"},
		{"javascript", "javascript:alert(1)"},
		{"no host", "https:///in"},
		{"scheme only", "https://"},
		{"opaque", "https:hooks.example.com"},
		{"over 2048 characters", "https://hooks.example.com/" + strings.Repeat("a", 2048)},
		{"user and password", "https://user:pass@hooks.example.com/in"},
		{"user", strings.Replace(good, "://", "://user@", 1)},
		{"fragment", good + "#frag"},
		{"empty fragment", good + "#"},
		{"space", "https://hooks.example.com/a b"},
		{"control character", "https://hooks.example.com/\x01"},
		{"port 0", "https://hooks.example.com:0/"},
		{"port too large", "https://hooks.example.com:70000/"},
		{"numeric host", "https://2130706433/"},
		{"http to a public host", "http://hooks.example.com/in"},
		{"http to a private address", "http://10.1.2.3/in"},
		{"private 10.x", "https://10.0.0.5/in"},
		{"private 192.168.x", "https://192.168.1.20/in"},
		{"private 172.16.x", "https://172.16.0.1/in"},
		{"link-local", "https://169.254.10.10/in"},
		{"metadata", "https://169.254.169.254/latest/meta-data/"},
		{"metadata over IPv6", "https://[fd00:ec2::254]/latest/meta-data/"},
		{"IPv4-mapped private", "https://[::ffff:10.0.0.1]/in"},
		{"unspecified", "https://0.0.0.0/in"},
		{"multicast", "https://224.0.0.1/in"},
	}
}

// TestBadInput: every webhook endpoint answers bad input (malformed
// bodies, wrong types, missing fields, bad URLs, unknown event types,
// odd ids) with a clear 4xx naming what is wrong, never a 5xx, and
// changes nothing.
func TestBadInput(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	c := env.Client(t, acct)
	rcv := newReceiver(t)
	good := rcv.URL()
	r := c.Do(http.MethodPost, "/webhooks", hookBody(good, nil))
	if r.Status != http.StatusCreated {
		t.Fatalf("create webhook: %d %s", r.Status, r)
	}
	var created struct{ Webhook webhooks.Webhook }
	r.JSON(t, &created)
	id := created.Webhook.ID
	// A second webhook with a delivery (a ping), whose id names no
	// delivery of the first.
	r = c.Do(http.MethodPost, "/webhooks", hookBody(good, nil))
	if r.Status != http.StatusCreated {
		t.Fatalf("create webhook: %d %s", r.Status, r)
	}
	var other struct{ Webhook webhooks.Webhook }
	r.JSON(t, &other)
	r = c.Do(http.MethodPost, "/webhooks/"+other.Webhook.ID+"/ping", nil)
	if r.Status != http.StatusAccepted {
		t.Fatalf("ping: %d %s", r.Status, r)
	}
	var ping struct{ Delivery webhooks.Delivery }
	r.JSON(t, &ping)
	settled(t, c, other.Webhook.ID, webhooks.StatusSucceeded)

	snapshot := func() []string {
		return []string{
			c.Do(http.MethodGet, "/webhooks", nil).String(),
			c.Do(http.MethodGet, "/webhooks/"+id, nil).String(),
			c.Do(http.MethodGet, "/webhooks/"+id+"/deliveries", nil).String(),
			c.Do(http.MethodGet, "/webhooks/"+other.Webhook.ID+"/deliveries", nil).String(),
		}
	}
	before := snapshot()

	huge := `{"webhook":{"url":"` + good + `","events":["*"],"description":"` + strings.Repeat("x", 1<<20) + `"}}`
	post := func(fields map[string]any) map[string]any { return hookBody(good, fields) }
	put := func(fields map[string]any) map[string]any { return map[string]any{"webhook": fields} }
	hookPath := "/webhooks/" + id
	var cases []badCase
	for _, p := range []struct{ method, path string }{{http.MethodPost, "/webhooks"}, {http.MethodPut, hookPath}} {
		add := func(name string, body any, status int, contains string) {
			cases = append(cases, badCase{p.method + " " + name, p.method, p.path, body, status, contains})
		}
		// The envelope.
		add("empty body", "", 400, "JSON object")
		add("not JSON", `{"webhook":`, 400, "JSON")
		add("trailing garbage", `{"webhook":{}}}`, 400, "JSON")
		add("an array", `[{"webhook":{}}]`, 400, "object")
		add("a string", `"webhook"`, 400, "object")
		add("null", `null`, 400, "object")
		add("over 1 MiB", huge, 413, "large")
		add("no webhook", `{}`, 422, "webhook")
		add("webhook null", `{"webhook":null}`, 422, "webhook")
		add("webhook a string", `{"webhook":"{}"}`, 422, "webhook")
		add("webhook an array", `{"webhook":[{}]}`, 422, "webhook")
		add("webhook a number", `{"webhook":1}`, 422, "webhook")
		// url.
		body := put
		if p.method == http.MethodPost {
			body = post
			add("url missing", post(map[string]any{"url": "<absent>"}), 422, "url")
		}
		add("url null", body(map[string]any{"url": nil}), 422, "url")
		add("url an object", body(map[string]any{"url": map[string]any{"href": good}}), 422, "url")
		add("url an array", body(map[string]any{"url": []string{good}}), 422, "url")
		add("url true", body(map[string]any{"url": true}), 422, "url")
		add("url a number", body(map[string]any{"url": 42}), 422, "url")
		for _, u := range badURLs(good) {
			add("url "+u.name, body(map[string]any{"url": u.url}), 422, "url")
		}
		// events.
		if p.method == http.MethodPost {
			add("events missing", post(map[string]any{"events": "<absent>"}), 422, "events")
		}
		add("events null", body(map[string]any{"events": nil}), 422, "events")
		add("events empty", body(map[string]any{"events": []string{}}), 422, "events")
		add("events a string", body(map[string]any{"events": "order.created"}), 422, "events")
		add("events star as a string", body(map[string]any{"events": "*"}), 422, "events")
		add("events an object", body(map[string]any{"events": map[string]any{"order.created": true}}), 422, "events")
		add("events a number", body(map[string]any{"events": 1}), 422, "events")
		add("events true", body(map[string]any{"events": true}), 422, "events")
		add("events of numbers", body(map[string]any{"events": []int{1, 2}}), 422, "events")
		add("events of null", body(map[string]any{"events": []any{nil}}), 422, "events")
		add("events of arrays", body(map[string]any{"events": []any{[]string{"order.created"}}}), 422, "events")
		add("events of objects", body(map[string]any{"events": []any{map[string]any{}}}), 422, "events")
		add("events unknown type", body(map[string]any{"events": []string{"order.shipped"}}), 422, "order.shipped")
		add("events upper case", body(map[string]any{"events": []string{"ORDER.CREATED"}}), 422, "events")
		add("events padded", body(map[string]any{"events": []string{" order.created"}}), 422, "events")
		add("events empty type", body(map[string]any{"events": []string{""}}), 422, "events")
		add("events one unknown among known", body(map[string]any{"events": []string{"order.created", "nope"}}), 422, "nope")
		add("events ping", body(map[string]any{"events": []string{webhooks.PingType}}), 422, "events")
		add("events wildcard prefix", body(map[string]any{"events": []string{"order.*"}}), 422, "events")
		// description.
		add("description 501 characters", body(map[string]any{"description": strings.Repeat("é", 501)}), 422, "description")
		add("description NUL", body(map[string]any{"description": "a\x00b"}), 422, "description")
		add("description escape", body(map[string]any{"description": "a\x1b[31mb"}), 422, "description")
		add("description DEL", body(map[string]any{"description": "a\x7fb"}), 422, "description")
		add("description C1 control", body(map[string]any{"description": "a\u0085b"}), 422, "description")
		add("description an object", body(map[string]any{"description": map[string]any{}}), 422, "description")
		add("description an array", body(map[string]any{"description": []string{"x"}}), 422, "description")
		add("description true", body(map[string]any{"description": true}), 422, "description")
		// active.
		add("active a word", body(map[string]any{"active": "yes"}), 422, "active")
		add("active 2", body(map[string]any{"active": 2}), 422, "active")
		add("active null", body(map[string]any{"active": nil}), 422, "active")
		add("active an object", body(map[string]any{"active": map[string]any{}}), 422, "active")
		add("active an array", body(map[string]any{"active": []bool{true}}), 422, "active")
		add("active empty", body(map[string]any{"active": ""}), 422, "active")
	}

	// Odd webhook ids on every route that takes one.
	const notFound = webhooks.NotFoundMessage
	valid := put(map[string]any{"description": "x"})
	oddIDs := []struct{ name, id string }{
		{"not a uuid", "abc"},
		{"unknown uuid", "0193a5c8-0000-7000-8000-000000000000"},
		{"uuid without dashes", strings.ReplaceAll(id, "-", "")},
		{"uuid with a suffix", id + "x"},
		{"uuid with a prefix", "x" + id},
		{"very long", strings.Repeat("a", 3000)},
		{"unicode", url.PathEscape("ü😀" + id[2:])},
		{"encoded slash", url.PathEscape(id + "/x")},
		{"encoded space", url.PathEscape(" " + id)},
		{"percent-encoded id", "%2530" + id[1:]},
		{"quote", url.PathEscape(`"' OR 1=1`)},
	}
	for _, o := range oddIDs {
		p := "/webhooks/" + o.id
		for _, rt := range []struct {
			method, path string
			body         any
		}{
			{http.MethodGet, p, nil},
			{http.MethodPut, p, valid},
			{http.MethodDelete, p, nil},
			{http.MethodPost, p + "/rotate_secret", nil},
			{http.MethodPost, p + "/ping", nil},
			{http.MethodGet, p + "/deliveries", nil},
			{http.MethodPost, p + "/deliveries/" + ping.Delivery.ID + "/retry", nil},
		} {
			name := fmt.Sprintf("%s %s (%s)", rt.method, strings.TrimPrefix(rt.path, "/webhooks/"+o.id), o.name)
			cases = append(cases, badCase{name, rt.method, rt.path, rt.body, 404, notFound})
		}
	}

	// Odd delivery ids on the first webhook.
	retry := func(d string) string { return hookPath + "/deliveries/" + d + "/retry" }
	for _, d := range []struct{ name, id string }{
		{"not a delivery id", "abc"},
		{"unknown event delivery", "dlv_0000000000000001"},
		{"unknown ping", "dlv_0000000000000000_ping0123456789abcdef"},
		{"another webhook's delivery", ping.Delivery.ID},
		{"too few digits", "dlv_1"},
		{"too many digits", "dlv_00000000000000001"},
		{"upper case", strings.ToUpper(ping.Delivery.ID)},
		{"with a suffix", ping.Delivery.ID + "x"},
		{"very long", "dlv_" + strings.Repeat("0", 3000)},
		{"unicode", url.PathEscape("dlv_٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠١")},
		{"encoded newline", url.PathEscape("dlv_0000000000000001\n")},
		{"encoded slash", url.PathEscape("dlv_0000000000000001/x")},
	} {
		cases = append(cases, badCase{"retry " + d.name, http.MethodPost, retry(d.id), nil, 404, webhooks.DeliveryNotFoundMessage})
	}

	// Pages of deliveries.
	for _, q := range []struct{ query, names string }{
		{"page=0", "page"}, {"page=-1", "page"}, {"page=abc", "page"}, {"page=1.5", "page"}, {"page=", "page"},
		{"limit=0", "limit"}, {"limit=-5", "limit"}, {"limit=x", "limit"}, {"limit=2.5", "limit"}, {"limit=", "limit"},
	} {
		cases = append(cases, badCase{"deliveries " + q.query, http.MethodGet, hookPath + "/deliveries?" + q.query, nil, 422, q.names})
	}

	runBad(t, env, acct, cases)
	// Odd but valid pages: past the end is empty, a large limit capped.
	for _, q := range []string{"page=99999999999999999999", "page=2&limit=1000", "limit=99999999999999999999&page=%201%20"} {
		r := c.Do(http.MethodGet, hookPath+"/deliveries?"+q, nil)
		if got, want := r.Status, http.StatusOK; got != want || r.String() != `{"deliveries":[]}` {
			t.Errorf("GET deliveries?%s: got %d %s, want %d and none", q, got, r, want)
		}
	}
	// Nothing above was accepted, so nothing is under way: the reads
	// answer at once what a bad request would have changed.
	after := snapshot()
	for i := range before {
		if got, want := after[i], before[i]; got != want {
			t.Errorf("bad input changed the webhooks:\n got %s\nwant %s", got, want)
		}
	}
	if got := rcv.ofType(webhooks.PingType); len(got) != 1 {
		t.Errorf("the receiver got %d pings, want the one of the setup", len(got))
	}
}

// TestRetryWhilePending: a retry of a delivery still pending is a 409 that
// starts no new round: the delivery ends after the schedule's attempts.
func TestRetryWhilePending(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	c := env.Client(t, env.NewAccount(t, testenv.AccountOptions{}))
	rcv, id, ping := failingPing(t, c)
	// The schedule of the local stack retries three times, a second apart:
	// the delivery is pending for seconds.
	r := c.Do(http.MethodPost, "/webhooks/"+id+"/deliveries/"+ping.Delivery.ID+"/retry", nil)
	if got, want := r.Status, http.StatusConflict; got != want || !strings.Contains(r.String(), "pending") {
		t.Errorf("retry while pending: got %d %s, want %d", got, r, want)
	}
	d := settled(t, c, id, webhooks.StatusFailed)
	want := len(env.Config.WebhookRetrySchedule) + 1
	if got := d.AttemptCount; d.Status != webhooks.StatusFailed || got != want {
		t.Errorf("delivery %s after a refused retry: %s with %d attempts, want failed with %d", d.ID, d.Status, got, want)
	}
	if got := len(rcv.withID(ping.Delivery.EventID)); got != want {
		t.Errorf("the receiver got %d attempts, want %d", got, want)
	}
}

// failingPing makes a webhook whose receiver answers 503 and pings it: the
// receiver, the webhook's id and the ping's delivery.
func failingPing(t *testing.T, c *testenv.Client) (*receiver, string, struct{ Delivery webhooks.Delivery }) {
	t.Helper()
	rcv := newReceiver(t)
	rcv.setAnswer(http.StatusServiceUnavailable)
	r := c.Do(http.MethodPost, "/webhooks", hookBody(rcv.URL(), nil))
	if r.Status != http.StatusCreated {
		t.Fatalf("create webhook: %d %s", r.Status, r)
	}
	var created struct{ Webhook webhooks.Webhook }
	r.JSON(t, &created)
	r = c.Do(http.MethodPost, "/webhooks/"+created.Webhook.ID+"/ping", nil)
	if r.Status != http.StatusAccepted {
		t.Fatalf("ping: %d %s", r.Status, r)
	}
	var ping struct{ Delivery webhooks.Delivery }
	r.JSON(t, &ping)
	return rcv, created.Webhook.ID, ping
}

// settled waits until the webhook's one delivery has status and returns
// it.
func settled(t *testing.T, c *testenv.Client, id, status string) webhooks.Delivery {
	t.Helper()
	var list struct{ Deliveries []webhooks.Delivery }
	testenv.WaitFor(t, func() bool {
		c.Do(http.MethodGet, "/webhooks/"+id+"/deliveries", nil).JSON(t, &list)
		return len(list.Deliveries) == 1 && list.Deliveries[0].Status == status
	}, "a delivery "+status)
	return list.Deliveries[0]
}

// TestWebhookLimit: an account has at most 20 webhooks; the 21st is a 422
// that creates nothing.
func TestWebhookLimit(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	c := env.Client(t, acct)
	rcv := newReceiver(t)
	for i := range webhooks.MaxWebhooks {
		if r := c.Do(http.MethodPost, "/webhooks", hookBody(rcv.URL(), map[string]any{"description": fmt.Sprint(i)})); r.Status != http.StatusCreated {
			t.Fatalf("webhook %d: %d %s", i+1, r.Status, r)
		}
	}
	before := c.Do(http.MethodGet, "/webhooks", nil).String()
	for _, active := range []bool{true, false} {
		r := c.Do(http.MethodPost, "/webhooks", hookBody(rcv.URL(), map[string]any{"active": active}))
		if got, want := r.Status, http.StatusUnprocessableEntity; got != want || !strings.Contains(r.String(), "20 webhooks") {
			t.Errorf("webhook 21 (active %v): got %d %s, want %d", active, got, r, want)
		}
	}
	after := c.Do(http.MethodGet, "/webhooks", nil)
	if got, want := after.String(), before; got != want {
		t.Errorf("a refused creation changed the webhooks:\n got %s\nwant %s", got, want)
	}
	var list struct{ Webhooks []webhooks.Webhook }
	after.JSON(t, &list)
	if got, want := len(list.Webhooks), webhooks.MaxWebhooks; got != want {
		t.Errorf("%d webhooks, want %d", got, want)
	}
}

// TestParseInputAWSPolicy: under the AWS rule (webhookhttp.Policy{}, which
// the local stack does not run) a webhook's URL must be https to a public
// host: loopback, private, link-local and metadata addresses and http are
// refused naming url, on creation and update alike.
func TestParseInputAWSPolicy(t *testing.T) {
	t.Parallel()
	cases := []struct {
		url string
		ok  bool
	}{
		{"https://hooks.example.com/in", true},
		{"https://hooks.example.com:8443/in?x=1", true},
		{"https://93.184.215.14/in", true},
		{"http://hooks.example.com/in", false},
		{"http://127.0.0.1:4000/", false},
		{"https://127.0.0.1/in", false},
		{"https://127.1.2.3/in", false},
		{"https://localhost/in", false},
		{"https://api.localhost/in", false},
		{"https://[::1]/in", false},
		{"https://[::ffff:127.0.0.1]/in", false},
		{"https://10.0.0.5/in", false},
		{"https://10.255.255.255/in", false},
		{"https://192.168.0.1/in", false},
		{"https://172.31.0.1/in", false},
		{"https://100.64.0.1/in", false},
		{"https://[fd12:3456::1]/in", false},
		{"https://169.254.1.1/in", false},
		{"https://[fe80::1]/in", false},
		{"https://169.254.169.254/latest/meta-data/", false},
		{"https://169.254.170.2/v2/credentials", false},
		{"https://[fd00:ec2::254]/latest/meta-data/", false},
		{"https://[64:ff9b::a9fe:a9fe]/", false}, // NAT64 of 169.254.169.254
		{"https://0.0.0.0/in", false},
		{"https://0x7f.1/in", false},
		{"https://hooks.example.com/in#x", false},
		{"https://u:p@hooks.example.com/in", false},
		{"ftp://hooks.example.com/in", false},
		{"https://hooks.example.com/" + strings.Repeat("a", 2048), false},
	}
	for _, tc := range cases {
		for _, create := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s create=%v", tc.url, create), func(t *testing.T) {
				t.Parallel()
				raw, err := json.Marshal(map[string]any{"webhook": map[string]any{"url": tc.url, "events": []string{"order.created"}}})
				if err != nil {
					t.Fatal(err)
				}
				body, err := lenient.DecodeObject(string(raw))
				if err != nil {
					t.Fatal(err)
				}
				in, err := webhooks.ParseInput(body, create, webhookhttp.Policy{})
				if got, want := err == nil, tc.ok; got != want {
					t.Fatalf("ParseInput(%q) = %+v, %v; want accepted %v", tc.url, in, err, want)
				}
				if err != nil {
					e, ok := errs.As(err)
					if !ok || e.Kind != errs.KindInvalid || !strings.Contains(e.Message, "url") {
						t.Errorf("ParseInput(%q): %v, want a 422 naming url", tc.url, err)
					}
					return
				}
				if in.URL == nil || *in.URL != tc.url {
					t.Errorf("ParseInput(%q).URL = %v", tc.url, in.URL)
				}
			})
		}
	}
}

// TestWebhookLimitConcurrent: the limit of 20 holds when creations race:
// with 19 webhooks, of 20 concurrent creations one succeeds.
func TestWebhookLimitConcurrent(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	c := env.Client(t, acct)
	rcv := newReceiver(t)
	for i := range webhooks.MaxWebhooks - 1 {
		if r := c.Do(http.MethodPost, "/webhooks", hookBody(rcv.URL(), nil)); r.Status != http.StatusCreated {
			t.Fatalf("webhook %d: %d %s", i+1, r.Status, r)
		}
	}
	const racers = 20
	statuses := make(chan int, racers)
	var wg sync.WaitGroup
	for range racers {
		wg.Go(func() {
			statuses <- env.Client(t, acct).Do(http.MethodPost, "/webhooks", hookBody(rcv.URL(), nil)).Status
		})
	}
	wg.Wait()
	close(statuses)
	created := 0
	for s := range statuses {
		switch s {
		case http.StatusCreated:
			created++
		case http.StatusUnprocessableEntity:
		default:
			t.Errorf("a racing creation answered %d", s)
		}
	}
	var list struct{ Webhooks []webhooks.Webhook }
	c.Do(http.MethodGet, "/webhooks", nil).JSON(t, &list)
	if got, want := len(list.Webhooks), webhooks.MaxWebhooks; got != want || created != 1 {
		t.Errorf("%d racing creations succeeded and the account has %d webhooks; want 1 and %d", created, got, want)
	}
}

// TestEventsNormalised: a list of event types holding "*" is stored as ["*"], whatever
// else it names and in any order; repeats are dropped; on create and on update.
func TestEventsNormalised(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	c := env.Client(t, env.NewAccount(t, testenv.AccountOptions{}))
	rcv := newReceiver(t)
	for _, tc := range []struct {
		events, want []string
	}{
		{[]string{"*", "order.created"}, []string{"*"}},
		{[]string{"order.created", "*", "order.created"}, []string{"*"}},
		{[]string{"order.created", "order.created"}, []string{"order.created"}},
	} {
		t.Run(strings.Join(tc.events, ","), func(t *testing.T) {
			r := c.Do(http.MethodPost, "/webhooks", hookBody(rcv.URL(), map[string]any{"events": tc.events}))
			var created struct{ Webhook webhooks.Webhook }
			r.JSON(t, &created)
			if got := created.Webhook.Events; r.Status != http.StatusCreated || !slices.Equal(got, tc.want) {
				t.Errorf("create: %d, events %q, want 201 and %q", r.Status, got, tc.want)
			}
			r = c.Do(http.MethodPut, "/webhooks/"+created.Webhook.ID, map[string]any{"webhook": map[string]any{"events": tc.events}})
			var updated struct{ Webhook webhooks.Webhook }
			r.JSON(t, &updated)
			if got := updated.Webhook.Events; r.Status != http.StatusOK || !slices.Equal(got, tc.want) {
				t.Errorf("update: %d %s, events %q, want 200 and %q", r.Status, r, got, tc.want)
			}
		})
	}
}
