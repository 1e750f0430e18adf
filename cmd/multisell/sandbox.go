package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/app/sdkchain"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/consent"
	"github.com/multisell/multisell/pkg/local/demo"
	"github.com/multisell/multisell/pkg/local/sandbox"
	_ "github.com/multisell/multisell/pkg/local/sandbox/builtin" // the marketplaces' sandboxes register their kinds
)

func init() {
	register(command{name: "sandbox", summary: "the local stack's fake marketplaces (channels list shows the uuids)", subs: []subcommand{
		{name: "order", use: sandboxOrderUse, run: runSandbox},
		{name: "poll", use: sandboxPollUse, run: runSandbox},
	}})
}

// sandboxOrderUse and sandboxPollUse are the arguments of sandbox order and poll.
const (
	sandboxPollUse  = "--channel UUID"
	sandboxOrderUse = sandboxPollUse + " [--sku SKU --quantity N]"
)

// runSandbox places an order in the sandbox that serves a channel (order), or asks the
// running stack to poll the channel now rather than at the next tick of its schedule (poll).
func runSandbox(ctx context.Context, args []string) error {
	verb := args[0]
	use := sandboxPollUse
	if verb == "order" {
		use = sandboxOrderUse
	}
	fs := newFlagSet("sandbox "+verb, use)
	channel := fs.String("channel", "", "the uuid of a channel connected to a sandbox (required)")
	var in sandbox.OrderRequest
	if verb == "order" {
		fs.StringVar(&in.SKU, "sku", "", "the channel SKU of the listing ordered (default: the shop's first listing in stock)")
		fs.IntVar(&in.Quantity, "quantity", 1, "the quantity ordered")
	}
	if err := parseFlags(fs, args[1:], false); err != nil {
		return err
	}
	if *channel == "" {
		return errors.New("--channel UUID is required")
	}
	d, ref, url, err := sandboxChannel(ctx, *channel)
	if err != nil {
		return err
	}
	if verb == "poll" {
		now := time.Now()
		if err := d.Connectors().Enqueue(ctx, connectors.ChannelRef{Account: ref.Account, UUID: ref.UUID}, now); err != nil {
			return err
		}
		return printJSON(map[string]any{"channel_uuid": ref.UUID, "poll": "queued", "at": now.UTC().Format(time.RFC3339)})
	}
	in.ChannelUUID = ref.UUID
	o, err := sandbox.PlaceOrder(ctx, url, in)
	if err != nil {
		return err
	}
	return printJSON(o)
}

