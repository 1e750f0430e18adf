// Package secretsclient gives pkg/app the Secrets Manager client of the functions that read
// the operator's apps (the consent flow's): their mains pass Apps to app.NewLambda. The
// other functions do not import it, so their binaries do not link the Secrets Manager SDK
// (docs/decisions.md).
package secretsclient

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"github.com/multisell/multisell/pkg/app"
)

// cacheFor is how long a function keeps the secret it read: an operator's change reaches
// every function within it.
const cacheFor = 5 * time.Minute

// Apps is an app.Client: it sets d.ConsentApps to the value of the secret
// CONSENT_APPS_SECRET names, read with GetSecretValue and kept for cacheFor. Without the
// variable, or against the emulators (whose apps are the sandboxes', d.LocalApps), it sets
// nothing.
func Apps(d *app.Deps, awsCfg aws.Config) {
	if d.Config.ConsentAppsSecret == "" || d.LocalApps != nil {
		return
	}
	c := &cached{client: secretsmanager.NewFromConfig(awsCfg), id: d.Config.ConsentAppsSecret}
	d.ConsentApps = c.value
}

// cached is the secret's value as last read.
type cached struct {
	client *secretsmanager.Client
	id     string
	mu     sync.Mutex
	doc    []byte
	at     time.Time
}

// value is the secret's value, read again when older than cacheFor. Its errors never
// quote it.
func (c *cached) value(ctx context.Context) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.doc != nil && time.Since(c.at) < cacheFor {
		return c.doc, nil
	}
	out, err := c.client.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: aws.String(c.id)})
	if err != nil {
		return nil, fmt.Errorf("read the operator's apps (secret %s): %w", c.id, err)
	}
	if out.SecretString == nil {
		return nil, errors.New("the operator's apps secret has no SecretString")
	}
	c.doc, c.at = []byte(*out.SecretString), time.Now()
	return c.doc, nil
}
