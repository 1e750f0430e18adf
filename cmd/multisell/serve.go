package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/app/sdkchain"
	"github.com/multisell/multisell/pkg/local/emulators"
	"github.com/multisell/multisell/pkg/local/functions"
	"github.com/multisell/multisell/pkg/local/gateway"
	"github.com/multisell/multisell/pkg/local/template"
)

func init() {
	register(command{
		name:    "serve",
		summary: "run the local stack: API on http://127.0.0.1:$PORT/v1 (default 3000), its reference on /docs, data in .local/",
		run:     runServe,
	})
}

// demoCredentials are the demo account's credentials; serve keeps them in .local/demo.json
// (the secret is stored hashed in the table) and prints them at every start.
type demoCredentials struct {
	AccountID    string `json:"account_id"`
	AccountToken string `json:"account_token"`
	SecretKey    string `json:"secret_key"`
}

// onFirstStart, when set (by the demo data's file), runs once, when serve has just created
// the table: it creates the demo account and its data, connected to the generic sandbox sb
// (nil: none started), and returns the credentials.
var onFirstStart func(ctx context.Context, d *app.Deps, connect []demoConnect) (demoCredentials, error)

// stackFile is .local/stack.json: how other commands reach the running local stack.
type stackFile struct {
	PID                 int               `json:"pid"`
	APIURL              string            `json:"api_url"`
	APIID               string            `json:"api_id"` // the gateway's, for its management calls
	DynamoDBEndpoint    string            `json:"dynamodb_endpoint"`
	SQSEndpoint         string            `json:"sqs_endpoint"`
	KMSEndpoint         string            `json:"kms_endpoint"`
	CredentialsKeyID    string            `json:"credentials_key_id"`
	Region              string            `json:"region"`
	TableName           string            `json:"table_name"`
	AdjustmentsQueueURL string            `json:"adjustments_queue_url"`
	QueueURLs           map[string]string `json:"queue_urls"` // by logical id
	SyncRetryBase       string            `json:"sync_retry_base"`
	// Sandboxes are the base URLs of the fake marketplaces serve runs, by connector name.
	Sandboxes map[string]string `json:"sandboxes,omitempty"`
	// ConsentApps are the stack's operator apps (the sandboxes', app.LocalApps), which
	// channels authorize reads.
	ConsentApps json.RawMessage `json:"consent_apps,omitempty"`
	// DynamoDBPID and SQSPID are the emulators' processes; serve writes the file again
	// with the new pid when it restarts one.
	DynamoDBPID int `json:"dynamodb_pid"`
	SQSPID      int `json:"sqs_pid"`
}

// localDir returns the .local directory at the repository root (or the working directory).
func localDir() string {
	root, err := emulators.RepoRoot()
	if err != nil {
		root = "."
	}
	return filepath.Join(root, ".local")
}

// readStackFile returns the local stack running on the data in dir, or nil when there is
// none (no stack.json, or the stack that wrote it is gone: see live).
func readStackFile(dir string) (*stackFile, error) {
	data, err := os.ReadFile(filepath.Join(dir, "stack.json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read .local/stack.json: %w", err)
	}
	var s stackFile
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("read .local/stack.json: %w", err)
	}
	if !s.live() {
		return nil, nil // stale: serve did not exit cleanly
	}
	return &s, nil
}

// live reports whether the stack s describes is serving: its process exists and its API
// answers (any HTTP answer). A process that died uncleanly leaves the file behind, and
// its pid may be a zombie or belong to another program by now: only the API's answer
// tells.
func (s stackFile) live() bool {
	if s.PID <= 0 || syscall.Kill(s.PID, 0) != nil || s.APIURL == "" {
		return false
	}
	client := http.Client{Timeout: 2 * time.Second}
	resp, err := client.Get(s.APIURL + "/")
	if err != nil {
		return false
	}
	_ = resp.Body.Close()
	return true
}

// loadConfig returns the configuration of the environment when TABLE_NAME is set (AWS:
// the standard AWS config), else the one of the running local stack (.local/stack.json).
func loadConfig() (app.Config, error) {
	if os.Getenv("TABLE_NAME") != "" {
		return app.ConfigFromEnv(), nil // named explicitly: that table, even with a local stack up
	}
	s, err := readStackFile(localDir())
	if err != nil {
		return app.Config{}, err
	}
	if s == nil {
		return app.Config{}, errors.New("no local stack is running (start one with `make run`) and TABLE_NAME is not set")
	}
	return s.config(), nil
}

