package consent

import (
	"context"
	"fmt"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/errs"
)

// Handlers serves the consent endpoints over the Service.
type Handlers struct{ Service }

// Create serves POST /channels/authorizations: it creates an authorization and answers 201
// {"authorization":{...,"consent_url","expires_at"}}.
func (h Handlers) Create(ctx context.Context, r *api.Request) (*api.Response, error) {
	if len(r.APIGatewayProxyRequest.Body) > MaxBody {
		return nil, errs.TooLarge(fmt.Sprintf("The request body may have %d bytes at most", MaxBody))
	}
	body, err := r.Decode()
	if err != nil {
		return nil, err
	}
	in, err := ParseInput(body)
	if err != nil {
		return nil, err
	}
	a, err := h.Service.Authorize(ctx, r.Account.ID, in)
	if err != nil {
		return nil, err
	}
	return api.Created(map[string]Authorization{"authorization": a}), nil
}

// Callback serves the public GET /channels/authorizations/{type}/callback, where the
// marketplace sends the merchant's browser back: a redirect to the authorization's
// return_url, else a page saying how it went; a state that cannot be trusted is a 404 page.
func (h Handlers) Callback(ctx context.Context, r *api.Request) (*api.Response, error) {
	res, err := h.Service.Callback(ctx, r.PathParam("type"), r.QueryValues())
	switch {
	case err != nil:
		return nil, err
	case res.Redirect != "":
		return api.SeeOther(res.Redirect), nil
	case res.Code != "":
		return nil, errs.Invalid("The channel %s was not connected: %s. Start again from where you chose to connect it.", res.Name, res.Code)
	}
	return api.TextPage(fmt.Sprintf("The channel %s is connected: its uuid is %s. You may close this page.", res.Name, res.Channel)), nil
}
