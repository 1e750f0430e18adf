// testlines reads `go test -json` on stdin and prints what plain `go test` prints, but
// each package's lines as soon as the package finishes, not in the order of the package
// list (plain go test holds a package's result until the packages before it are done:
// minutes of silence in CI behind one slow package). A test's output is printed only
// when it fails (without go test's "=== RUN" lines); build errors and lines that are not
// JSON are printed as they come. Last
// it prints how many packages passed and failed, then how many tests passed, failed and were
// skipped, in the plain "tests: N passed, N failed, N skipped" form any CI reader knows. go test's exit status is the caller's
// (set -o pipefail). Run: go test -json ... | go run .ci/testlines.go
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
)

// event is a line of `go test -json` (cmd/test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string
	Test       string
	Output     string
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	out := bufio.NewWriter(os.Stdout)
	held := map[string][]string{} // a running test's output, by package and test
	passed, failed := 0, 0
	tests := map[string]int{} // test outcomes: pass, fail, skip
	for in.Scan() {
		line := in.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintf(out, "%s\n", line)
			_ = out.Flush()
			continue
		}
		key := e.Package + " " + e.Test
		switch {
		case e.Action == "build-output":
			fmt.Fprint(out, e.Output)
		case e.Action == "output" && strings.HasPrefix(e.Output, "=== "): // RUN, PAUSE, CONT
		case e.Action == "output" && e.Test == "":
			if e.Output != "PASS\n" {
				fmt.Fprint(out, e.Output)
			}
		case e.Action == "output":
			held[key] = append(held[key], e.Output)
		case e.Test != "" && e.Action == "fail":
			tests["fail"]++
			fmt.Fprint(out, strings.Join(held[key], ""))
			delete(held, key)
		case e.Test != "" && (e.Action == "pass" || e.Action == "skip"):
			tests[e.Action]++
			delete(held, key)
		case e.Action == "pass":
			passed++
		case e.Action == "fail":
			failed++
			// Tests the package ended without an outcome (a panic, the timeout): their output.
			for _, k := range slices.Sorted(maps.Keys(held)) {
				if strings.HasPrefix(k, e.Package+" ") {
					fmt.Fprint(out, strings.Join(held[k], ""))
					delete(held, k)
				}
			}
		}
		_ = out.Flush()
	}
	fmt.Fprintf(out, "go test: %d packages passed, %d failed\n", passed, failed)
	fmt.Fprintf(out, "tests: %d passed, %d failed, %d skipped\n", tests["pass"], tests["fail"], tests["skip"])
	_ = out.Flush()
}