// sandboxChannel finds the running local stack, the connected channel uuid (of any
// account) and the URL of the stack's sandbox that serves it: the sandbox its API endpoint
// names. It reads the channel, never its credentials.
func sandboxChannel(ctx context.Context, uuid string) (*app.Deps, channels.Ref, string, error) {
	s, err := findStack()
	if err != nil {
		return nil, channels.Ref{}, "", err
	}
	if s == nil {
		return nil, channels.Ref{}, "", errors.New("no local stack is running: start one with `make run` (sandboxes run on the local stack only)")
	}
	d, err := sdkchain.New(ctx, s.config())
	if err != nil {
		return nil, channels.Ref{}, "", err
	}
	var ref channels.Ref
	errFound := errors.New("found")
	err = d.Channels().Connected(ctx, func(page []channels.Ref) error {
		for _, r := range page {
			if r.UUID == uuid {
				ref = r
				return errFound
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, errFound) {
		return nil, channels.Ref{}, "", err
	}
	if ref.UUID == "" {
		return nil, channels.Ref{}, "", fmt.Errorf("channel %s is not connected: no active channel of any account connected through POST /v1/channels has this uuid (channels of external connectors and of the connector sim have no sandbox)", uuid)
	}
	ch, err := d.Channels().Get(ctx, ref.Account, ref.UUID)
	if err != nil {
		return nil, channels.Ref{}, "", err
	}
	var running []string
	for _, name := range slices.Sorted(maps.Keys(s.Sandboxes)) {
		url := s.Sandboxes[name]
		if url != "" && strings.TrimSuffix(ch.Endpoints.API, "/") == url {
			return d, ref, url, nil
		}
		running = append(running, name+" at "+url)
	}
	return nil, channels.Ref{}, "", fmt.Errorf("channel %s (connector %s) has no sandbox: it reaches %s, and the local stack's sandboxes are: %s",
		uuid, ch.Connector, cmp.Or(ch.Endpoints.API, "the connector's production endpoint"), cmp.Or(strings.Join(running, ", "), "none"))
}

// serveSandboxes are the sandboxes `multisell serve` runs beside the stack.
type serveSandboxes struct {
	running []serveSandbox
	banner  string
}

// serveSandbox is one running sandbox: the name of its connector, its base URL, how to stop
// it, and how to connect a demo account's channel to it.
type serveSandbox struct {
	name string
	demo.Running
}

// demoConnect connects a channel of the account to a sandbox, with listings and orders of
// its own there.
type demoConnect func(ctx context.Context, d *app.Deps, account string) (channels.Channel, error)

// startSandboxes registers the sandboxes' connectors in this process (the local stack's
// functions run here; the Lambdas register theirs with pkg/connectors/builtin) and starts
// each sandbox with its state in dir/<connector>.json, on the address it had before. It
// never fails serve: a sandbox that does not start is logged and said in the banner.
func startSandboxes(dir string) *serveSandboxes {
	out := &serveSandboxes{}
	var lines []string
	for _, k := range demo.Kinds() {
		connectors.Register(k.Connector)
		name := k.Connector.Spec().Name
		file := filepath.Join(dir, name+".json")
		sb, err := k.Open(file)
		if err != nil {
			slog.Error("a sandbox is off", "sandbox", name, "error", err.Error())
			lines = append(lines, fmt.Sprintf("  sandbox: %s off (%s)", k.Title, err.Error()))
			continue
		}
		out.running = append(out.running, serveSandbox{name: name, Running: sb})
		lines = append(lines, fmt.Sprintf("  sandbox: %s on %s (state in %s)", k.Title, sb.URL, relToRoot(file)))
	}
	if len(out.running) > 0 {
		lines = append(lines, "  an order in a sandbox: go run ./cmd/multisell sandbox order --channel UUID (channels list --account TOKEN shows them)")
	}
	out.banner = strings.Join(lines, "\n")
	return out
}

// urls are the running sandboxes' base URLs by connector name, for .local/stack.json.
func (s *serveSandboxes) urls() map[string]string {
	if len(s.running) == 0 {
		return nil
	}
	out := map[string]string{}
	for _, sb := range s.running {
		out[sb.name] = sb.URL
	}
	return out
}

// registerApps makes each running sandbox's app the operator's app of its channel type,
// registered with the callback route under apiURL (the local stack's apps;
// docs/connectors.md, "Connecting a merchant").
func (s *serveSandboxes) registerApps(d *app.Deps, apiURL string) {
	for _, sb := range s.running {
		if sb.Consent == nil {
			continue
		}
		if err := d.LocalApps.Set(sb.name, sb.Consent(consent.CallbackURL(apiURL, sb.name)).App); err != nil {
			slog.Error("a sandbox's app", "sandbox", sb.name, "error", err.Error())
		}
	}
}

// connects are the running sandboxes' demo connections.
func (s *serveSandboxes) connects() []demoConnect {
	var out []demoConnect
	for _, sb := range s.running {
		out = append(out, sb.Connect)
	}
	return out
}

// stop stops the sandboxes.
func (s *serveSandboxes) stop() {
	for _, sb := range s.running {
		_ = sb.Close()
	}
}

// demoChannels are the banner's lines of the demo account's channels connected to a
// running sandbox, each with its name and uuid (what sandbox order --channel takes); none
// without a demo account.
func (s *serveSandboxes) demoChannels(ctx context.Context, d *app.Deps, demo *demoCredentials) string {
	if demo == nil || demo.AccountID == "" || len(s.running) == 0 {
		return ""
	}
	all, err := d.Channels().List(ctx, demo.AccountID)
	if err != nil {
		slog.Error("demo channels", "error", err.Error())
		return ""
	}
	var lines []string
	for _, ch := range all {
		if slices.ContainsFunc(s.running, func(sb serveSandbox) bool { return sb.name == ch.Connector }) {
			lines = append(lines, fmt.Sprintf("  sandbox channel: %-24s %s", ch.Name, ch.UUID))
		}
	}
	return strings.Join(lines, "\n")
}
