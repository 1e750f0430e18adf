package usageplans

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"
	"github.com/aws/aws-sdk-go-v2/service/apigateway/types"

	"github.com/multisell/multisell/pkg/sdkhttp"
)

// AWS is the Gateway of one REST API's stage in API Gateway.
type AWS struct {
	Client *apigateway.Client
	APIID  string
	Stage  string
}

// NewAWS is the Gateway of the stage of the API apiID in region, through the
// standard AWS configuration.
func NewAWS(ctx context.Context, region, apiID, stage string) (AWS, error) {
	cfg, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithRegion(region))
	if err != nil {
		return AWS{}, fmt.Errorf("load AWS config: %w", err)
	}
	cfg.HTTPClient = sdkhttp.Guard(cfg.HTTPClient)
	return AWS{Client: apigateway.NewFromConfig(cfg), APIID: apiID, Stage: stage}, nil
}

// NewLocal is the Gateway of the stage of the API apiID served by the local
// stack's gateway at endpoint (its root URL), which plays API Gateway's
// management calls the accounts need (FlushAuthorizers); requests are not
// signed.
func NewLocal(endpoint, apiID, stage string) AWS {
	client := apigateway.New(apigateway.Options{
		Region: "us-east-1", BaseEndpoint: aws.String(endpoint), Credentials: aws.AnonymousCredentials{},
	})
	return AWS{Client: client, APIID: apiID, Stage: stage}
}

// FlushAuthorizers implements accounts.AuthorizerCache: API Gateway forgets
// the stage's cached authorizer answers, so every credential is authorized
// again on its next request.
func (a AWS) FlushAuthorizers(ctx context.Context) error {
	_, err := a.Client.FlushStageAuthorizersCache(ctx, &apigateway.FlushStageAuthorizersCacheInput{
		RestApiId: aws.String(a.APIID), StageName: aws.String(a.Stage),
	})
	if err != nil {
		return fmt.Errorf("flush the authorizer cache of %s/%s: %w", a.APIID, a.Stage, err)
	}
	return nil
}

// Plans implements Gateway: every usage plan, those of the stage kept.
func (a AWS) Plans(ctx context.Context) ([]Plan, error) {
	var out []Plan
	p := apigateway.NewGetUsagePlansPaginator(a.Client, &apigateway.GetUsagePlansInput{Limit: aws.Int32(500)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, up := range page.Items {
			if a.onStage(up.ApiStages) {
				out = append(out, planOf(up.Id, up.Name, up.Throttle))
			}
		}
	}
	return out, nil
}

func (a AWS) onStage(stages []types.ApiStage) bool {
	for _, s := range stages {
		if aws.ToString(s.ApiId) == a.APIID && aws.ToString(s.Stage) == a.Stage {
			return true
		}
	}
	return false
}

func planOf(id, name *string, t *types.ThrottleSettings) Plan {
	p := Plan{ID: aws.ToString(id), Name: aws.ToString(name)}
	if t != nil {
		p.Rate, p.Burst = t.RateLimit, int(t.BurstLimit)
	}
	return p
}

// CreatePlan implements Gateway.
func (a AWS) CreatePlan(ctx context.Context, name string, rate float64, burst int) (Plan, error) {
	out, err := a.Client.CreateUsagePlan(ctx, &apigateway.CreateUsagePlanInput{
		Name:        aws.String(name),
		Description: aws.String("multisell accounts of this rate (created by multisell accounts create)"),
		ApiStages:   []types.ApiStage{{ApiId: aws.String(a.APIID), Stage: aws.String(a.Stage)}},
		Throttle:    &types.ThrottleSettings{RateLimit: rate, BurstLimit: int32(burst)},
	})
	if err != nil {
		return Plan{}, err
	}
	return planOf(out.Id, out.Name, out.Throttle), nil
}

// CreateKey implements Gateway.
func (a AWS) CreateKey(ctx context.Context, name, value string) (string, error) {
	out, err := a.Client.CreateApiKey(ctx, &apigateway.CreateApiKeyInput{
		Name: aws.String(name), Value: aws.String(value), Enabled: true,
		Description: aws.String("usage identifier of a multisell account (returned by the authorizer, never sent by clients)"),
	})
	if err != nil {
		return "", err
	}
	return aws.ToString(out.Id), nil
}

// AddKey implements Gateway.
func (a AWS) AddKey(ctx context.Context, planID, keyID string) error {
	_, err := a.Client.CreateUsagePlanKey(ctx, &apigateway.CreateUsagePlanKeyInput{
		UsagePlanId: aws.String(planID), KeyId: aws.String(keyID), KeyType: aws.String("API_KEY"),
	})
	return err
}
