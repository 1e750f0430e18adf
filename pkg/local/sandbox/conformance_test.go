package sandbox_test

import (
	"testing"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// TestConformance runs the connector conformance suite on the generic sandbox's connector.
func TestConformance(t *testing.T) {
	t.Parallel()
	h := connectorstest.GenericHarness(&sandbox.Connector{Limits: map[string]connectors.Limit{
		sandbox.OpOrders: {Rate: 10, Burst: 10}, sandbox.OpInventory: {Rate: 10, Burst: 10}}})
	connectorstest.Run(t, h)
}
