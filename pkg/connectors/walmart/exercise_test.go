package walmart_test

import (
	"testing"
)

// exercise makes the connector send each of its requests once.
func exercise(t *testing.T, f *fixture) { t.Helper() }
