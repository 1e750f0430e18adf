package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/multisell/multisell/pkg/local/connectorsim"
)

func init() {
	register(command{
		name:    "connector",
		summary: "a stand-in channel connector on the local stack: connector sim [--fail-rate P] [--dir D] [--report]",
		run:     runConnector,
	})
}

// findStack returns the running local stack, or nil; tests replace it.
var findStack = readStackFile

const connectorUse = "sim [--fail-rate P] [--dir D] [--report]"

// runConnector runs the connector sim against the running local stack's channel queues
// until interrupted.
func runConnector(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "sim" {
		return fmt.Errorf("usage: multisell connector %s", connectorUse)
	}
	fs := newFlagSet("connector sim", strings.TrimPrefix(connectorUse, "sim "))
	rate := fs.Float64("fail-rate", 0, "probability (0 to 1) that the channel refuses an update")
	dir := fs.String("dir", filepath.Join(localDir(), "sim"), "the folder of the simulated channels")
	report := fs.Bool("report", false, "report every listing of the simulated channels to the inbox once, at the start")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q; usage: multisell connector %s", fs.Arg(0), connectorUse)
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
		BaseEndpoint: aws.String(s.SQSEndpoint),
	})
	slog.Info("connector sim: answering the channel outbox", "outbox", outbox, "inbox", inbox, "dir", *dir, "fail_rate", *rate)
	return (&connectorsim.Sim{
		SQS: client, OutboxURL: outbox, InboxURL: inbox, Dir: *dir, FailRate: *rate, Report: *report,
		Logger: slog.Default(),
	}).Run(ctx)
}
