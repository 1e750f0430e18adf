package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/multisell/multisell/pkg/orders"
)

func init() {
	register(command{name: "orders", summary: "import orders", subs: []subcommand{
		{name: "import", use: ordersImportUse, run: importOrders},
	}})
}

// ordersImportUse is the arguments of orders import.
const ordersImportUse = "--account TOKEN FILE|-"

// importOrders imports a JSON array of import documents (docs/orders.md, Import)
// and prints one result per document; it exits 1 if any document failed.
func importOrders(ctx context.Context, args []string) error {
	fs, token := accountCommand("orders", "import", ordersImportUse)
	if err := parseFlags(fs, args[1:], true); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("one FILE (or - for stdin) is required: multisell orders import %s", ordersImportUse)
	}
	input, err := readInput(fs.Arg(0))
	if err != nil {
		return err
	}
	docs, err := orders.SplitDocuments(input)
	if err != nil {
		return err
	}
	d, account, err := openAccount(ctx, *token)
	if err != nil {
		return err
	}
	results, err := d.Orders().Import(ctx, account, docs)
	if perr := printJSON(results); perr != nil {
		return perr
	}
	if err != nil {
		return err
	}
	for _, r := range results {
		if r.Result == orders.ResultError {
			return exitError{Code: 1}
		}
	}
	return nil
}

// readInput reads a file, or stdin for "-".
func readInput(name string) ([]byte, error) {
	if name == "-" {
		b, err := io.ReadAll(os.Stdin)
		if err != nil {
			return nil, fmt.Errorf("read stdin: %w", err)
		}
		return b, nil
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return b, nil
}
