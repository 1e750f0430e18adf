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

// Options configures Start: each emulator's own options.
type Options struct {
	Dynoxide DynoxideOptions
	KMS      KMSOptions
}

// Set is the emulators of the local stack, as Start started them.
type Set struct {
	DynamoDB *Process // Dynoxide
	SQS      *Process // fauxqs
	KMS      *Process // local-kms
}

// All returns the processes of the set: DynamoDB, SQS, KMS.
func (s Set) All() []*Process { return []*Process{s.DynamoDB, s.SQS, s.KMS} }

// Start starts Dynoxide (with opts.Dynoxide), fauxqs and local-kms (with opts.KMS) side by
// side, the emulators of the local stack; when one fails, the others are stopped.
func Start(ctx context.Context, opts Options) (Set, error) {
	var (
		wg   sync.WaitGroup
		set  Set
		errs [3]error
	)
	starts := []func(){
		func() { set.DynamoDB, errs[0] = StartDynoxide(ctx, opts.Dynoxide) },
		func() { set.SQS, errs[1] = StartFauxqs(ctx) },
		func() { set.KMS, errs[2] = StartLocalKMS(ctx, opts.KMS) },
	}
	for _, f := range starts {
		wg.Go(f)
	}
	wg.Wait()
	if err := errors.Join(errs[:]...); err != nil {
		for _, p := range set.All() {
			if p != nil {
				_ = p.Stop()
			}
		}
		return Set{}, err
	}
	return set, nil
}
