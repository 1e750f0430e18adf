package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/multisell/multisell/pkg/local/connectorsim"
	"github.com/multisell/multisell/pkg/local/gateway"
	"github.com/multisell/multisell/pkg/sdkhttp"
)

func init() {
	register(command{name: "connector", summary: "a stand-in channel connector on the local stack", subs: []subcommand{
		{name: "sim", use: connectorSimUse, run: runConnector},
	}})
}

// findStack returns the running local stack, or nil; tests replace it.
var findStack = func() (*stackFile, error) { return readStackFile(localDir()) }

// connectorSimUse is the arguments of connector sim.
const connectorSimUse = "[--fail-rate P] [--dir D] [--report]"

// runConnector runs the connector sim against the running local stack's channel queues
// until interrupted.
func runConnector(ctx context.Context, args []string) error {
	fs := newFlagSet("connector sim", connectorSimUse)
	rate := fs.Float64("fail-rate", 0, "probability (0 to 1) that the channel refuses an update")
	dir := fs.String("dir", filepath.Join(localDir(), "sim"), "the folder of the simulated channels")
	report := fs.Bool("report", false, "report every listing of the simulated channels to the inbox once, at the start")
	if err := parseFlags(fs, args[1:], false); err != nil {
		return err
	}
	if !(*rate >= 0 && *rate <= 1) {
		return fmt.Errorf("--fail-rate %v is not between 0 and 1", *rate)
	}
	s, err := findStack()
	if err != nil {
		return err
	}
	if s == nil {
		return errors.New("no local stack is running: start one with `make run` (the connector sim works on the local stack's channel queues only)")
	}
	outbox, inbox := s.QueueURLs[connectorsim.OutboxQueue], s.QueueURLs[connectorsim.InboxQueue]
	var missing []string
	for id, url := range map[string]string{connectorsim.OutboxQueue: outbox, connectorsim.InboxQueue: inbox} {
		if url == "" {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return fmt.Errorf("the running local stack has no %s: its template.yaml declares no channel queues", strings.Join(missing, " or "))
	}
	client := sqs.New(sqs.Options{
		Region: s.Region, Credentials: credentials.NewStaticCredentialsProvider("local", "local", ""),
		BaseEndpoint: aws.String(s.SQSEndpoint), HTTPClient: sdkhttp.New(),
	})
	return (&connectorsim.Sim{
		SQS: client, OutboxURL: outbox, InboxURL: inbox, Dir: *dir, FailRate: *rate, Report: *report,
		Logger: slog.Default(),
	}).Run(ctx)
}

// serveSim is the connector sim `multisell serve` runs beside the stack, or why it does not.
type serveSim struct {
	banner string
	cancel context.CancelFunc
	done   chan error
}

// startServeSim starts the connector sim on the stack's channel queues, with its channels
// in dir, unless MULTISELL_SIM=off or the template has no channel queues; the fail rate is
// MULTISELL_SIM_FAIL_RATE (default 0). It never fails serve: what went wrong is logged and
// said in the banner line.
func startServeSim(ctx context.Context, stack *gateway.Stack, dir string) *serveSim {
	off := func(why string, level slog.Level) *serveSim {
		slog.Log(ctx, level, "connector sim is off: "+why)
		return &serveSim{banner: "  connector sim: off (" + why + ")"}
	}
	switch strings.ToLower(strings.TrimSpace(os.Getenv("MULTISELL_SIM"))) {
	case "off", "0", "false", "no":
		return off("MULTISELL_SIM=off; bring your own connector", slog.LevelInfo)
	}
	outbox, okOut := stack.Queues[connectorsim.OutboxQueue]
	inbox, okIn := stack.Queues[connectorsim.InboxQueue]
	if !okOut || !okIn {
		return off("template.yaml has no "+connectorsim.OutboxQueue+" and "+connectorsim.InboxQueue, slog.LevelInfo)
	}
	rate := 0.0
	if v := strings.TrimSpace(os.Getenv("MULTISELL_SIM_FAIL_RATE")); v != "" {
		r, err := strconv.ParseFloat(v, 64)
		if err != nil || !(r >= 0 && r <= 1) {
			return off(fmt.Sprintf("MULTISELL_SIM_FAIL_RATE=%q is not a number from 0 to 1", v), slog.LevelError)
		}
		rate = r
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &serveSim{
		cancel: cancel,
		done:   make(chan error, 1),
		banner: fmt.Sprintf("  connector sim: on, answering the channel outbox (fail rate %g, channels in %s); MULTISELL_SIM=off to bring your own connector",
			rate, relToRoot(dir)),
	}
	sim := &connectorsim.Sim{
		SQS: stack.SQS, OutboxURL: outbox.URL, InboxURL: inbox.URL, Dir: dir, FailRate: rate,
		Logger: slog.Default().With("component", "connector-sim"),
	}
	go func() {
		err := sim.Run(ctx)
		if err != nil {
			slog.Error("connector sim stopped", "error", err.Error())
		}
		s.done <- err
	}()
	return s
}

// bannerLine is the sim's line of the start banner: on, off and why, or stopped.
func (s *serveSim) bannerLine() string {
	if s.done != nil {
		select {
		case err := <-s.done:
			s.done <- err
			return fmt.Sprintf("  connector sim: stopped (%v)", err)
		default:
		}
	}
	return s.banner
}

// stop ends the sim and waits for the batch it is answering.
func (s *serveSim) stop() {
	if s.cancel == nil {
		return
	}
	s.cancel()
	<-s.done
}

// relToRoot names a path under the repository root relatively, as the docs do.
func relToRoot(path string) string {
	if root := filepath.Dir(localDir()); root != "" {
		if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return path
}
