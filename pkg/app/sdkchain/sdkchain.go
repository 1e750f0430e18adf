// Package sdkchain builds pkg/app's clients with the AWS SDK's
// configuration chain (the environment, shared config files, SSO, STS, ...),
// for the CLI, the local stack and the tests. A function on Lambda never
// needs that chain (app.NewLambda reads the credentials Lambda gives it),
// and pkg/app does not import it, so that no function's binary links it
// (docs/decisions.md).
package sdkchain

import (
	"context"
	"fmt"

	awsconfig "github.com/aws/aws-sdk-go-v2/config"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/app/kmsclient"
	"github.com/multisell/multisell/pkg/app/secretsclient"
)

// New builds the clients of cfg over the AWS configuration the SDK's chain
// finds in cfg's region (app.NewDeps: against the emulators, with their
// dummy credentials), every optional one included: the CLI, the local stack
// and the tests run every function's handler.
func New(ctx context.Context, cfg app.Config) (*app.Deps, error) {
	awsCfg, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithRegion(cfg.Region))
	if err != nil {
		return nil, fmt.Errorf("load AWS config: %w", err)
	}
	return app.NewDeps(cfg, awsCfg, kmsclient.Keys, secretsclient.Apps), nil
}
