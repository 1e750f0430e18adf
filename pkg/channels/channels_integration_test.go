package channels_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func TestListChannels(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	c := env.Client(t, acct)
	ctx := context.Background()
	var made []channels.Channel
	for _, in := range []channels.Input{
		{Name: "Amazon US", Type: "Amazon", SiteID: "ATVPDKIKX0DER", Region: "US"},
		{Name: "My Shop", Type: "Shopify", State: channels.StateInactive},
		{Name: "eBay", Type: "eBay", State: channels.StateDisconnected},
	} {
		ch, err := env.Deps.Channels().Create(ctx, acct.ID, in)
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, ch)
	}
	r := c.Do(http.MethodGet, "/channels", nil)
	var got []channels.Channel
	r.JSON(t, &got)
	if r.Status != 200 || len(got) != 3 || r.Header.Get("Total-Pages") != "1" {
		t.Fatalf("list: %d %s", r.Status, r)
	}
	for i := range made {
		if got[i].UUID != made[i].UUID || got[i].State != made[i].State || got[i].ChannelTypeDisplayName != made[i].ChannelTypeDisplayName {
			t.Errorf("channel %d: got %+v, want %+v", i, got[i], made[i])
		}
	}
	if got[0].SiteID == nil || *got[0].SiteID != "ATVPDKIKX0DER" || got[1].SiteID != nil {
		t.Errorf("site ids: %v %v", got[0].SiteID, got[1].SiteID)
	}
	r = c.Do(http.MethodGet, "/channels?limit=2&page=2", nil)
	got = nil
	r.JSON(t, &got)
	if len(got) != 1 || got[0].UUID != made[2].UUID || r.Header.Get("Total-Pages") != "2" {
		t.Errorf("page 2: %s", r)
	}
	if r := c.Do(http.MethodGet, "/channels?page=9", nil); r.String() != "[]" {
		t.Errorf("past the end: %s", r)
	}
	if r := c.Do(http.MethodGet, "/channels?limit=-1", nil); r.Status != http.StatusUnprocessableEntity {
		t.Errorf("limit -1: %d", r.Status)
	}
	// Tenant isolation: another account sees none of them.
	other := env.Client(t, env.NewAccount(t, testenv.AccountOptions{}))
	if r := other.Do(http.MethodGet, "/channels", nil); r.String() != "[]" {
		t.Errorf("other account sees %s", r)
	}
	if _, err := env.Deps.Channels().Get(ctx, "acct_other", made[0].UUID); err != channels.ErrNotFound {
		t.Errorf("Get with another account: %v", err)
	}
}

func TestCreateValidation(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	for _, in := range []channels.Input{{Type: "Amazon"}, {Name: "x"}, {Name: "x", Type: "y", State: "paused"}} {
		if _, err := env.Deps.Channels().Create(context.Background(), "acct_x", in); err == nil {
			t.Errorf("Create(%+v) succeeded", in)
		}
	}
}
