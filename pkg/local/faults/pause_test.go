package faults

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestPauseEmulators pauses each emulator (SIGSTOP) under load and resumes it (SIGCONT).
// During the pause every answer is a 2xx, or a 503 with Retry-After, each within the
// function's timeout; afterwards every accepted adjustment is applied once and whole, and
// an account's adjustments resume within seconds (the time is printed).
func TestPauseEmulators(t *testing.T) {
	for _, tc := range []struct {
		name  string
		pid   func(stackInfo) int
		pause time.Duration
	}{
		{"DynamoDB", func(i stackInfo) int { return i.DynamoDBPID }, 20 * time.Second},
		{"SQS", func(i stackInfo) int { return i.SQSPID }, 15 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startStack(t, t.TempDir())
			api := func() string { return s.info.APIURL }
			var (
				workers []*worker
				clients []client
			)
			for a := range 2 {
				c := s.newAccount(fmt.Sprintf("pause %s %d", tc.name, a))
				clients = append(clients, c)
				wh := warehouse(t, s.info.APIURL, c)
				for k := range 2 {
					workers = append(workers, newWorker(c, wh, fmt.Sprintf("W%d%d", a, k), 5))
				}
			}
			probe := s.newAccount("probe " + tc.name)
			probeWH := warehouse(t, s.info.APIURL, probe)
			stop := make(chan struct{})
			var wg sync.WaitGroup
			for _, w := range workers {
				wg.Go(func() { w.run(api, stop) })
			}
			reads := readers(api, clients, stop)
			time.Sleep(time.Second)
			pid := tc.pid(s.info)
			s.signal(pid, syscall.SIGSTOP)
			time.Sleep(tc.pause)
			s.signal(pid, syscall.SIGCONT)
			resumed := time.Now()
			applied := probeApplied(t, s.info.APIURL, probe, probeWH)
			t.Logf("%s paused %v: a PUT sent at the resume was applied %v after it", tc.name, tc.pause, applied.Round(time.Millisecond))
			close(stop)
			wg.Wait()
			reads.Wait()
			var problems []string
			answers := map[int]int{}
			for _, w := range workers {
				for code, n := range w.answers {
					answers[code] += n
				}
				problems = append(problems, w.slow...)
				problems = append(problems, w.refused...)
				o := w.settle(s.info.APIURL, recoveryBound, s.sweep)
				problems = append(problems, o.problems...)
			}
			t.Logf("%s paused %v: answers by status %v; every accepted adjustment settled %v after the resume",
				tc.name, tc.pause, answers, time.Since(resumed).Round(time.Millisecond))
			if answers[http.StatusServiceUnavailable] == 0 {
				t.Errorf("no 503 during a %v pause of %s: the pause did not bite", tc.pause, tc.name)
			}
			if applied > 10*time.Second {
				t.Errorf("adjustments resumed %v after the pause ended, want seconds", applied)
			}
			if len(problems) > 0 {
				t.Errorf("%s:\n%s", s.describe(), strings.Join(problems, "\n"))
			}
		})
	}
}

// probeApplied sends a PUT /inventory (again while it is refused) and returns how long
// from the call until it was applied.
func probeApplied(t *testing.T, api string, c client, wh string) time.Duration {
	t.Helper()
	start := time.Now()
	deadline := start.Add(recoveryBound)
	body := map[string]any{"inventory": map[string]any{"sku": "PROBE", "warehouse_uuid": wh, "on_hand": 1}}
	var id string
	for id == "" {
		a := c.do(api, http.MethodPut, "/inventory", body)
		var out struct {
			RequestID string `json:"request_id"`
		}
		if a.status == http.StatusOK && json.Unmarshal(a.body, &out) == nil {
			id = out.RequestID
		} else if time.Now().After(deadline) {
			t.Fatalf("PUT still refused %v after the resume: %d %s %v", recoveryBound, a.status, a.body, a.err)
		}
	}
	for {
		a := c.do(api, http.MethodGet, "/inventory/adjustments/"+id, nil)
		var st status
		if json.Unmarshal(a.body, &st) == nil && st.Status == "applied" {
			return time.Since(start)
		}
		if time.Now().After(deadline) {
			t.Fatalf("probe %s not applied %v after the resume: %d %s", id, recoveryBound, a.status, a.body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
