package warehouses_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/warehouses"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func create(t testing.TB, c *testenv.Client, body string) string {
	t.Helper()
	r := c.Do(http.MethodPost, "/warehouses", body)
	var out struct {
		Message       string `json:"message"`
		WarehouseUUID string `json:"warehouse_uuid"`
	}
	r.JSON(t, &out)
	if r.Status != http.StatusOK || out.WarehouseUUID == "" || out.Message != "Warehouse created" {
		t.Fatalf("create: %d %s", r.Status, r)
	}
	return out.WarehouseUUID
}

func list(t *testing.T, c *testenv.Client, query string) []warehouses.Warehouse {
	t.Helper()
	r := c.Do(http.MethodGet, "/warehouses"+query, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("list: %d %s", r.Status, r)
	}
	var out []warehouses.Warehouse
	r.JSON(t, &out)
	return out
}

func TestCreateListUpdate(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	c := env.Client(t, env.NewAccount(t, testenv.AccountOptions{}))
	a := create(t, c, `{"warehouse":{"name":"Main","email":"ops@example.com","address_1":"1 Way","address_2":"Unit 4",
		"postal_code":94607,"city":"Oakland","region":"CA","country_code":"us","enable_shipping_software":"true"}}`)
	b := create(t, c, `{"warehouse":{"name":"Second","priority":"1"}}`)
	got := list(t, c, "")
	if len(got) != 2 || got[0].UUID != a || got[1].UUID != b {
		t.Fatalf("list order: %+v", got)
	}
	w := got[0]
	if w.Name != "Main" || *w.PostalCode != "94607" || *w.StateRegion != "CA" || *w.CountryCode != "US" ||
		!w.EnableShippingSoftware || w.Archived || w.Priority != 1 || w.InventoryMaster != "multisell" || w.City == nil {
		t.Errorf("stored warehouse: %+v", w)
	}
	if got[1].Priority != 1 || got[1].Address1 != nil {
		t.Errorf("second warehouse: %+v", got[1])
	}

	r := c.Do(http.MethodPut, "/warehouses/"+a, `{"warehouse":{"city":"Berkeley","address_2":null,"priority":3,"archived":true}}`)
	if r.Status != http.StatusOK || r.String() != `{"message":"Warehouse updated"}` {
		t.Fatalf("update: %d %s", r.Status, r)
	}
	w = list(t, c, "")[0]
	if *w.City != "Berkeley" || w.Address2 != nil || w.Priority != 3 || !w.Archived || w.Name != "Main" || *w.Address1 != "1 Way" {
		t.Errorf("after update: %+v", w)
	}
	// The alternative path is the same route family: fulfillments aside, PUT
	// with an empty wrapper changes nothing.
	if r := c.Do(http.MethodPut, "/warehouses/"+a, `{"warehouse":{}}`); r.Status != http.StatusOK {
		t.Errorf("empty update: %d %s", r.Status, r)
	}
}

func TestPagination(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	c := env.Client(t, env.NewAccount(t, testenv.AccountOptions{}))
	for _, n := range []string{"A", "B", "C"} {
		create(t, c, `{"warehouse":{"name":"`+n+`"}}`)
	}
	cases := []struct {
		query string
		names string
		pages string
	}{
		{"?limit=2", "A,B", "2"},
		{"?limit=2&page=2", "C", "2"},
		{"?limit=2&page=3", "", "2"},
		{"?limit=200", "A,B,C", "1"},
		{"", "A,B,C", "1"},
	}
	for _, tc := range cases {
		r := c.Do(http.MethodGet, "/warehouses"+tc.query, nil)
		var ws []warehouses.Warehouse
		r.JSON(t, &ws)
		var names []string
		for _, w := range ws {
			names = append(names, w.Name)
		}
		if r.Status != 200 || strings.Join(names, ",") != tc.names || r.Header.Get("Total-Pages") != tc.pages {
			t.Errorf("%s: %d %v Total-Pages %s", tc.query, r.Status, names, r.Header.Get("Total-Pages"))
		}
	}
	for _, q := range []string{"?page=0", "?limit=0", "?page=-2", "?limit=x", "?page=1.5"} {
		if r := c.Do(http.MethodGet, "/warehouses"+q, nil); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d %s, want 422", q, r.Status, r)
		}
	}
}

