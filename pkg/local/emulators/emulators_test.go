package emulators

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRepoRoot(t *testing.T) {
	t.Parallel()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(wd, "..", "..", ".."); root != filepath.Clean(want) {
		t.Errorf("RepoRoot() = %q, want %q", root, want)
	}
}

func TestEmulatorsStartAndStop(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the emulators: skipped with -short (make unit); make test runs it")
	}
	t.Parallel()
	starters := map[string]func(context.Context) (*Process, error){
		"dynoxide": func(ctx context.Context) (*Process, error) { return StartDynoxide(ctx, DynoxideOptions{}) },
		"dynoxide-file": func(ctx context.Context) (*Process, error) {
			return StartDynoxide(ctx, DynoxideOptions{DBPath: filepath.Join(t.TempDir(), "sub", "db.sqlite")})
		},
		"fauxqs":         StartFauxqs,
		"dynamodb-local": StartDynamoDBLocal,
		"local-kms":      func(ctx context.Context) (*Process, error) { return StartLocalKMS(ctx, KMSOptions{}) },
	}
	for name, startFn := range starters {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if name == "dynamodb-local" && !JavaAvailable() {
				t.Skip("java is not installed")
			}
			start := time.Now()
			p, err := startFn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s ready on %s in %v", name, p.Endpoint, time.Since(start))
			resp, err := http.Post(p.Endpoint+"/", "application/x-amz-json-1.0", strings.NewReader("{}"))
			if err != nil {
				t.Fatalf("not answering: %v", err)
			}
			_ = resp.Body.Close()
			pid := p.cmd.Process.Pid
			if err := p.Stop(); err != nil {
				t.Fatal(err)
			}
			select {
			case <-p.Done():
			default:
				t.Fatal("process still running after Stop")
			}
			if err := syscall.Kill(-pid, 0); err == nil {
				t.Errorf("process group %d still has members", pid)
			}
			_ = p.Stop() // idempotent
		})
	}
}

// TestEmulatorsRestart: an emulator killed (SIGKILL) is started again by Restart on the
// same endpoint; Dynoxide and local-kms keep their data (a temporary database is removed
// only when the new process stops), fauxqs starts empty.
func TestEmulatorsRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the emulators: skipped with -short (make unit); make test runs it")
	}
	t.Parallel()
	for _, tc := range []struct {
		name  string
		start func(context.Context) (*Process, error)
		write func(t *testing.T, endpoint string)
		read  func(t *testing.T, endpoint string) string
		// what the answer of read after the restart holds, or not
		kept, lost string
	}{
		{
			name:  "dynoxide",
			start: func(ctx context.Context) (*Process, error) { return StartDynoxide(ctx, DynoxideOptions{}) },
			write: func(t *testing.T, endpoint string) {
				awsJSON(t, endpoint, "DynamoDB_20120810.CreateTable", `{"TableName":"Kept","BillingMode":"PAY_PER_REQUEST",
					"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
			},
			read: func(t *testing.T, endpoint string) string {
				return awsJSON(t, endpoint, "DynamoDB_20120810.ListTables", `{}`)
			},
			kept: `"Kept"`,
		},
		{
			name:  "fauxqs",
			start: StartFauxqs,
			write: func(t *testing.T, endpoint string) {
				awsJSON(t, endpoint, "AmazonSQS.CreateQueue", `{"QueueName":"gone-with-it"}`)
			},
			read: func(t *testing.T, endpoint string) string { return awsJSON(t, endpoint, "AmazonSQS.ListQueues", `{}`) },
			lost: "gone-with-it",
		},
		{
			name:  "local-kms",
			start: func(ctx context.Context) (*Process, error) { return StartLocalKMS(ctx, KMSOptions{}) },
			write: func(t *testing.T, endpoint string) {
				key := awsJSON(t, endpoint, "TrentService.CreateKey", `{}`)
				var created struct{ KeyMetadata struct{ KeyId string } }
				if err := json.Unmarshal([]byte(key), &created); err != nil {
					t.Fatal(err)
				}
				awsJSON(t, endpoint, "TrentService.CreateAlias", `{"AliasName":"alias/kept","TargetKeyId":"`+created.KeyMetadata.KeyId+`"}`)
			},
			read: func(t *testing.T, endpoint string) string {
				return awsJSON(t, endpoint, "TrentService.ListAliases", `{}`)
			},
			kept: "alias/kept",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := tc.start(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = p.Stop() })
			tc.write(t, p.Endpoint)
			if _, err := p.Restart(context.Background()); err == nil {
				t.Fatal("Restart of a running process succeeded")
			}
			if err := syscall.Kill(p.Pid(), syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			<-p.Done()
			again, err := p.Restart(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = again.Stop() })
			if again.Endpoint != p.Endpoint || again.Pid() == p.Pid() {
				t.Errorf("restarted on %s as pid %d, want %s and a new pid (was %d)", again.Endpoint, again.Pid(), p.Endpoint, p.Pid())
			}
			if got := tc.read(t, again.Endpoint); !strings.Contains(got, tc.kept) || (tc.lost != "" && strings.Contains(got, tc.lost)) {
				t.Errorf("after the restart: %s, want it to hold %q and not %q", got, tc.kept, tc.lost)
			}
			if tc.name != "dynoxide" {
				return
			}
			db := dbPathOf(t, again)
			_ = p.Stop() // the old process no longer owns the database
			if _, err := os.Stat(db); err != nil {
				t.Errorf("database after stopping the killed process: %v, want it kept", err)
			}
			_ = again.Stop()
			if _, err := os.Stat(filepath.Dir(db)); !os.IsNotExist(err) {
				t.Errorf("temporary database %s after Stop of the restarted process: %v, want it removed", db, err)
			}
		})
	}
}

// awsJSON posts an AWS JSON 1.0 request (target, body) to endpoint and returns the answer;
// a status other than 200 fails the test.
func awsJSON(t *testing.T, endpoint, target, body string) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, endpoint+"/", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", target)
	service := "sqs"
	switch {
	case strings.HasPrefix(target, "DynamoDB"):
		service = "dynamodb"
	case strings.HasPrefix(target, "TrentService"):
		service = "kms"
		req.Header.Set("Content-Type", "application/x-amz-json-1.1")
	}
	req.Header.Set("X-Amz-Date", "20200101T000000Z")
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=local/20200101/us-east-1/"+service+"/aws4_request, SignedHeaders=host;x-amz-date, Signature=00")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", target, err)
	}
	defer func() { _ = resp.Body.Close() }()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d %s", target, resp.StatusCode, out)
	}
	return string(out)
}
