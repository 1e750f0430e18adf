package faults

import (
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// crashRounds is how many times TestCrashRecovery kills the stack.
const crashRounds = 20

// recoveryBound is how long after a restart every accepted adjustment must be applied: the
// start sends the queued ones again before the API serves, so seconds suffice.
const recoveryBound = 30 * time.Second

// TestCrashRecovery kills the whole local stack (serve and both emulators, SIGKILL) at a
// random moment under a mixed load of adjustments and reads from several accounts, starts
// it again on the same data, and checks that every adjustment answered 200 is applied
// exactly once and whole, that none is reported queued after the recovery bound, and that
// the stock invariants hold; crashRounds times, with the figures printed.
func TestCrashRecovery(t *testing.T) {
	dir := t.TempDir()
	s := startStack(t, dir)
	const accounts, workersPer, skus = 3, 2, 5
	var (
		clients []client
		workers []*worker
	)
	for a := range accounts {
		c := s.newAccount("crash " + string(rune('A'+a)))
		clients = append(clients, c)
		wh := warehouse(t, s.info.APIURL, c)
		for k := range workersPer {
			workers = append(workers, newWorker(c, wh, string(rune('A'+a))+string(rune('0'+k)), skus))
		}
	}
	rnd := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 16))
	var total outcome
	var api atomic.Value
	for round := 1; round <= crashRounds; round++ {
		api.Store(s.info.APIURL)
		current := func() string { return api.Load().(string) }
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for _, w := range workers {
			w.accepted, w.unknown = nil, nil
			wg.Go(func() { w.run(current, stop) })
		}
		reads := readers(current, clients, stop)
		time.Sleep(time.Duration(300+rnd.IntN(1200)) * time.Millisecond)
		s.kill()
		close(stop)
		wg.Wait()
		reads.Wait()
		s = startStack(t, dir)
		start := time.Now()
		var r outcome
		for _, w := range workers {
			o := w.settle(s.info.APIURL, recoveryBound, s.sweep)
			r.accepted += o.accepted
			r.lost += o.lost
			r.queued += o.queued
			r.halfApplied += o.halfApplied
			r.problems = append(r.problems, o.problems...)
		}
		t.Logf("round %2d: %3d accepted, %d lost, %d half-applied, %d queued after recovery; settled in %v",
			round, r.accepted, r.lost, r.halfApplied, r.queued, time.Since(start).Round(time.Millisecond))
		if len(r.problems) > 0 {
			t.Errorf("round %d (%s):\n%s", round, s.describe(), strings.Join(r.problems, "\n"))
		}
		total.accepted += r.accepted
		total.lost += r.lost
		total.queued += r.queued
		total.halfApplied += r.halfApplied
	}
	t.Logf("%d rounds: %d adjustments accepted, %d lost, %d half-applied, %d reported queued after recovery + %v",
		crashRounds, total.accepted, total.lost, total.halfApplied, total.queued, recoveryBound)
}
