package main

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/local/template"
	"github.com/multisell/multisell/pkg/syncbuf"
	"github.com/multisell/multisell/pkg/testenv"
)

// TestServeLog: serve's logs go to .local/logs/serve.log, errors also to stderr, so the
// terminal keeps the banner; LOG=stdout sends every line to stdout instead.
func TestServeLog(t *testing.T) {
	for _, tc := range []struct {
		mode                          string
		wantFile, wantStdout, wantErr []string // the messages each holds
		where                         string   // what the banner says
	}{
		{"", []string{"a request", "a failure"}, nil, []string{"a failure"}, filepath.Join(".local", "logs", "serve.log")},
		{"stdout", nil, []string{"a request", "a failure"}, nil, "LOG=stdout"},
		{" STDOUT ", nil, []string{"a request", "a failure"}, nil, "LOG=stdout"},
	} {
		t.Run("LOG="+tc.mode, func(t *testing.T) {
			var out, errOut bytes.Buffer
			stdout, stderr = &out, &errOut
			t.Cleanup(func() { stdout, stderr = os.Stdout, os.Stderr })
			dir := filepath.Join(t.TempDir(), ".local")
			before := slog.Default()
			logs, err := openServeLog(dir, tc.mode)
			if err != nil {
				t.Fatal(err)
			}
			slog.Info("a request")
			slog.Error("a failure")
			logs.close()
			if slog.Default() != before {
				t.Error("close did not restore the default logger")
			}
			file, _ := os.ReadFile(filepath.Join(dir, "logs", "serve.log"))
			for _, w := range []struct {
				name string
				got  string
				want []string
			}{{"the log file", string(file), tc.wantFile}, {"stdout", out.String(), tc.wantStdout}, {"stderr", errOut.String(), tc.wantErr}} {
				if n := strings.Count(w.got, "\n"); n != len(w.want) {
					t.Errorf("%s has %d lines, want %d: %q", w.name, n, len(w.want), w.got)
				}
				for _, msg := range w.want {
					if !strings.Contains(w.got, `"msg":"`+msg+`"`) {
						t.Errorf("%s lacks %q: %q", w.name, msg, w.got)
					}
				}
			}
			if !strings.Contains(logs.where, tc.where) {
				t.Errorf("the banner says the logs are %q, want it to name %q", logs.where, tc.where)
			}
		})
	}
}

// TestBanner: the banner gives the URL, the reference page's, the demo credentials, a first request, the quick
// tour, the lines of the sim and the sandbox and where the logs are, in one block.
func TestBanner(t *testing.T) {
	var out bytes.Buffer
	stdout = &out
	t.Cleanup(func() { stdout = os.Stdout })
	printBanner("http://127.0.0.1:3000/v1", &demoCredentials{AccountID: "acct_1", AccountToken: "TOK", SecretKey: "SEC"},
		".local/logs/serve.log", "  connector sim: on", "  sandbox: generic marketplace on http://127.0.0.1:4000")
	for _, want := range []string{
		"up: http://127.0.0.1:3000/v1\n", "API reference: http://127.0.0.1:3000/docs\n", "token:  TOK\n", "secret: SEC\n", "curl --user TOK:SEC http://127.0.0.1:3000/v1/warehouses\n",
		"quick tour", "  connector sim: on\n", "  sandbox: generic marketplace on http://127.0.0.1:4000\n", "logs: .local/logs/serve.log\n", "Ctrl-C stops\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("banner lacks %q:\n%s", want, out.String())
		}
	}
}

// TestStackFileBeforeDemo: on a first start, .local/stack.json names the running stack
// while the demo data is being created (the API already answers then), so the CLI
// reaches the stack whenever the API does.
func TestStackFileBeforeDemo(t *testing.T) {
	testenv.SkipShort(t) // serve starts the emulators
	dir := filepath.Join(t.TempDir(), "data")
	seen := make(chan *stackFile, 1)
	before := onFirstStart
	onFirstStart = func(context.Context, *app.Deps, []demoConnect) (demoCredentials, error) {
		sf, err := readStackFile(dir)
		if err != nil {
			t.Error(err)
		}
		seen <- sf
		return demoCredentials{}, nil
	}
	t.Cleanup(func() { onFirstStart = before })
	var out, errOut syncbuf.Buffer
	stdout, stderr = &out, &errOut
	t.Cleanup(func() { stdout, stderr = os.Stdout, os.Stderr })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	code := make(chan int, 1)
	go func() { code <- run(ctx, []string{"serve", "--port", "0", "--dir", dir}) }()
	select {
	case sf := <-seen:
		if sf == nil || sf.APIURL == "" {
			t.Errorf("stack.json while the demo is created: %+v, want the running stack", sf)
		}
	case c := <-code:
		t.Fatalf("serve exited %d: %s", c, errOut.String())
	case <-time.After(60 * time.Second):
		t.Fatal("the demo hook did not run within 60 s")
	}
	cancel()
	select {
	case <-code:
	case <-time.After(30 * time.Second):
		t.Error("serve did not stop within 30 s of the interrupt")
	}
}

// TestServePollersKeepOwnVisibility: serve's pollers leave the visibility of a failed
// message to the functions of the template that set it (the connector poll and push, the
// adjustments' consumer), so a failed poll is not held for the queue's 12 minutes.
func TestServePollersKeepOwnVisibility(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("..", "..", "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := template.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	opts := pollerOptions(t.TempDir())
	for _, id := range []string{"ConnectorPollFunction", "ConnectorPushFunction", "InventoryAdjustConsumerFunction"} {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			if !slices.Contains(opts.OwnVisibility, id) {
				t.Errorf("OwnVisibility %v lacks %s", opts.OwnVisibility, id)
			}
			fn, ok := tpl.Function(id)
			if !ok || len(fn.SQSEvents) == 0 {
				t.Errorf("%s is no function of template.yaml with an SQS event", id)
			}
		})
	}
}
