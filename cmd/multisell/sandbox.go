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
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/shopify"
	"github.com/multisell/multisell/pkg/local/sandbox"
	sbxshopify "github.com/multisell/multisell/pkg/local/sandbox/shopify"
)

func init() {
	register(command{
		name:    "sandbox",
		summary: "the local stack's fake marketplaces: sandbox order --channel UUID [--sku SKU --quantity N], sandbox poll --channel UUID",
		run:     runSandbox,
	})
}

const sandboxUse = "order --channel UUID [--sku SKU --quantity N] | poll --channel UUID"

// runSandbox places an order in the sandbox that serves a channel (order), or asks the
// running stack to poll the channel now rather than at the next tick of its schedule (poll).
func runSandbox(ctx context.Context, args []string) error {
	if len(args) == 0 || (args[0] != "order" && args[0] != "poll") {
		return fmt.Errorf("usage: multisell sandbox %s", sandboxUse)
	}
	verb := args[0]
	use := "--channel UUID"
	if verb == "order" {
		use += " [--sku SKU --quantity N]"
	}
	fs := newFlagSet("sandbox "+verb, use)
	channel := fs.String("channel", "", "the uuid of a channel connected to a sandbox (required)")
	var in sandbox.OrderRequest
	if verb == "order" {
		fs.StringVar(&in.SKU, "sku", "", "the channel SKU of the listing ordered (default: the shop's first listing in stock)")
		fs.IntVar(&in.Quantity, "quantity", 1, "the quantity ordered")
	}
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q; usage: multisell sandbox %s", fs.Arg(0), sandboxUse)
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
	d, err := app.New(ctx, s.config())
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
	// generic is the generic marketplace, shopify the Shopify sandbox, nil when it did
	// not start.
	generic *sandbox.Generic
	shopify *sbxshopify.Shop
	banner  string
}

// startSandboxes registers the sandboxes' connectors in this process (the local stack's
// functions run here; the Lambdas never register them) and starts the generic sandbox with
// its state in dir/generic.json, on the address it had before. It never fails serve: what
// went wrong is logged and said in the banner line.
func startSandboxes(dir string) *serveSandboxes {
	connectors.Register(sandbox.GenericConnector)
	connectors.Register(shopify.Connector)
	s := &serveSandboxes{}
	file := filepath.Join(dir, "generic.json")
	g, err := sandbox.OpenGeneric(file)
	if err != nil {
		slog.Error("generic sandbox is off", "error", err.Error())
		s.banner = "  sandbox: off (" + err.Error() + ")"
	} else {
		s.generic = g
		s.banner = fmt.Sprintf("  sandbox: generic marketplace on %s (state in %s); "+
			"an order there: go run ./cmd/multisell sandbox order --channel UUID", g.URL, relToRoot(file))
	}
	shopFile := filepath.Join(dir, "shopify.json")
	if s.shopify, err = sbxshopify.Open(shopFile); err != nil {
		slog.Error("shopify sandbox is off", "error", err.Error())
		s.banner += "\n  sandbox: shopify off (" + err.Error() + ")"
	} else {
		s.banner += fmt.Sprintf("\n  sandbox: shopify (Admin API %s) on %s (state in %s)", sbxshopify.Version, s.shopify.URL, relToRoot(shopFile))
	}
	return s
}

// urls are the running sandboxes' base URLs by connector name, for .local/stack.json.
func (s *serveSandboxes) urls() map[string]string {
	urls := map[string]string{}
	if s.generic != nil {
		urls[sandbox.GenericConnector.Spec().Name] = s.generic.URL
	}
	if s.shopify != nil {
		urls[shopify.Connector.Spec().Name] = s.shopify.URL
	}
	if len(urls) == 0 {
		return nil
	}
	return urls
}

// stop stops the sandboxes.
func (s *serveSandboxes) stop() {
	if s.generic != nil {
		_ = s.generic.Close()
	}
	if s.shopify != nil {
		_ = s.shopify.Close()
	}
}