// config is the application configuration of the stack s describes.
func (s stackFile) config() app.Config {
	env := map[string]string{
		"TABLE_NAME": s.TableName, "ADJUSTMENTS_QUEUE_URL": s.AdjustmentsQueueURL,
		"CHANNEL_INBOX_QUEUE_URL": s.QueueURLs["ChannelInboxQueue"], "CHANNEL_INBOX_DLQ_URL": s.QueueURLs["ChannelInboxDLQ"],
		"CHANNEL_OUTBOX_QUEUE_URL": s.QueueURLs["ChannelOutboxQueue"], "CHANNEL_RETRY_QUEUE_URL": s.QueueURLs["ChannelRetryQueue"],
		"CONNECTOR_QUEUE_URL": s.QueueURLs["ConnectorQueue"], "CONNECTOR_POLL_QUEUE_URL": s.QueueURLs["ConnectorPollQueue"],
		"SYNC_RETRY_BASE": s.SyncRetryBase, "DYNAMODB_ENDPOINT": s.DynamoDBEndpoint, "SQS_ENDPOINT": s.SQSEndpoint, "AWS_REGION": s.Region,
		"KMS_ENDPOINT": s.KMSEndpoint, "CREDENTIALS_KEY_ID": s.CredentialsKeyID,
		"WEBHOOK_LOOPBACK": "true", // as the stack itself (gateway.Stack.AppConfig)
	}
	return app.ConfigFrom(func(k string) string { return env[k] })
}

