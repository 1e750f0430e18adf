package emulators

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// StartFauxqs starts the fauxqs SQS emulator (emulators/fauxqs.mjs on Node) on a free
// loopback port and waits until it answers. Restart runs it again on the same port; its
// queues and messages live in its memory, so a restarted fauxqs has none.
func StartFauxqs(ctx context.Context) (*Process, error) {
	mods, err := modulesDir()
	if err != nil {
		return nil, fmt.Errorf("start fauxqs: %w: %w", errNotInstalled, err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("start fauxqs: %w: %w", errNotInstalled, err)
	}
	launch := func(ctx context.Context, port int) (*Process, error) {
		return launchFauxqs(ctx, node, filepath.Dir(mods), port)
	}
	p, err := launch(ctx, 0)
	if err != nil {
		return nil, err
	}
	port := p.Port
	p.relaunch = func(ctx context.Context) (*Process, error) { return launch(ctx, port) }
	return p, nil
}

// launchFauxqs runs fauxqs.mjs in dir on port (0: one it picks and announces) and waits
// until it answers.
func launchFauxqs(ctx context.Context, node, dir string, port int) (*Process, error) {
	lines := make(chan string, 16)
	p, err := start("fauxqs", dir, append(os.Environ(), "FAUXQS_LOGGER=false"), lines, node, "fauxqs.mjs", strconv.Itoa(port))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for p.Port == 0 {
		select {
		case line, ok := <-lines:
			if !ok {
				<-p.done
				return nil, fmt.Errorf("start fauxqs: %w", p.exitError())
			}
			var msg struct {
				Port int `json:"port"`
			}
			if strings.HasPrefix(line, "{") && json.Unmarshal([]byte(line), &msg) == nil && msg.Port > 0 {
				p.Port = msg.Port
			}
		case <-ctx.Done():
			_ = p.Stop()
			return nil, fmt.Errorf("start fauxqs: no port announced: %w; output: %s", ctx.Err(), p.Output())
		}
	}
	p.Endpoint = "http://127.0.0.1:" + strconv.Itoa(p.Port)
	if err := p.waitReady(ctx, 10*time.Second); err != nil {
		_ = p.Stop()
		return nil, fmt.Errorf("start fauxqs: %w", err)
	}
	return p, nil
}

// StartDynoxideAndFauxqs starts Dynoxide (with opts) and fauxqs side by side, the two
// emulators of the local stack; when either fails, the other is stopped.
func StartDynoxideAndFauxqs(ctx context.Context, opts DynoxideOptions) (ddb, sqs *Process, err error) {
	var (
		wg             sync.WaitGroup
		ddbErr, sqsErr error
	)
	wg.Add(2)
	go func() {
		defer wg.Done()
		ddb, ddbErr = StartDynoxide(ctx, opts)
	}()
	go func() {
		defer wg.Done()
		sqs, sqsErr = StartFauxqs(ctx)
	}()
	wg.Wait()
	if err := errors.Join(ddbErr, sqsErr); err != nil {
		for _, p := range []*Process{ddb, sqs} {
			if p != nil {
				_ = p.Stop()
			}
		}
		return nil, nil, err
	}
	return ddb, sqs, nil
}
