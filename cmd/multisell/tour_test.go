package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/testenv"
)

// The README's quick tour: the first sh block after its heading, written for `make run`'s
// base URL and the credentials its banner prints.
const (
	tourHeading = "## Quick tour"
	tourBaseURL = "http://127.0.0.1:3000/v1"
	tourCreds   = "TOKEN:SECRET"
)

// TestQuickTour runs the README's quick tour as written, against the demo account as
// `make run` creates it (onFirstStart on the test stack), with its credentials and the
// stack's URL in place of the placeholders: every curl line must answer 2xx, the shipment
// included, and the order it ships must be the first open order, as the tour says.
func TestQuickTour(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	readme, err := os.ReadFile(filepath.Join(env.Root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines, err := tourCommands(string(readme))
	if err != nil {
		t.Fatal(err)
	}
	creds, err := onFirstStart(context.Background(), env.Deps, nil)
	if err != nil {
		t.Fatalf("demo data: %v", err)
	}
	acct := testenv.Account{ID: creds.AccountID, Token: creds.AccountToken, Secret: creds.SecretKey}

	shipped := regexp.MustCompile(`"sb_order_seq":\s*(\d+)`).FindStringSubmatch(strings.Join(lines, "\n"))
	if shipped == nil {
		t.Fatal("the quick tour ships no order (no sb_order_seq in its lines)")
	}
	var open []orders.Order
	env.Client(t, acct).Do("GET", "/orders?sb_status=open&limit=1", nil).JSON(t, &open)
	if len(open) == 0 || strconv.FormatInt(open[0].Seq, 10) != shipped[1] {
		t.Fatalf("the quick tour ships order %s; the first open order of the demo is %+v", shipped[1], open)
	}

	dir := t.TempDir()
	for i, line := range lines {
		cmd := strings.NewReplacer(tourCreds, creds.AccountToken+":"+creds.SecretKey, tourBaseURL, env.URL).Replace(line)
		status, body := runTourLine(t, cmd, filepath.Join(dir, strconv.Itoa(i)))
		if status < 200 || status > 299 {
			t.Fatalf("quick tour, line %d: %s\nanswered %d: %s", i+1, line, status, body)
		}
		if strings.Contains(line, "-X POST") && strings.Contains(line, "/shipments") && !strings.Contains(body, "Shipment created") {
			t.Errorf("quick tour, line %d: the shipment answered %s", i+1, body)
		}
	}
}

// tourCommands returns the commands of the README's quick tour block, continuation lines
// joined; blank and comment lines are left out, and every command must be a curl line.
func tourCommands(readme string) ([]string, error) {
	_, section, ok := strings.Cut(readme, "\n"+tourHeading+"\n")
	if !ok {
		return nil, fmt.Errorf("README.md has no %q section", tourHeading)
	}
	_, block, ok := strings.Cut(section, "```sh\n")
	if !ok {
		return nil, fmt.Errorf("the quick tour has no sh block")
	}
	block, _, _ = strings.Cut(block, "```")
	var out []string
	var cur strings.Builder
	for _, l := range strings.Split(block, "\n") {
		l = strings.TrimSpace(l)
		if cur.Len() == 0 && (l == "" || strings.HasPrefix(l, "#")) {
			continue
		}
		if more, ok := strings.CutSuffix(l, `\`); ok {
			cur.WriteString(more)
			continue
		}
		cur.WriteString(l)
		out = append(out, cur.String())
		cur.Reset()
	}
	for _, c := range out {
		if !strings.HasPrefix(c, "curl ") {
			return nil, fmt.Errorf("quick tour line %q is not a curl line", c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the quick tour block has no command")
	}
	return out, nil
}

// runTourLine runs one line of the tour with bash, its curl recording the status, headers
// and body under prefix, and returns the status and body. A refusal by the demo account's
// rate limit (2 requests a second) is run again after its Retry-After, as a person
// copying the lines one by one never meets it.
func runTourLine(t *testing.T, line, prefix string) (int, string) {
	t.Helper()
	const wrapper = `curl() { command curl -sS -o "$TOUR_BODY" -D "$TOUR_HEADERS" -w '%{http_code}' "$@"; }` + "\n"
	for attempt := 0; ; attempt++ {
		c := exec.Command("bash", "-c", wrapper+line)
		c.Env = append(os.Environ(), "TOUR_BODY="+prefix+".body", "TOUR_HEADERS="+prefix+".headers")
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", line, err, out)
		}
		status, err := strconv.Atoi(strings.TrimSpace(string(out)))
		if err != nil {
			t.Fatalf("%s: curl printed %q", line, out)
		}
		body, _ := os.ReadFile(prefix + ".body")
		headers, _ := os.ReadFile(prefix + ".headers")
		wait := retryAfter(string(headers))
		if status != http.StatusForbidden || wait == 0 || attempt == 5 {
			return status, string(body)
		}
		time.Sleep(wait)
	}
}

// retryAfter is the Retry-After of a response's headers as curl writes them, 0 if none.
func retryAfter(headers string) time.Duration {
	for _, h := range strings.Split(headers, "\n") {
		if name, v, ok := strings.Cut(h, ":"); ok && strings.EqualFold(strings.TrimSpace(name), "Retry-After") {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 0 {
				return time.Duration(n) * time.Second
			}
		}
	}
	return 0
}
