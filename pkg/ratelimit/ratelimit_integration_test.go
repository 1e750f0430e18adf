package ratelimit_test

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// inWindow runs try with a client of a fresh account (opts), made before
// the window starts, until all its requests fell into one clock window of
// size w (second or minute). A run that straddles a window boundary proves
// nothing and is repeated with a fresh account; only the error of a run
// that fit the window fails the test.
func inWindow(t *testing.T, w time.Duration, opts testenv.AccountOptions, try func(c *testenv.Client) error) {
	t.Helper()
	env := testenv.Get(t)
	for range 5 {
		c := env.Client(t, env.NewAccount(t, opts))
		// Start just after a boundary so the whole attempt fits the window.
		time.Sleep(time.Until(time.Now().Truncate(w).Add(w + 20*time.Millisecond)))
		start := time.Now().Truncate(w)
		err := try(c)
		if time.Now().Truncate(w).Equal(start) {
			if err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatal("could not fit the requests into one window")
}

func TestThirdRequestInOneSecondIsRefused(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	var r *testenv.Response
	inWindow(t, time.Second, testenv.AccountOptions{RPS: 2, RPM: 40}, func(c *testenv.Client) error {
		var got []int
		for range 3 {
			got = append(got, c.Do(http.MethodGet, "/channels", nil).Status)
		}
		r = c.Do(http.MethodGet, "/channels", nil)
		if want := []int{200, 200, 403, 403}; !slices.Equal(append(got, r.Status), want) {
			return fmt.Errorf("statuses %v then %d, want %v", got, r.Status, want)
		}
		return nil
	})
	if r.String() != "Rate Limit Exceeded" || r.Header.Get("Retry-After") != "1" {
		t.Errorf("403 body %q Retry-After %q", r, r.Header.Get("Retry-After"))
	}
	// Another account is unaffected.
	if o := env.Client(t, env.NewAccount(t, testenv.AccountOptions{RPS: 2, RPM: 40})).Do(http.MethodGet, "/channels", nil); o.Status != 200 {
		t.Errorf("other account got %d", o.Status)
	}
}

func TestFortyFirstRequestInOneMinuteIsRefused(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	if time.Now().Second() > 50 {
		time.Sleep(time.Until(time.Now().Truncate(time.Minute).Add(time.Minute + 50*time.Millisecond)))
	}
	for attempt := 0; ; attempt++ {
		minute := time.Now().Truncate(time.Minute)
		c := env.Client(t, env.NewAccount(t, testenv.AccountOptions{RPS: 1000, RPM: 40}))
		for i := range 40 {
			if r := c.Do(http.MethodGet, "/warehouses", nil); r.Status != 200 {
				t.Fatalf("request %d: %d %s", i+1, r.Status, r)
			}
		}
		r := c.Do(http.MethodGet, "/warehouses", nil)
		if !time.Now().Truncate(time.Minute).Equal(minute) && attempt < 2 {
			continue // crossed a minute boundary: the count restarted
		}
		if r.Status != http.StatusForbidden || r.String() != "Rate Limit Exceeded" {
			t.Fatalf("41st request: %d %s", r.Status, r)
		}
		retry, err := strconv.Atoi(r.Header.Get("Retry-After"))
		if err != nil || retry < 1 || retry > 60 {
			t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
		}
		return
	}
}

func TestParallelRequestsInOneSecondExactlyTwoPass(t *testing.T) {
	t.Parallel()
	inWindow(t, time.Second, testenv.AccountOptions{RPS: 2, RPM: 1000}, func(c *testenv.Client) error {
		var wg sync.WaitGroup
		statuses := make([]int, 10)
		for i := range statuses {
			wg.Go(func() { statuses[i] = c.Do(http.MethodGet, "/channels", nil).Status })
		}
		wg.Wait()
		counts := map[int]int{}
		for _, s := range statuses {
			counts[s]++
		}
		if counts[200] != 2 || counts[403] != 8 {
			return fmt.Errorf("statuses %v: want exactly 2 x 200 and 8 x 403", statuses)
		}
		return nil
	})
}

// TestRefusedRequestsDoNotCount: with 2 per second and 3 per minute, the
// refused third request of a second leaves room for one more in the next.
// The first three requests must share one second and the last two the next,
// all in one minute; a run the clock splits otherwise proves nothing and is
// repeated with a fresh account.
func TestRefusedRequestsDoNotCount(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	for range 5 {
		if time.Now().Second() > 55 {
			time.Sleep(time.Until(time.Now().Truncate(time.Minute).Add(time.Minute + 50*time.Millisecond)))
		}
		c := env.Client(t, env.NewAccount(t, testenv.AccountOptions{RPS: 2, RPM: 3}))
		time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second + 20*time.Millisecond)))
		second := time.Now().Truncate(time.Second)
		var got []int
		for range 3 {
			got = append(got, c.Do(http.MethodGet, "/channels", nil).Status)
		}
		if !time.Now().Truncate(time.Second).Equal(second) {
			continue // the first three crossed a second
		}
		time.Sleep(time.Until(second.Add(time.Second + 20*time.Millisecond)))
		got = append(got, c.Do(http.MethodGet, "/channels", nil).Status)
		last := c.Do(http.MethodGet, "/channels", nil)
		if end := time.Now(); !end.Truncate(time.Second).Equal(second.Add(time.Second)) ||
			!end.Truncate(time.Minute).Equal(second.Truncate(time.Minute)) {
			continue // the last two crossed a second, or the run a minute
		}
		if got[0] != 200 || got[1] != 200 || got[2] != 403 || got[3] != 200 || last.Status != 403 {
			t.Fatalf("statuses %v then %d, want 200 200 403 200 403", got, last.Status)
		}
		if ra, _ := strconv.Atoi(last.Header.Get("Retry-After")); ra < 1 {
			t.Fatalf("Retry-After %q", last.Header.Get("Retry-After"))
		}
		return
	}
	t.Fatal("could not fit the requests into two seconds of one minute")
}

