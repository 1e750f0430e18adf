package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
)

// subcommand is one verb of a command that has several (accounts create, channels list...).
type subcommand struct {
	// name is the word after the command's; use its arguments, for the usage text.
	name, use string
	// run executes it with the arguments from its name on (args[0] is name).
	run func(ctx context.Context, args []string) error
}

// usageError is a command called wrongly: an unknown or missing subcommand, a bad flag, an
// argument too many. It exits 2, as the flag package's own errors do.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// usagef is a usageError of the formatted message.
func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// groupRun is the run of the command name with subs: it runs the subcommand args names;
// -h alone prints every subcommand's usage on stdout (a success); none or an unknown one is
// a usage error that lists them.
func groupRun(name string, subs []subcommand) func(context.Context, []string) error {
	return func(ctx context.Context, args []string) error {
		if len(args) > 0 {
			for _, s := range subs {
				if s.name == args[0] {
					return s.run(ctx, args)
				}
			}
		}
		text := groupUsage(name, subs)
		switch {
		case len(args) == 1 && isHelp(args[0]):
			_, _ = fmt.Fprint(stdout, text)
			return flag.ErrHelp
		case len(args) == 0:
			return usageError{"a subcommand is required\n" + strings.TrimSuffix(text, "\n")}
		}
		return usagef("unknown subcommand %q\n%s", args[0], strings.TrimSuffix(text, "\n"))
	}
}

// groupUsage lists the subcommands of the command name, one usage line each.
func groupUsage(name string, subs []subcommand) string {
	var b strings.Builder
	b.WriteString("usage:\n")
	for _, s := range subs {
		_, _ = fmt.Fprintf(&b, "  multisell %s %s %s\n", name, s.name, s.use)
	}
	return b.String()
}

// parseFlags parses args into fs: a bad flag is a usage error (the flag package has already
// printed it, with the flags), -h is flag.ErrHelp, and an argument left over is a usage error
// unless args may have some.
func parseFlags(fs *flag.FlagSet, args []string, positional bool) error {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return err
	case err != nil:
		return exitError{Code: 2}
	case !positional && fs.NArg() > 0:
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}
