package functions

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkColdStart builds every function as the Makefile's build target
// does and reports, per function, the size of its linux/arm64 binary (MB)
// and its init time (init-ms): from the process's start to its first
// request for an invocation, the median of b.N starts of the binary built
// for this machine, against a fake Lambda runtime API that never answers.
// The binaries stay in bin/bench/, so a second run only relinks what
// changed.
func BenchmarkColdStart(b *testing.B) {
	lambdaDir := build(b, "linux", "arm64")
	hostDir := build(b, runtime.GOOS, runtime.GOARCH)
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			info, err := os.Stat(filepath.Join(lambdaDir, name))
			if err != nil {
				b.Fatal(err)
			}
			api := newFakeRuntime(b)
			starts := make([]time.Duration, 0, b.N)
			for range b.N {
				starts = append(starts, api.start(b, filepath.Join(hostDir, name)))
			}
			slices.Sort(starts)
			b.ReportMetric(0, "ns/op")
			b.ReportMetric(float64(info.Size())/1e6, "MB")
			b.ReportMetric(float64(starts[len(starts)/2].Microseconds())/1e3, "init-ms")
		})
	}
}

// build builds every function for goos/goarch into bin/bench/<goos>-<goarch>/<name>,
// with the Makefile's LAMBDA_ENV and LAMBDA_FLAGS, and returns the folder.
func build(b *testing.B, goos, goarch string) string {
	b.Helper()
	vars := makeVars(b, "LAMBDA_ENV", "LAMBDA_FLAGS")
	dir := filepath.Join("bin", "bench", goos+"-"+goarch)
	script := fmt.Sprintf("env %s GOOS=%s GOARCH=%s go build %s -o %s/ ./functions/...",
		vars["LAMBDA_ENV"], goos, goarch, vars["LAMBDA_FLAGS"], dir)
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s: %v\n%s", script, err, out)
	}
	return filepath.Join(root, dir)
}

// makeVars returns the values of the simple assignments (NAME := value) of
// names in the Makefile.
func makeVars(b *testing.B, names ...string) map[string]string {
	b.Helper()
	f, err := os.Open(filepath.Join(root, "Makefile"))
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	out := map[string]string{}
	for s := bufio.NewScanner(f); s.Scan(); {
		name, value, ok := strings.Cut(s.Text(), " := ")
		if ok && slices.Contains(names, name) {
			out[name] = value
		}
	}
	if len(out) != len(names) {
		b.Fatalf("Makefile: found %v of %v", out, names)
	}
	return out
}

// fakeRuntime is a Lambda runtime API that notes when a function first asks
// for an invocation, and holds the request until the function is gone.
type fakeRuntime struct {
	url   string
	asked chan time.Time
}

func newFakeRuntime(b *testing.B) *fakeRuntime {
	b.Helper()
	f := &fakeRuntime{asked: make(chan time.Time, 1)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/2018-06-01/runtime/invocation/next" {
			http.NotFound(w, r)
			return
		}
		select {
		case f.asked <- time.Now():
		default:
		}
		<-r.Context().Done()
	}))
	b.Cleanup(srv.Close)
	f.url = strings.TrimPrefix(srv.URL, "http://")
	return f
}

// start runs the binary as Lambda would (its credentials and region in the
// environment, no AWS config files) and returns the time until it asks for
// its first invocation; then it stops the process.
func (f *fakeRuntime) start(b *testing.B, bin string) time.Duration {
	b.Helper()
	none := filepath.Join(b.TempDir(), "none")
	cmd := exec.Command(bin)
	cmd.Env = []string{
		"AWS_LAMBDA_RUNTIME_API=" + f.url, "AWS_REGION=us-east-1", "TABLE_NAME=multisell",
		"AWS_ACCESS_KEY_ID=bench", "AWS_SECRET_ACCESS_KEY=bench", "AWS_SESSION_TOKEN=bench",
		"AWS_CONFIG_FILE=" + none, "AWS_SHARED_CREDENTIALS_FILE=" + none,
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		_ = cmd.Process.Kill()
		<-exited
	}()
	select {
	case at := <-f.asked:
		return at.Sub(begin)
	case err := <-exited:
		exited <- err
		b.Fatalf("%s exited before asking for an invocation: %v\n%s", bin, err, stderr.String())
	case <-time.After(10 * time.Second):
		b.Fatalf("%s did not ask for an invocation within 10s\n%s", bin, stderr.String())
	}
	return 0
}