func TestBadInputChangesNothing(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	c := env.Client(t, env.NewAccount(t, testenv.AccountOptions{}))
	id := create(t, c, `{"warehouse":{"name":"Keep","city":"Here"}}`)
	before := list(t, c, "")
	oversize := `{"warehouse":{"name":"` + strings.Repeat("x", 1<<20) + `"}}`
	cases := []struct {
		name, method, path, body string
		status                   int
		want                     string
	}{
		{"malformed json", "POST", "/warehouses", `{"warehouse":`, 400, `{"error":"Request body is not valid JSON"}`},
		{"array body", "POST", "/warehouses", `[{"warehouse":{"name":"A"}}]`, 400, `{"error":"Request body must be a JSON object"}`},
		{"empty body", "POST", "/warehouses", ``, 400, `{"error":"Request body must be a JSON object"}`},
		{"missing wrapper", "POST", "/warehouses", `{"name":"A"}`, 422, `{"error":{"warehouse":["can't be blank"]}}`},
		{"wrapper wrong type", "POST", "/warehouses", `{"warehouse":[1]}`, 422, `{"error":{"warehouse":["must be an object"]}}`},
		{"missing name", "POST", "/warehouses", `{"warehouse":{"city":"X"}}`, 422, `{"error":{"name":["can't be blank"]}}`},
		{"invalid email", "POST", "/warehouses", `{"warehouse":{"name":"A","email":"no-at-sign"}}`, 422, `{"error":{"email":["is invalid"]}}`},
		{"wrong type", "POST", "/warehouses", `{"warehouse":{"name":{"x":1}}}`, 422, `{"error":{"name":["must be a string"]}}`},
		{"bad priority", "POST", "/warehouses", `{"warehouse":{"name":"A","priority":0}}`, 422, `{"error":{"priority":["must be an integer greater than or equal to 1"]}}`},
		{"oversize", "POST", "/warehouses", oversize, 413, ""},
		{"update malformed", "PUT", "/warehouses/" + id, `{"warehouse":{"name":"B"`, 400, ""},
		{"update blank name", "PUT", "/warehouses/" + id, `{"warehouse":{"name":""}}`, 422, `{"error":{"name":["can't be blank"]}}`},
		{"update bad archived", "PUT", "/warehouses/" + id, `{"warehouse":{"archived":"soon"}}`, 422, `{"error":{"archived":["must be true or false"]}}`},
		{"update missing wrapper", "PUT", "/warehouses/" + id, `{"city":"X"}`, 422, `{"error":{"warehouse":["can't be blank"]}}`},
		{"update unknown uuid", "PUT", "/warehouses/0190f3a4-0000-7000-8000-000000000000", `{"warehouse":{"name":"B"}}`, 404, `{"error":"Warehouse not found"}`},
		{"update odd uuid", "PUT", "/warehouses/" + url.PathEscape("A/B C+#?"), `{"warehouse":{"name":"B"}}`, 404, `{"error":"Warehouse not found"}`},
		{"update long id", "PUT", "/warehouses/" + strings.Repeat("z", 2000), `{"warehouse":{"name":"B"}}`, 404, `{"error":"Warehouse not found"}`},
	}
	for _, tc := range cases {
		r := c.Do(tc.method, tc.path, tc.body)
		if r.Status != tc.status || (tc.want != "" && r.String() != tc.want) {
			t.Errorf("%s: got %d %.200s, want %d %s", tc.name, r.Status, r, tc.status, tc.want)
		}
	}
	after := list(t, c, "")
	if len(after) != len(before) || after[0].Name != "Keep" || *after[0].City != "Here" {
		t.Fatalf("bad input changed data: %+v", after)
	}
}

func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	a := env.Client(t, env.NewAccount(t, testenv.AccountOptions{}))
	b := env.Client(t, env.NewAccount(t, testenv.AccountOptions{}))
	id := create(t, a, `{"warehouse":{"name":"A's"}}`)
	if got := list(t, b, ""); len(got) != 0 {
		t.Fatalf("B sees A's warehouses: %+v", got)
	}
	if r := b.Do(http.MethodPut, "/warehouses/"+id, `{"warehouse":{"name":"stolen"}}`); r.Status != http.StatusNotFound {
		t.Fatalf("B updated A's warehouse: %d %s", r.Status, r)
	}
	if got := list(t, a, ""); len(got) != 1 || got[0].Name != "A's" {
		t.Fatalf("A's warehouse changed: %+v", got)
	}
}

func TestUnknownRoute(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	c := env.Client(t, env.NewAccount(t, testenv.AccountOptions{}))
	if r := c.Do(http.MethodGet, "/nowhere", nil); r.Status != http.StatusNotFound || r.String() != `{"error":"Not found"}` {
		t.Fatalf("unknown route: %d %s", r.Status, r)
	}
}
