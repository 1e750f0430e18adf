// Package testenv is the integration-test harness: one local stack per test binary
// (Dynoxide in memory, fauxqs, the template's table, stream and queues, the local API Gateway
// on an httptest.Server and the pollers of the SQS and stream event sources), accounts, and
// an HTTP client whose every response is validated against docs/openapi.yaml.
//
// Use it from a package's tests:
//
//	func TestMain(m *testing.M) { testenv.Main(m) }
//
//	func TestSomething(t *testing.T) {
//		env := testenv.Get(t)
//		c := env.Client(t, env.NewAccount(t, testenv.AccountOptions{}))
//		r := c.Do("GET", "/warehouses", nil)
//		...
//	}
//
// Main stops the emulators when the tests end; without it they die with the test binary.
// With -short (make unit) Get skips the test and no emulator starts (docs/local-stack.md).
package testenv
