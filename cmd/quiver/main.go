// Command quiver describes how quiver runs on this machine and measures it.
//
//	quiver info            CPU features, backends, dispatch and float policies
//	quiver bench [flags]   a quick ledger of quiver's own backends (under a minute)
//
// info prints the CPU features the backends need, every compiled-in
// backend (available or not) with its float summation layout, and the
// backend each operation dispatches to. bench times every available
// backend on a small matrix with testing.Benchmark and prints, per
// configuration, the median time of each backend and its speedup over the
// strict scalar backend, then a geomean per backend; -op, -type, -n,
// -nulls and -sel choose the configurations (short inputs and selection
// vectors included), and -format bench prints go test's benchmark lines
// for benchstat instead. It measures quiver alone; the comparison with the
// plain loop and other libraries is the benchmark module's ledger
// (docs/ledger.md).
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one subcommand and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	var err error
	switch args[0] {
	case "info":
		if len(args) > 1 {
			fmt.Fprintf(stderr, "quiver info: unexpected arguments %q\n", args[1:])
			return 2
		}
		err = info(stdout)
	case "bench":
		err = benchCmd(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return 0
	default:
		fmt.Fprintf(stderr, "quiver: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "quiver:", err)
		return 1
	}
	return 0
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  quiver info            CPU features, backends, per-operation dispatch, float policies
  quiver bench [flags]   time quiver's backends on this machine (run "quiver bench -h")
`)
}
