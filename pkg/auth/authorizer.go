package auth

import (
	"context"
	"crypto/subtle"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/accounts"
	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/deadline"
	"github.com/multisell/multisell/pkg/errs"
)

// ErrUnauthorized is the error API Gateway turns into its UNAUTHORIZED
// gateway response (401).
var ErrUnauthorized = errors.New("Unauthorized")

// Authorizer is the Lambda REQUEST authorizer.
type Authorizer struct {
	// Accounts reads the account a token names (the accounts service,
	// wired in pkg/app).
	Accounts AccountReader
}

// AccountReader reads one account by its id; an unknown id is an
// errs.KindNotFound error.
type AccountReader interface {
	Get(ctx context.Context, id string) (accounts.Account, error)
}

// answerMargin is how long before its timeout the authorizer stops waiting
// for the account's read: the error it then returns is API Gateway's
// AUTHORIZER_FAILURE, which the template answers 503 with Retry-After.
const answerMargin = 2 * time.Second

// Handle authenticates the request's Basic credentials. On success it allows
// every method of the API (the result is cached per Authorization header),
// passes the account id, its rate limits and its secret version in the
// context, and names the account's API key (its id) as the usage
// identifier, so API Gateway applies the account's usage plan. A disabled
// account, like any other failure, is ErrUnauthorized. Nothing secret is
// logged.
func (a Authorizer) Handle(ctx context.Context, req events.APIGatewayCustomAuthorizerRequestTypeRequest) (events.APIGatewayCustomAuthorizerResponse, error) {
	token, secret, ok := ParseBasic(api.HeaderValue(req.Headers, req.MultiValueHeaders, "Authorization"))
	if !ok {
		return events.APIGatewayCustomAuthorizerResponse{}, ErrUnauthorized
	}
	id := accounts.IDForToken(token)
	ctx, cancel := deadline.Reserve(ctx, answerMargin)
	defer cancel()
	acct, err := a.Accounts.Get(ctx, id)
	if errs.KindOf(err) == errs.KindNotFound {
		return events.APIGatewayCustomAuthorizerResponse{}, ErrUnauthorized
	}
	if err != nil {
		slog.ErrorContext(ctx, "authorizer: read account", "account_id", id, "error", err)
		return events.APIGatewayCustomAuthorizerResponse{}, err
	}
	if subtle.ConstantTimeCompare([]byte(accounts.HashSecret(secret)), []byte(acct.SecretHash)) != 1 ||
		subtle.ConstantTimeCompare([]byte(token), []byte(acct.Token)) != 1 || acct.Disabled {
		return events.APIGatewayCustomAuthorizerResponse{}, ErrUnauthorized
	}
	return events.APIGatewayCustomAuthorizerResponse{
		PrincipalID: acct.ID,
		PolicyDocument: events.APIGatewayCustomAuthorizerPolicy{
			Version: "2012-10-17",
			Statement: []events.IAMPolicyStatement{{
				Action: []string{"execute-api:Invoke"}, Effect: "Allow",
				Resource: []string{apiWildcard(req.MethodArn)},
			}},
		},
		Context:            map[string]any{"account_id": acct.ID, "rps": acct.RPS, "rpm": acct.RPM, "secret_version": acct.SecretVersion},
		UsageIdentifierKey: accounts.APIKey(acct.ID),
	}, nil
}

// apiWildcard turns the method ARN
// arn:aws:execute-api:region:acct:api/stage/METHOD/path into
// arn:aws:execute-api:region:acct:api/stage/*/* so that the cached policy
// covers every endpoint.
func apiWildcard(methodArn string) string {
	parts := strings.SplitN(methodArn, "/", 3)
	if len(parts) < 2 {
		return "*"
	}
	return parts[0] + "/" + parts[1] + "/*/*"
}
