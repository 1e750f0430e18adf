// Package kmsclient gives pkg/app the KMS client of the functions that seal or open
// channel secrets (connecting a channel, the connector functions): their mains pass Keys to
// app.NewLambda, the CLI, the local stack and the tests get it from pkg/app/sdkchain. The
// other functions do not import it, so their binaries do not link the KMS SDK
// (docs/decisions.md).
package kmsclient

import (
	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/secrets/kmskeys"
)

// Keys is an app.Client: it sets d.Keys to the key of CREDENTIALS_KEY_ID, over a KMS client
// at KMS_ENDPOINT when that is set.
func Keys(d *app.Deps, awsCfg aws.Config) {
	d.Keys = kmskeys.New(awsCfg, d.Config.KMSEndpoint, d.Config.CredentialsKeyID)
}