// quotaOf reads a response's rate-limit headers (-1 for a missing one).
func quotaOf(r *testenv.Response) [3]int {
	var q [3]int
	for i, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} {
		n, err := strconv.Atoi(r.Header.Get(h))
		if err != nil {
			n = -1
		}
		q[i] = n
	}
	return q
}

// TestRateLimitHeaders: every answer, the 403 included, carries the
// tighter window's limit, what remains of it and the seconds until it
// resets; the count goes down within a second and is whole again in the
// next one. An error answer (404) counts and carries them too.
func TestRateLimitHeaders(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	want := [][3]int{{3, 2, 1}, {3, 1, 1}, {3, 0, 1}, {3, 0, 1}}
	var got [][3]int
	inWindow(t, time.Second, testenv.AccountOptions{RPS: 3, RPM: 40}, func(c *testenv.Client) error {
		got = nil
		for _, path := range []string{"/channels", "/products/NO-SUCH-SKU", "/channels", "/channels"} {
			got = append(got, quotaOf(c.Do(http.MethodGet, path, nil)))
		}
		return nil // compared below, once the requests are known to share a second
	})
	if !slices.Equal(got, want) {
		t.Errorf("limit, remaining, reset of 4 requests in one second: %v, want %v", got, want)
	}
	c := env.Client(t, env.NewAccount(t, testenv.AccountOptions{RPS: 3, RPM: 40}))
	first := quotaOf(c.Do(http.MethodGet, "/channels", nil))
	time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second + 20*time.Millisecond)))
	if next := quotaOf(c.Do(http.MethodGet, "/channels", nil)); next != first || first != [3]int{3, 2, 1} {
		t.Errorf("first request of two seconds: %v and %v, want [3 2 1] both", first, next)
	}
}

// TestRateLimitHeadersOfTheMinute: when the minute has fewer requests left
// than the second, the headers are the minute's, and its 403 says when the
// minute ends.
func TestRateLimitHeadersOfTheMinute(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	if time.Now().Second() > 55 {
		time.Sleep(time.Until(time.Now().Truncate(time.Minute).Add(time.Minute + 50*time.Millisecond)))
	}
	c := env.Client(t, env.NewAccount(t, testenv.AccountOptions{RPS: 100, RPM: 2}))
	minute := time.Now().Truncate(time.Minute)
	a, b := c.Do(http.MethodGet, "/channels", nil), c.Do(http.MethodGet, "/channels", nil)
	// The reset is 60 minus the clock second the request was counted in.
	hi := 60 - time.Now().Second()
	refused := c.Do(http.MethodGet, "/channels", nil)
	lo := 60 - time.Now().Second()
	if !time.Now().Truncate(time.Minute).Equal(minute) {
		t.Skip("crossed a minute boundary; the windows restarted")
	}
	if qa, qb := quotaOf(a), quotaOf(b); qa[0] != 2 || qa[1] != 1 || qb[0] != 2 || qb[1] != 0 {
		t.Errorf("limit and remaining: %v then %v, want 2 1 then 2 0", qa, qb)
	}
	q := quotaOf(refused)
	if refused.Status != http.StatusForbidden || q[0] != 2 || q[1] != 0 || q[2] < lo || q[2] > hi {
		t.Errorf("refused: %d with %v, want 403 with 2 0 and a reset of %d..%d s", refused.Status, q, lo, hi)
	}
	if ra := refused.Header.Get("Retry-After"); ra != strconv.Itoa(q[2]) {
		t.Errorf("Retry-After %q, want the reset %d", ra, q[2])
	}
}
