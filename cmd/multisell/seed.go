package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/multisell/multisell/pkg/local/demo"
)

func init() {
	register(command{name: "seed", summary: "fill an account with realistic data: seed --account TOKEN [--orders N --products N --warehouses N]", run: runSeed})
}

func runSeed(ctx context.Context, args []string) error {
	fs, token := accountFlags("seed", "--account TOKEN [--orders N --products N --warehouses N]")
	var s demo.Sizes
	fs.IntVar(&s.Orders, "orders", 1000, "orders to import")
	fs.IntVar(&s.Products, "products", 100, "products to create (some grouped into variation groups)")
	fs.IntVar(&s.Warehouses, "warehouses", 3, "warehouses to create")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	if s.Orders < 0 || s.Products < 0 || s.Warehouses < 0 {
		return errors.New("sizes must not be negative")
	}
	d, account, err := openAccount(ctx, *token)
	if err != nil {
		return err
	}
	bar := &progressBar{w: stderr, terminal: isTerminal(stderr)}
	if err := demo.Seed(ctx, d, account, s, bar.update); err != nil {
		return err
	}
	bar.finish()
	return printJSON(map[string]any{"account_id": account, "seeded": s})
}

// progressBar draws one line per step on w: on a terminal redrawn in place as the step
// goes on, else (a file, a pipe) written once, when the step is done.
type progressBar struct {
	w        io.Writer
	terminal bool
	step     string
}

const barWidth = 30

func (p *progressBar) update(step string, done, total int) {
	total = max(total, 1)
	if !p.terminal {
		if done >= total {
			_, _ = fmt.Fprintf(p.w, "%-24s %d/%d\n", step, done, total)
		}
		return
	}
	if step != p.step && p.step != "" {
		_, _ = fmt.Fprintln(p.w)
	}
	p.step = step
	filled := min(barWidth, done*barWidth/total)
	_, _ = fmt.Fprintf(p.w, "\r%-24s [%s%s] %d/%d", step, strings.Repeat("=", filled), strings.Repeat(" ", barWidth-filled), done, total)
}

func (p *progressBar) finish() {
	if p.terminal && p.step != "" {
		_, _ = fmt.Fprintln(p.w)
	}
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
