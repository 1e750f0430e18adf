package faults

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/accounts"
	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/app/sdkchain"
)

// stackInfo is what the tests read of a running stack's stack.json.
type stackInfo struct {
	APIURL           string `json:"api_url"`
	DynamoDBEndpoint string `json:"dynamodb_endpoint"`
	SQSEndpoint      string `json:"sqs_endpoint"`
	Region           string `json:"region"`
	TableName        string `json:"table_name"`
	// AdjustmentsQueueURL is where the sweep sends.
	AdjustmentsQueueURL string `json:"adjustments_queue_url"`
	DynamoDBPID         int    `json:"dynamodb_pid"`
	SQSPID              int    `json:"sqs_pid"`
}

// stack is one `multisell serve` of a test, on its data folder.
type stack struct {
	t    *testing.T
	dir  string
	cmd  *exec.Cmd
	done chan struct{}
	info stackInfo
	d    *app.Deps
}

// startStack starts serve on dir (a new folder makes a new table, without demo data) and
// waits until its API answers.
func startStack(t *testing.T, dir string) *stack {
	t.Helper()
	_ = os.Remove(filepath.Join(dir, "stack.json")) // a killed stack's: serve checks it, this saves the wait
	cmd := exec.Command(binary, "serve", "--port", "0", "--dir", dir, "--demo=false")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "MULTISELL_SIM=off")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := os.OpenFile(filepath.Join(dir, "serve.out"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = out.Close() }()
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start serve: %v", err)
	}
	s := &stack{t: t, dir: dir, cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(s.done) }()
	t.Cleanup(s.kill)
	t.Cleanup(s.keepLogs)
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case <-s.done:
			t.Fatalf("serve exited; its output is in %s", filepath.Join(dir, "serve.out"))
		case <-time.After(100 * time.Millisecond):
		}
		if s.readInfo() && s.answers() {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatal("serve did not come up within 60 s")
		}
	}
}

// readInfo reads stack.json; it reports false while there is none.
func (s *stack) readInfo() bool {
	data, err := os.ReadFile(filepath.Join(s.dir, "stack.json"))
	if err != nil {
		return false
	}
	return json.Unmarshal(data, &s.info) == nil && s.info.APIURL != ""
}

// answers reports whether the API answers at all.
func (s *stack) answers() bool {
	c := http.Client{Timeout: time.Second}
	resp, err := c.Get(s.info.APIURL + "/")
	if err != nil {
		return false
	}
	_ = resp.Body.Close()
	return true
}

// keepLogs copies serve's log to a file that outlives the test's folder when the test
// failed, and says where.
func (s *stack) keepLogs() {
	if !s.t.Failed() {
		return
	}
	data, err := os.ReadFile(filepath.Join(s.dir, "logs", "serve.log"))
	if err != nil {
		s.t.Logf("no serve log: %v", err)
		return
	}
	f, err := os.CreateTemp("", "multisell-faults-*.log")
	if err != nil {
		return
	}
	defer func() { _ = f.Close() }()
	_, _ = f.Write(data)
	s.t.Logf("serve's log: %s", f.Name())
}

// kill kills serve and its emulators with SIGKILL and waits for serve to be gone.
func (s *stack) kill() {
	for _, pid := range []int{s.info.DynamoDBPID, s.info.SQSPID} {
		if pid > 0 {
			_ = syscall.Kill(-pid, syscall.SIGCONT) // a paused one must not outlive its test
			_ = syscall.Kill(-pid, syscall.SIGKILL)
		}
	}
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		s.t.Error("serve did not die within 10 s of SIGKILL")
	}
}

// signal sends sig to the process group of an emulator (its pid from stack.json).
func (s *stack) signal(pid int, sig syscall.Signal) {
	s.t.Helper()
	if pid <= 0 {
		s.t.Fatalf("no pid in stack.json: %+v", s.info)
	}
	if err := syscall.Kill(-pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		s.t.Fatalf("signal %v to %d: %v", sig, pid, err)
	}
}

// deps are the application's clients on the stack's emulators, built once.
func (s *stack) deps() *app.Deps {
	s.t.Helper()
	if s.d != nil {
		return s.d
	}
	d, err := sdkchain.New(context.Background(), app.Config{TableName: s.info.TableName, DynamoDBEndpoint: s.info.DynamoDBEndpoint,
		SQSEndpoint: s.info.SQSEndpoint, Region: s.info.Region, AdjustmentsQueueURL: s.info.AdjustmentsQueueURL})
	if err != nil {
		s.t.Fatal(err)
	}
	s.d = d
	return d
}

// sweep runs the adjustments sweep over every request still queued, as the scheduled one
// does for those older than ADJUSTMENT_RESEND_AFTER.
func (s *stack) sweep() {
	s.t.Helper()
	n, err := s.deps().Inventory().Resend(context.Background(), time.Now())
	if err != nil {
		s.t.Errorf("sweep: %v", err)
	}
	s.t.Logf("sweep: %d queued adjustments sent again", n)
}

// newAccount creates an account in the stack's table (unthrottled).
func (s *stack) newAccount(name string) client {
	s.t.Helper()
	created, err := s.deps().Accounts().Create(context.Background(), accounts.Input{Name: name, RPS: 10000, RPM: 100000})
	if err != nil {
		s.t.Fatalf("create account: %v", err)
	}
	return client{token: created.AccountToken, secret: created.SecretKey, id: created.AccountID}
}

// describe is a short description of the stack for failures.
func (s *stack) describe() string {
	return fmt.Sprintf("serve in %s (output in serve.out, logs in logs/)", s.dir)
}
