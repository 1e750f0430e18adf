package testenv

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/app/sdkchain"
	"github.com/multisell/multisell/pkg/local/emulators"
	"github.com/multisell/multisell/pkg/local/gateway"
)

// Local is AWS DynamoDB Local with the template's table, for fidelity checks of code that
// Dynoxide runs too.
type Local struct {
	Endpoint string
	// Stack is the table provisioned on DynamoDB Local (no queues), with its stream ARN when
	// the template gives the table a stream; its DynamoDBStreams client reads that stream.
	Stack *gateway.Stack
	// Config is the shared stack's configuration with DynamoDB Local as the DynamoDB endpoint.
	Config app.Config
	Deps   *app.Deps
}

var (
	localOnce sync.Once
	localVal  *Local
	localErr  error
)

// DynamoDBLocal returns DynamoDB Local (started once per test binary, in memory, with the
// template's table). It skips the test only when Java is not installed, and never in CI (the
// CI environment variable set), where it fails instead.
func DynamoDBLocal(t testing.TB) *Local {
	t.Helper()
	if !emulators.JavaAvailable() {
		if os.Getenv("CI") != "" {
			t.Fatal("testenv: java is not installed; CI must run the DynamoDB Local checks (make deps installs it)")
		}
		t.Skip("testenv: java is not installed; DynamoDB Local needs it (make deps installs it)")
	}
	env := Get(t)
	localOnce.Do(func() { localVal, localErr = startLocal(env) })
	if localErr != nil {
		t.Fatalf("testenv: DynamoDB Local: %v", localErr)
	}
	return localVal
}

func startLocal(env *Env) (*Local, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	p, err := emulators.StartDynamoDBLocal(ctx)
	if err != nil {
		return nil, err
	}
	mu.Lock()
	cleanups = append(cleanups, func() { _ = p.Stop() })
	mu.Unlock()
	stack, err := gateway.Provision(ctx, env.Template, gateway.Endpoints{DynamoDB: p.Endpoint}, gateway.ProvisionOptions{TableOnly: true})
	if err != nil {
		return nil, err
	}
	cfg := env.Config
	cfg.DynamoDBEndpoint = p.Endpoint
	cfg.TableName = stack.TableName
	deps, err := sdkchain.New(context.Background(), cfg)
	if err != nil {
		return nil, fmt.Errorf("app.New: %w", err)
	}
	return &Local{Endpoint: p.Endpoint, Stack: stack, Config: cfg, Deps: deps}, nil
}
