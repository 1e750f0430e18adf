package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestUsage: multisell -h and each command's -h list every subcommand (exit 0), and a
// command called wrongly exits 2, as a bad flag does: a bad flag on each command and
// subcommand, an unknown or missing subcommand, an unknown command, an argument too many.
// Nothing here reaches a stack: each call fails before it would.
func TestUsage(t *testing.T) {
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range commands {
			if !yield(n) {
				return
			}
		}
	})
	code, top, _ := cli(t, "-h")
	if code != 0 {
		t.Fatalf("multisell -h: exit %d", code)
	}
	type call struct {
		args []string
		want int
	}
	var calls []call
	for _, n := range names {
		c := commands[n]
		if !strings.Contains(top, "  "+n+" ") {
			t.Errorf("multisell -h does not list %s", n)
		}
		if c.subs == nil {
			calls = append(calls, call{[]string{n, "--no-such-flag"}, 2})
			continue
		}
		code, help, _ := cli(t, n, "-h")
		if code != 0 {
			t.Errorf("multisell %s -h: exit %d, want 0", n, code)
		}
		for _, s := range c.subs {
			if line := fmt.Sprintf("multisell %s %s", n, s.name); !strings.Contains(help, line) {
				t.Errorf("multisell %s -h does not list %q:\n%s", n, line, help)
			}
			if line := fmt.Sprintf("%s %s %s", n, s.name, s.use); !strings.Contains(top, line) {
				t.Errorf("multisell -h does not list %q", line)
			}
			calls = append(calls, call{[]string{n, s.name, "--no-such-flag"}, 2}, call{[]string{n, s.name, "-h"}, 0})
		}
		calls = append(calls, call{[]string{n, "no-such-subcommand"}, 2}, call{[]string{n}, 2})
	}
	calls = append(calls, call{[]string{"no-such-command"}, 2}, call{[]string{"recount", "--account", "T", "extra"}, 2},
		call{[]string{"orders", "import", "--account", "T"}, 2}, call{[]string{"--version"}, 0},
		call{[]string{"channels", "authorize", "--account", "T"}, 2}, call{[]string{"channels", "authorize", "--account", "T", "--type", "amazon", "--field", "novalue"}, 2})
	for _, c := range calls {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			if code, out, errOut := cli(t, c.args...); code != c.want {
				t.Errorf("exit %d, want %d; stdout %q, stderr %q", code, c.want, out, errOut)
			}
		})
	}
}

// TestHelpText: durations and placeholders read as people write them.
func TestHelpText(t *testing.T) {
	tests := []struct {
		args      []string
		want, not string
	}{
		{[]string{"serve", "-h"}, "-auth-cache TTL", "-1ns"},
		{[]string{"webhooks", "listen", "-h"}, "-secret whsec_...", "-port port"},
		{[]string{"--version"}, "multisell ", ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, out, errOut := cli(t, tt.args...)
			got := out + errOut
			if !strings.Contains(got, tt.want) || tt.not != "" && strings.Contains(got, tt.not) {
				t.Errorf("got %q, want %q without %q", got, tt.want, tt.not)
			}
		})
	}
}

// TestProgressOffTerminal: off a terminal, a step's progress is one line when it is done,
// with no carriage return.
func TestProgressOffTerminal(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	bar := &progressBar{w: &b, terminal: isTerminal(&b)}
	for i := range 301 {
		bar.update("orders", i, 300)
	}
	bar.update("products", 100, 100)
	bar.finish()
	if got, want := b.String(), "orders                   300/300\nproducts                 100/100\n"; got != want {
		t.Errorf("progress = %q, want %q", got, want)
	}
}
