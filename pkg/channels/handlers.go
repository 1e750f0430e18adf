package channels

import (
	"context"
	"fmt"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
)

// Handlers serves the channel endpoints over the Service.
type Handlers struct{ Service }

// List serves GET /channels: a page of the account's channels in creation
// order (their uuids'), with Total-Pages, or by cursor.
func (h Handlers) List(ctx context.Context, r *api.Request) (*api.Response, error) {
	return api.ListAll(ctx, r, "channels", func(ctx context.Context) ([]Channel, error) { return h.Service.List(ctx, r.Account.ID) },
		func(c Channel) string { return c.UUID })
}

// Update serves PUT /channels/{uuid}: it replaces the channel's inventory
// rules and answers the channel; 404 for a uuid the account does not have.
func (h Handlers) Update(ctx context.Context, r *api.Request) (*api.Response, error) {
	body, err := r.Decode()
	if err != nil {
		return nil, err
	}
	rules, err := ParseUpdate(body)
	if err != nil {
		return nil, err
	}
	c, err := h.Service.SetRules(ctx, r.Account.ID, r.PathParam("uuid"), rules)
	if err != nil {
		return nil, err
	}
	return api.OK(c), nil
}

// decodeSmall decodes a body of at most MaxConnectBody bytes (413 past it).
func decodeSmall(r *api.Request) (lenient.Object, error) {
	if len(r.APIGatewayProxyRequest.Body) > MaxConnectBody {
		return nil, errs.TooLarge(fmt.Sprintf("The request body may have %d bytes at most", MaxConnectBody))
	}
	return r.Decode()
}

// envelope is the body of a channel's answer, {"channel":{...}}.
func envelope(c Channel) map[string]Channel { return map[string]Channel{"channel": c} }

// Create serves POST /channels: it connects a channel through one of
// multisell's connectors after verifying its credentials with the channel,
// and answers 201 {"channel":{...}}.
func (h Handlers) Create(ctx context.Context, r *api.Request) (*api.Response, error) {
	body, err := decodeSmall(r)
	if err != nil {
		return nil, err
	}
	in, err := ParseConnect(body)
	if err != nil {
		return nil, err
	}
	c, err := h.Service.Connect(ctx, r.Account.ID, in)
	if err != nil {
		return nil, err
	}
	return api.Created(envelope(c)), nil
}

// Patch serves PATCH /channels/{uuid}: a new state (active or inactive)
// and/or new credentials, verified as on POST; 404 for a uuid the account
// does not have.
func (h Handlers) Patch(ctx context.Context, r *api.Request) (*api.Response, error) {
	body, err := decodeSmall(r)
	if err != nil {
		return nil, err
	}
	in, err := ParsePatch(body)
	if err != nil {
		return nil, err
	}
	c, err := h.Service.Patch(ctx, r.Account.ID, r.PathParam("uuid"), in)
	if err != nil {
		return nil, err
	}
	return api.OK(envelope(c)), nil
}

// Delete serves DELETE /channels/{uuid}: the channel is disconnected and its
// credentials destroyed; its orders and listings are kept.
func (h Handlers) Delete(ctx context.Context, r *api.Request) (*api.Response, error) {
	c, err := h.Service.Disconnect(ctx, r.Account.ID, r.PathParam("uuid"), DisconnectedByMerchant)
	if err != nil {
		return nil, err
	}
	return api.OK(envelope(c)), nil
}

// Migrate serves POST /channels/{uuid}/migrations: it migrates the listings named by
// listing_refs (eBay ItemIDs) into eBay's Inventory API, on the merchant's request only, and
// answers 200 {"migrations":[...]}, one per listing, each ok with its new listing_ref or
// failed with eBay's error; 404 for a channel not connected, 422 for one that is not eBay's.
func (h Handlers) Migrate(ctx context.Context, r *api.Request) (*api.Response, error) {
	body, err := decodeSmall(r)
	if err != nil {
		return nil, err
	}
	refs, err := ParseMigrations(body)
	if err != nil {
		return nil, err
	}
	ms, err := h.Service.Migrate(ctx, r.Account.ID, r.PathParam("uuid"), refs)
	if err != nil {
		return nil, err
	}
	return api.OK(map[string][]Migration{"migrations": ms}), nil
}