func runServe(ctx context.Context, args []string) error {
	fs := newFlagSet("serve", "[flags]")
	port := fs.Int("port", envInt("PORT", 3000), "port to serve the API on (env PORT)")
	host := fs.String("host", "127.0.0.1", "address to listen on")
	var authTTL optionalDuration
	fs.Var(&authTTL, "auth-cache", "authorizer result cache `TTL`, as 90s or 5m (default: the template's ReauthorizeEvery)")
	dir := fs.String("dir", localDir(), "the folder of the stack's data; the other commands find only a stack whose folder is .local")
	withDemo := fs.Bool("demo", true, "create the demo account and its data when the table is new")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	root, err := emulators.RepoRoot()
	if err != nil {
		return err
	}
	tpl, err := template.ParseFile(filepath.Join(root, "template.yaml"))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", *dir, err)
	}
	// Held until every child has exited: the deferred stops below run before it is released.
	release, err := lockStack(*dir)
	if err != nil {
		return err
	}
	defer release()
	if running, err := readStackFile(*dir); err != nil {
		return err
	} else if running != nil {
		return fmt.Errorf("a local stack is already running (pid %d, %s)", running.PID, running.APIURL)
	}
	// Listen first, so a busy port fails before anything starts.
	ln, err := net.Listen("tcp", net.JoinHostPort(*host, strconv.Itoa(*port)))
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	defer func() { _ = ln.Close() }()
	logs, err := openServeLog(*dir, os.Getenv("LOG"))
	if err != nil {
		return err
	}
	defer logs.close()

	emus, err := startEmulators(ctx, filepath.Join(*dir, "dynoxide.db"), filepath.Join(*dir, "kms"))
	if err != nil {
		return err
	}
	defer emus.stop()
	ddb, sqsProc, kmsProc := emus.dynamoDB(), emus.sqs(), emus.kms()
	slog.Info("emulators started", "dynamodb", ddb.Endpoint, "sqs", sqsProc.Endpoint, "kms", kmsProc.Endpoint)

	stack, err := gateway.Provision(ctx, tpl, gateway.Endpoints{DynamoDB: ddb.Endpoint, SQS: sqsProc.Endpoint, KMS: kmsProc.Endpoint}, gateway.ProvisionOptions{})
	if err != nil {
		return err
	}
	cfg, err := stack.AppConfig()
	if err != nil {
		return err
	}
	deps, err := sdkchain.New(ctx, cfg)
	if err != nil {
		return err
	}
	if err := afterEmulatorsStart(ctx, deps, stack); err != nil {
		return err
	}

	ttl := authTTL.d
	if !authTTL.set {
		if tpl.API != nil {
			if az, ok := tpl.API.Authorizers[tpl.API.DefaultAuthorizer]; ok {
				ttl = az.ReauthorizeEvery
			}
		}
	}
	// The API reference page at /docs, rendered again when docs/openapi.yaml changes;
	// rendered now, so that the first visit does not wait. Its servers entry is the URL the
	// page was reached at, with the gateway's stage.
	docs := &gateway.ReferencePage{Root: root}
	if err := docs.Build(); err != nil {
		slog.Warn("reference page", "error", err.Error())
	}
	gw, err := gateway.NewGateway(tpl, functions.Lookup(deps), gateway.Options{AuthCacheTTL: ttl, UsagePlans: gateway.AccountPlans(deps.Accounts()), Docs: docs})
	if err != nil {
		return err
	}
	docs.Stage = gw.Stage() // before the listener serves anything
	pollers, err := gateway.NewPollers(stack, functions.Lookup(deps), pollerOptions(*dir))
	if err != nil {
		return err
	}
	// The sandboxes before the pollers, so that the schedule's first polls reach them.
	sandboxes := startSandboxes(filepath.Join(*dir, "sandbox"))
	defer sandboxes.stop()
	pollers.Start(ctx)
	defer pollers.Stop()
	sim := startServeSim(ctx, stack, filepath.Join(*dir, "sim"))
	defer sim.stop()

	srv := &http.Server{Handler: gw, ReadHeaderTimeout: 10 * time.Second}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	defer func() {
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdownCtx)
	}()

	apiURL := "http://" + ln.Addr().String() + "/" + gw.Stage()
	sandboxes.registerApps(deps, apiURL)
	sf := stackFile{
		PID: os.Getpid(), APIURL: apiURL, APIID: gw.APIID(), DynamoDBEndpoint: ddb.Endpoint, SQSEndpoint: sqsProc.Endpoint,
		KMSEndpoint: kmsProc.Endpoint, CredentialsKeyID: cfg.CredentialsKeyID,
		Region: cfg.Region, TableName: cfg.TableName, AdjustmentsQueueURL: cfg.AdjustmentsQueueURL,
		SyncRetryBase: cfg.SyncRetryBase.String(), QueueURLs: map[string]string{}, Sandboxes: sandboxes.urls(),
	}
	for id, q := range stack.Queues {
		sf.QueueURLs[id] = q.URL
	}
	if sf.ConsentApps, err = deps.LocalApps.Document(ctx); err != nil {
		return err
	}
	stackPath := filepath.Join(*dir, "stack.json")
	// writeStack writes .local/stack.json with the emulators' pids of the moment.
	writeStack := func() error {
		sf.DynamoDBPID, sf.SQSPID = emus.dynamoDB().Pid(), emus.sqs().Pid()
		return writeJSONFile(stackPath, sf)
	}
	if err := writeStack(); err != nil {
		return err
	}
	defer func() { _ = os.Remove(stackPath) }()
	// The stack file is written as soon as the API answers, before the demo data (about 20
	// seconds on a first start), so that the CLI reaches the stack whenever the API does.
	demo, err := demoAccount(ctx, *dir, stack.TableCreated && *withDemo, deps, sandboxes.connects())
	if err != nil {
		slog.Error("demo data", "error", err.Error())
	}

	slog.Info("serving", "api_url", apiURL, "table", cfg.TableName)
	printBanner(apiURL, demo, logs.where, sim.bannerLine(), sandboxes.banner, sandboxes.demoChannels(ctx, deps, demo))

	superviseCtx, stopSupervising := context.WithCancel(ctx)
	supervised, supervisorDone := make(chan error, 1), make(chan struct{})
	go func() {
		defer close(supervisorDone)
		supervised <- emus.supervise(superviseCtx, func(ctx context.Context) error {
			if err := afterEmulatorsStart(ctx, deps, stack); err != nil {
				return err
			}
			return writeStack()
		})
	}()
	defer func() {
		stopSupervising()
		<-supervisorDone
	}()

	select {
	case <-ctx.Done():
		slog.Info("shutting down")
		_, _ = fmt.Fprintln(stderr, "stopping the local stack")
		return nil
	case err := <-serveErr:
		return fmt.Errorf("serve: %w", err)
	case err := <-supervised:
		return err
	}
}

// demoAccount runs onFirstStart when the table is new (with the running sandboxes' demo
// connections) and keeps its credentials in .local/demo.json; otherwise it reads them back
// from there. It returns nil without demo.
func demoAccount(ctx context.Context, dir string, firstStart bool, deps *app.Deps, connect []demoConnect) (*demoCredentials, error) {
	path := filepath.Join(dir, "demo.json")
	if firstStart && onFirstStart != nil {
		slog.Info("first start: creating the demo account and data")
		_, _ = fmt.Fprintln(stderr, "first start: creating the demo account and its data (about 20 seconds)")
		creds, err := onFirstStart(ctx, deps, connect)
		if err != nil {
			return nil, fmt.Errorf("create demo data: %w", err)
		}
		if err := writeJSONFile(path, creds); err != nil {
			return nil, err
		}
		return &creds, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read demo credentials: %w", err)
	}
	var creds demoCredentials
	if err := json.Unmarshal(data, &creds); err != nil {
		return nil, fmt.Errorf("read demo credentials: %w", err)
	}
	return &creds, nil
}

