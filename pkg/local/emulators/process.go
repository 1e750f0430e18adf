package emulators

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Process is a running emulator.
type Process struct {
	// Name names the emulator (dynoxide, fauxqs, dynamodb-local).
	Name string
	// Port is the loopback port it listens on.
	Port int
	// Endpoint is its base URL, http://127.0.0.1:Port.
	Endpoint string

	cmd      *exec.Cmd
	out      *tail
	done     chan struct{} // closed when the process has exited
	waitErr  error
	stopOnce sync.Once
	// afterStop, when set, runs once the process has exited in Stop (it
	// removes a temporary database).
	afterStop func()
	// relaunch starts the emulator again as it was started, on the same port.
	relaunch func(ctx context.Context) (*Process, error)
}

// stopGrace is how long Stop waits after SIGTERM before it sends SIGKILL.
const stopGrace = 5 * time.Second

// start runs name with args in dir, in a new process group. lines, when not nil, receives
// each line of standard output (and is closed at EOF); all output is also kept in a tail
// buffer for error messages.
func start(name, dir string, env []string, lines chan<- string, argv ...string) (*Process, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.SysProcAttr = sysProcAttr()
	p := &Process{Name: name, cmd: cmd, out: &tail{max: 16 << 10}, done: make(chan struct{})}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	cmd.Stderr = p.out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		if lines != nil {
			defer close(lines)
		}
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			_, _ = p.out.Write(append(sc.Bytes(), '\n'))
			if lines != nil {
				select {
				case lines <- sc.Text():
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	go func() {
		<-copied
		p.waitErr = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// Done is closed when the process has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Pid is the process id of the emulator (its process group's id too).
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Restart starts the emulator again, once p has exited (Done is closed), the way it was
// started: on the same port, so its endpoint and the clients using it stay valid (Dynoxide
// also on the same database, its stream indexes ensured). What is left of p's process
// group is killed first. The new process takes over p's cleanup (a temporary database is
// removed when the new process is stopped). A failed Restart may be tried again.
func (p *Process) Restart(ctx context.Context) (*Process, error) {
	select {
	case <-p.done:
	default:
		return nil, fmt.Errorf("restart %s: pid %d is still running", p.Name, p.Pid())
	}
	_ = syscall.Kill(-p.Pid(), syscall.SIGKILL)
	next, err := p.relaunch(ctx)
	if err != nil {
		return nil, fmt.Errorf("restart %s on port %d: %w", p.Name, p.Port, err)
	}
	next.relaunch, next.afterStop, p.afterStop = p.relaunch, p.afterStop, nil
	return next, nil
}

// Output returns the last output of the process (standard output and error).
func (p *Process) Output() string { return p.out.String() }

// Stop terminates the process group: SIGTERM, then SIGKILL after a grace period. It is
// safe to call more than once and on an exited process.
func (p *Process) Stop() error {
	p.stopOnce.Do(func() {
		p.kill()
		if p.afterStop != nil {
			p.afterStop()
		}
	})
	return nil
}

// kill ends the process group and waits for the process to exit.
func (p *Process) kill() {
	pgid := p.cmd.Process.Pid
	select {
	case <-p.done:
		// Already gone; still reap anything left in its group.
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		return
	default:
	}
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(stopGrace):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-p.done
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

// exitError describes an early exit with the process output.
func (p *Process) exitError() error {
	return fmt.Errorf("%s exited (%v): %s", p.Name, p.waitErr, strings.TrimSpace(p.Output()))
}

// waitReady waits until the process answers HTTP on its endpoint (any response counts),
// the process exits, the timeout passes or ctx ends.
func (p *Process) waitReady(ctx context.Context, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client := &http.Client{Timeout: time.Second}
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.Endpoint+"/", strings.NewReader("{}"))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
		req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=local/20200101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00")
		if resp, err := client.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			return nil
		}
		select {
		case <-p.done:
			return p.exitError()
		case <-ctx.Done():
			return fmt.Errorf("%s did not answer on %s within %v: %w; output: %s", p.Name, p.Endpoint, timeout, ctx.Err(), strings.TrimSpace(p.Output()))
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer func() { _ = l.Close() }()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// launcher starts an emulator on a port and returns it once it answers there.
type launcher func(ctx context.Context, port int) (*Process, error)

// listenOn returns a launcher that runs the process run makes for the port and waits up
// to timeout for it to answer on that port.
func listenOn(timeout time.Duration, run func(port int) (*Process, error)) launcher {
	return func(ctx context.Context, port int) (*Process, error) {
		p, err := run(port)
		if err != nil {
			return nil, err
		}
		p.Port = port
		p.Endpoint = "http://127.0.0.1:" + strconv.Itoa(port)
		if err := p.waitReady(ctx, timeout); err != nil {
			_ = p.Stop()
			return nil, err
		}
		return p, nil
	}
}

// startOnFreePort starts an emulator with launch on a free port, retrying with another
// port when the chosen one was taken in between. Restart launches it on the same port.
func startOnFreePort(ctx context.Context, name string, launch launcher) (*Process, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		p, err := launch(ctx, port)
		if err == nil {
			p.relaunch = func(ctx context.Context) (*Process, error) { return launch(ctx, port) }
			return p, nil
		}
		lastErr = err
		if ctx.Err() != nil {
			break
		}
	}
	return nil, fmt.Errorf("start %s: %w", name, lastErr)
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// errNotInstalled marks a missing emulator or runtime.
var errNotInstalled = errors.New("not installed")

// IsNotInstalled reports whether err says an emulator or its runtime (node, java) is missing.
func IsNotInstalled(err error) bool { return errors.Is(err, errNotInstalled) }
