// Command multisell is the project's command-line tool: `multisell serve` runs the local
// stack (what `make run` does), and the other subcommands work on the data of the running
// local stack (found through .local/stack.json) or, without one, of the AWS stack named by
// the standard AWS configuration and TABLE_NAME. Results are JSON on stdout; errors go to
// stderr with a non-zero exit status.
//
// Each command lives in a file of its own that registers it from an init function, with
// its subcommands if it has some:
//
//	func init() {
//		register(command{name: "accounts", summary: "accounts", subs: []subcommand{
//			{name: "create", use: "--name NAME", run: createAccount},
//		}})
//	}
//
// Exit status: 0 done (and -h), 1 refused or failed, 2 called wrongly (an unknown command or
// subcommand, a bad flag, an argument too many), as the flag package's.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"sort"
	"syscall"
)

// command is one subcommand.
type command struct {
	// name is the word after multisell.
	name string
	// summary is a one-line description for the usage text.
	summary string
	// run executes the subcommand with the arguments after its name. ctx is cancelled on
	// SIGINT or SIGTERM. Returning flag.ErrHelp exits 0; an exitError exits with its code
	// without printing anything more; a usageError is printed to stderr and exits 2; any
	// other error is printed to stderr and exits 1. A command with subs has none: it runs
	// the subcommand its first argument names (groupRun).
	run func(ctx context.Context, args []string) error
	// subs are the command's subcommands, if it has some.
	subs []subcommand
}

// commands holds the registered subcommands by name.
var commands = map[string]command{}

// register adds a subcommand; it panics on a duplicate name (a programming error).
func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("multisell: command " + c.name + " registered twice")
	}
	if c.subs != nil {
		c.run = groupRun(c.name, c.subs)
	}
	commands[c.name] = c
}

// exitError ends the program with Code once the command has reported what went wrong
// itself (e.g. `orders import` printing per-document results, some failed).
type exitError struct{ Code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// stdout and stderr are where commands write; tests may replace them.
var (
	stdout io.Writer = os.Stdout
	stderr io.Writer = os.Stderr
)

// printJSON writes v to stdout as indented JSON.
func printJSON(v any) error {
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write JSON: %w", err)
	}
	return nil
}

// newFlagSet returns a flag set for a subcommand that reports errors instead of exiting.
func newFlagSet(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet("multisell "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		_, _ = fmt.Fprintf(stderr, "usage: multisell %s %s\n", name, usage)
		fs.PrintDefaults()
	}
	return fs
}

func usage(w io.Writer) {
	_, _ = fmt.Fprintln(w, "usage: multisell <command> [arguments]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := commands[n]
		_, _ = fmt.Fprintf(w, "  %-12s %s\n", n, c.summary)
		for _, s := range c.subs {
			_, _ = fmt.Fprintf(w, "    %s %s %s\n", n, s.name, s.use)
		}
	}
	_, _ = fmt.Fprintln(w, "\nRun `multisell <command> [subcommand] -h` for its flags; `multisell --version` prints the version.")
}

func main() {
	slog.SetDefault(slog.New(slog.NewJSONHandler(os.Stderr, nil)))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:])
	stop()
	os.Exit(code)
}

// run dispatches to a subcommand and returns the exit status.
func run(ctx context.Context, args []string) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	if isHelp(args[0]) || args[0] == "help" {
		usage(stdout)
		return 0
	}
	if args[0] == "--version" || args[0] == "-version" || args[0] == "version" {
		_, _ = fmt.Fprintln(stdout, "multisell", version())
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		_, _ = fmt.Fprintf(stderr, "multisell: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	err := cmd.run(ctx, args[1:])
	var exit exitError
	var wrong usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &exit):
		return exit.Code
	case errors.As(err, &wrong):
		_, _ = fmt.Fprintf(stderr, "multisell %s: %v\n", cmd.name, err)
		return 2
	}
	_, _ = fmt.Fprintf(stderr, "multisell %s: %v\n", cmd.name, err)
	return 1
}

// version is the module's version and, for a build from a checkout, its commit.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := info.Main.Version
	for _, s := range info.Settings {
		switch {
		case s.Key == "vcs.revision":
			v += " " + s.Value[:min(12, len(s.Value))]
		case s.Key == "vcs.modified" && s.Value == "true":
			v += " (modified)"
		}
	}
	return v
}

// isHelp reports whether arg asks for help, as the flag package reads it.
func isHelp(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help" || arg == "--h"
}