// writeJSONFile writes v atomically, readable by the owner only (it may hold a secret).
func writeJSONFile(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// printBanner prints the start banner, once everything has started: the API's URL, the
// reference page's, the demo credentials (TOKEN:SECRET in the README) and a first request,
// the lines of the connector sim and the sandboxes, and where the logs go.
func printBanner(apiURL string, demo *demoCredentials, logs string, lines ...string) {
	_, _ = fmt.Fprintf(stdout, "\nmultisell local stack is up: %s\n", apiURL)
	_, _ = fmt.Fprintf(stdout, "  API reference: %s%s\n", apiURL[:strings.LastIndex(apiURL, "/")], gateway.DocsPath)
	if demo != nil && demo.AccountToken != "" {
		_, _ = fmt.Fprintf(stdout, "  demo account: %s\n  token:  %s\n  secret: %s\n  try:    curl --user %s:%s %s/warehouses\n",
			demo.AccountID, demo.AccountToken, demo.SecretKey, demo.AccountToken, demo.SecretKey, apiURL)
		_, _ = fmt.Fprintln(stdout, "  then the quick tour of README.md, with TOKEN:SECRET above")
	} else {
		_, _ = fmt.Fprintf(stdout, "  create an account: go run ./cmd/multisell accounts create --name NAME\n  then:  curl --user TOKEN:SECRET %s/warehouses\n", apiURL)
	}
	for _, l := range lines {
		if l != "" {
			_, _ = fmt.Fprintln(stdout, l)
		}
	}
	_, _ = fmt.Fprintf(stdout, "  logs: %s\n", logs)
	_, _ = fmt.Fprintln(stdout, "  data persists in .local/ (delete it to start over); Ctrl-C stops")
}

// serveLog is where serve's logs go (requests, pollers, the connector sim): a JSON file,
// or stdout.
type serveLog struct {
	// where says it in the banner.
	where string
	close func()
}

// openServeLog makes slog's default logger write JSON lines to .local/logs/serve.log
// (appended, errors also on stderr), or every line to stdout when mode is "stdout" (the
// LOG variable), so that request logs do not bury the banner in the terminal.
func openServeLog(dir, mode string) (serveLog, error) {
	prev := slog.Default()
	restore := func() { slog.SetDefault(prev) }
	if strings.EqualFold(strings.TrimSpace(mode), "stdout") {
		slog.SetDefault(slog.New(slog.NewJSONHandler(stdout, nil)))
		return serveLog{where: "here, on stdout (LOG=stdout)", close: restore}, nil
	}
	logDir := filepath.Join(dir, "logs")
	if err := os.MkdirAll(logDir, 0o700); err != nil {
		return serveLog{}, fmt.Errorf("create .local/logs: %w", err)
	}
	path := filepath.Join(logDir, "serve.log")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return serveLog{}, fmt.Errorf("open the log: %w", err)
	}
	slog.SetDefault(slog.New(slog.NewMultiHandler(
		slog.NewJSONHandler(f, nil),
		slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: slog.LevelError}),
	)))
	return serveLog{
		where: relToRoot(path) + " (errors here too; LOG=stdout prints them all here)",
		close: func() { restore(); _ = f.Close() },
	}, nil
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// pollerOptions are the options of serve's pollers: the stream checkpoints kept in dir, and
// the functions that set their failed messages' visibility themselves keeping it
// (gateway.SelfVisibility), so a failed poll comes back within seconds as in AWS.
func pollerOptions(dir string) gateway.PollerOptions {
	return gateway.PollerOptions{CheckpointFile: filepath.Join(dir, "stream-checkpoints.json"),
		OwnVisibility: gateway.SelfVisibility}
}

// optionalDuration is a duration flag with no default of its own: set says whether it was
// given. It prints as people write durations (90s, 5m0s), "" when unset, so the usage text
// shows no made-up default.
type optionalDuration struct {
	d   time.Duration
	set bool
}

func (o *optionalDuration) String() string {
	if o == nil || !o.set {
		return ""
	}
	return o.d.String()
}

func (o *optionalDuration) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if d < 0 {
		return fmt.Errorf("%s is negative", s)
	}
	o.d, o.set = d, true
	return nil
}
