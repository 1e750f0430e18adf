package testenv

import (
	"net/http"
	"testing"
)

// TestHarness exercises the harness end to end through the real template and handlers.
func TestHarness(t *testing.T) {
	env := Get(t)
	if env != Get(t) {
		t.Fatal("Get returned a second stack")
	}
	acct := env.NewAccount(t, AccountOptions{})

	tests := []struct {
		name   string
		auth   func(c *Client) *Client
		method string
		path   string
		status int
	}{
		{"list", nil, "GET", "/warehouses", http.StatusOK},
		{"unknown route", nil, "GET", "/no-such-route", http.StatusNotFound},
		{"no credentials", func(c *Client) *Client { return c.WithAuth("") }, "GET", "/warehouses", http.StatusUnauthorized},
		{"wrong secret", func(c *Client) *Client {
			return c.WithAuth(BasicAuth(Account{Token: acct.Token, Secret: "wrong"}))
		}, "GET", "/channels", http.StatusUnauthorized},
		{"not basic", func(c *Client) *Client { return c.WithAuth("Bearer x") }, "GET", "/channels", http.StatusUnauthorized},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := env.Client(t, acct)
			if tc.auth != nil {
				c = tc.auth(c)
			}
			r := c.Do(tc.method, tc.path, nil)
			if r.Status != tc.status {
				t.Fatalf("status = %d, want %d: %s", r.Status, tc.status, r.String())
			}
			if tc.status == http.StatusUnauthorized && r.Header.Get("WWW-Authenticate") != `Basic realm="multisell"` {
				t.Errorf("WWW-Authenticate = %q", r.Header.Get("WWW-Authenticate"))
			}
		})
	}

	c := env.Client(t, acct)
	var list []map[string]any
	c.Do("GET", "/warehouses", nil).JSON(t, &list)

	r := c.Do("POST", "/warehouses", map[string]any{"warehouse": map[string]any{"name": "Harness"}})
	if r.Status != http.StatusOK {
		t.Fatalf("create = %d %s", r.Status, r.String())
	}
	env.Drain(t)
}

// TestValidatorCatchesMismatch checks that an undocumented answer is reported.
func TestValidatorCatchesMismatch(t *testing.T) {
	env := Get(t)
	req, err := http.NewRequest("GET", env.URL+"/warehouses", nil)
	if err != nil {
		t.Fatal(err)
	}
	bad := []*Response{
		{Status: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"not":"an array"}`)},
		{Status: http.StatusTeapot, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{}`)},
	}
	for _, r := range bad {
		if err := validateResponse(env, req, r); err == nil {
			t.Errorf("%d %s passed validation", r.Status, r.Body)
		}
	}
	unknown, _ := http.NewRequest("GET", env.URL+"/no-such-route", nil)
	if err := validateResponse(env, unknown, &Response{Status: 200, Body: []byte(`[]`)}); err == nil {
		t.Error("a 200 from an undocumented route passed validation")
	}
}

func TestDynamoDBLocal(t *testing.T) {
	l := DynamoDBLocal(t)
	if l.Endpoint == "" || l.Deps == nil || l.Config.TableName == "" || l.Stack == nil || l.Stack.TableName != l.Config.TableName {
		t.Fatalf("local = %+v", l)
	}
	if streamed := Get(t).Template.Table.StreamViewType != ""; streamed != (l.Stack.StreamARN != "") {
		t.Errorf("the template's table has a stream: %v, DynamoDB Local's stream ARN %q", streamed, l.Stack.StreamARN)
	}
}

func TestPercentile(t *testing.T) {
	t.Parallel()
	xs := []float64{5, 1, 4, 2, 3}
	cases := []struct {
		p    int
		want float64
	}{{50, 3}, {99, 5}, {1, 1}, {100, 5}}
	for _, tc := range cases {
		if got := Percentile(xs, tc.p); got != tc.want {
			t.Errorf("Percentile(%v, %d) = %v, want %v", xs, tc.p, got, tc.want)
		}
	}
	if got := Percentile(nil, 50); got != 0 {
		t.Errorf("Percentile(nil) = %v, want 0", got)
	}
}
