package queue

import (
	"strings"
	"testing"
)

func TestGroup(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 1000)
	if g := Group("listing", "acct", long, long); len(g) > 128 || !strings.HasPrefix(g, "listing-") {
		t.Errorf("Group = %q (%d characters): SQS takes 128", g, len(g))
	}
	if Group("p", "a", "bc") == Group("p", "ab", "c") {
		t.Error("the parts' boundaries are lost")
	}
}
