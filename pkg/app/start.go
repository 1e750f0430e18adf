package app

import (
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// NewLambda sets up logging and builds the clients of a function on Lambda,
// for its main. It reads the AWS settings from the environment Lambda gives
// every function (the region in cfg, the execution role's credentials in
// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN) and skips
// the SDK's configuration chain, which a function never needs and whose
// code (shared files, SSO, STS, instance metadata) would be most of what
// the binary links beyond its handler (docs/decisions.md). The limits on an
// AWS call and the local endpoints are NewDeps's, and so are clients: a
// function passes those its handler calls (pkg/app/kmsclient.Keys).
func NewLambda(cfg Config, clients ...Client) *Deps {
	SetupLogging()
	return NewDeps(cfg, lambdaAWSConfig(cfg, os.Getenv), clients...)
}

// lambdaAWSConfig is the AWS configuration of a function on Lambda, with the
// credentials getenv returns.
func lambdaAWSConfig(cfg Config, getenv func(string) string) aws.Config {
	return withLimits(cfg, aws.Config{Region: cfg.Region, Credentials: credentials.NewStaticCredentialsProvider(
		getenv("AWS_ACCESS_KEY_ID"), getenv("AWS_SECRET_ACCESS_KEY"), getenv("AWS_SESSION_TOKEN"))})
}
