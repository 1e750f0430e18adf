package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/multisell/multisell/pkg/webhookhttp"
)

func init() {
	register(command{name: "webhooks", summary: "a local receiver that verifies and prints webhook deliveries", subs: []subcommand{
		{name: "listen", use: webhooksListenUse, run: runWebhooks},
	}})
}

// webhooksListenUse is the arguments of webhooks listen.
const webhooksListenUse = "--secret SECRET [--secret SECRET2] [--port N] [--status CODE]"

// secretsFlag is the repeatable --secret. It never prints a secret: not in the usage
// text, and not in an error about one.
type secretsFlag []string

func (s *secretsFlag) String() string {
	if s == nil || len(*s) == 0 {
		return ""
	}
	return fmt.Sprintf("%d secrets", len(*s))
}

func (s *secretsFlag) Set(v string) error {
	*s = append(*s, v)
	return nil
}

// runWebhooks runs `webhooks listen`: an HTTP server on 127.0.0.1 that verifies each
// POST with the secrets, prints it, and answers until interrupted.
func runWebhooks(ctx context.Context, args []string) error {
	fs := newFlagSet("webhooks listen", webhooksListenUse)
	port := fs.Int("port", 0, "listen on 127.0.0.1, port `N` (0: a free one, printed at the start)")
	var secrets secretsFlag
	fs.Var(&secrets, "secret", "the endpoint's signing secret, `whsec_...`; repeat it during a rotation: a delivery is verified if any secret verifies it")
	status := fs.Int("status", http.StatusNoContent, "the HTTP status `code` answered to a verified delivery (e.g. 500 to watch the retries)")
	if err := parseFlags(fs, args[1:], false); err != nil {
		return err
	}
	if len(secrets) == 0 {
		return errors.New("--secret is required: the endpoint's signing secret, whsec_ and base64, as the API showed it")
	}
	for i, s := range secrets {
		if !webhookhttp.ValidSecret(s) {
			return fmt.Errorf("--secret number %d is not a signing secret (whsec_ and the base64 of 32 bytes, as the API shows it)", i+1)
		}
	}
	if *status < 200 || *status > 599 {
		return fmt.Errorf("--status %d is not a status from 200 to 599", *status)
	}
	if *port < 0 || *port > 65535 {
		return fmt.Errorf("--port %d is not a port from 0 to 65535", *port)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(*port)))
	if err != nil {
		return fmt.Errorf("listen on 127.0.0.1:%d: %w", *port, err)
	}
	l := &hookListener{secrets: secrets, status: *status, out: stdout}
	_, _ = fmt.Fprintf(stderr, "listening for webhook deliveries on http://%s/ (verified: %d, not verified: 401); Ctrl-C stops\n", ln.Addr(), *status)
	return l.serve(ctx, ln)
}

// hookListener verifies and prints deliveries.
type hookListener struct {
	secrets []string
	status  int // answered to a verified delivery
	mu      sync.Mutex
	out     io.Writer
}

// serve answers deliveries on ln until ctx is done.
func (l *hookListener) serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: l, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serve webhooks: %w", err)
	case <-ctx.Done():
	}
	// Deliveries in progress get 5 s to finish; then the connections left
	// are closed. A connection a client opened but never used holds
	// Shutdown for 5 s and is no reason to fail the interrupt.
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	err := srv.Shutdown(shutdown)
	if errors.Is(err, context.DeadlineExceeded) {
		err = srv.Close()
	}
	if err != nil {
		return fmt.Errorf("stop serving webhooks: %w", err)
	}
	return nil
}

// ServeHTTP verifies one delivery, prints it, and answers.
func (l *hookListener) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	now := time.Now().UTC().Format(time.RFC3339)
	id := r.Header.Get(webhookhttp.HeaderID)
	if id == "" {
		id = "-"
	}
	reject := func(status int, reason string) {
		l.print(fmt.Sprintf("%s REJECTED %s (webhook-id %s)\n", now, reason, id))
		http.Error(w, reason, status)
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		reject(http.StatusMethodNotAllowed, r.Method+" is not a delivery (POST)")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, webhookhttp.MaxBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			reject(http.StatusRequestEntityTooLarge, fmt.Sprintf("body over %d bytes", webhookhttp.MaxBody))
			return
		}
		reject(http.StatusBadRequest, "reading the body: "+err.Error())
		return
	}
	var verr error
	for _, s := range l.secrets {
		if verr = webhookhttp.Verify(s, r.Header, body); verr == nil {
			break
		}
	}
	if verr != nil {
		reason := verr.Error()
		var ve *webhookhttp.VerifyError
		if errors.As(verr, &ve) {
			reason = ve.Reason
		}
		reject(http.StatusUnauthorized, reason)
		return
	}
	l.print(deliveryText(now, id, body, l.status))
	w.WriteHeader(l.status)
}

// deliveryText is what the listener prints of a verified delivery: a line with its id,
// type and sequence number, then its body as indented JSON.
func deliveryText(now, id string, body []byte, status int) string {
	var ev struct {
		Seq  json.Number `json:"seq"`
		Type string      `json:"type"`
	}
	_ = json.Unmarshal(body, &ev) // a body that is not an event is printed as it is
	typ, seq := ev.Type, ev.Seq.String()
	if typ == "" {
		typ = "-"
	}
	if seq == "" {
		seq = "?"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s verified %s %s seq=%s", now, id, typ, seq)
	if status != http.StatusNoContent {
		fmt.Fprintf(&b, " (answered %d)", status)
	}
	b.WriteByte('\n')
	var indented bytes.Buffer
	if json.Indent(&indented, body, "", "  ") == nil {
		b.Write(indented.Bytes())
	} else {
		b.Write(body)
	}
	b.WriteByte('\n')
	return b.String()
}

// print writes text to the output in one piece, so concurrent deliveries do not mix.
func (l *hookListener) print(text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = io.WriteString(l.out, text)
}
