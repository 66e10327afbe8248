// Command ledger turns raw `go test -bench` output from quiver's benchmark
// module into docs/ledger.md.
//
// Usage, from the bench directory:
//
//	go run ./cmd/ledger [-o ../docs/ledger.md] [-hyp '*_test.go'] [-note text] raw.txt...
//
// Input is the Go benchmark format benchstat reads: any number of passes
// (-count, or several runs appended to one file), from one machine or
// several. Hypotheses are read from the registration comments of the
// benchmark files named by -hyp. See bench/README.md for the whole
// procedure.
//
// The ledger keeps one generated section per CPU model, between
// "<!-- ledger:begin cpu=... -->" and "<!-- ledger:end cpu=... -->" lines.
// When the -o file exists, only the preamble and the sections of the CPU
// models in the input are rewritten; the sections of other CPUs and all
// text outside the markers stay as they are. Without -o, or when the file
// does not exist yet, a whole new ledger is written.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/quiverlabs/quiver/bench/internal/ledger"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "ledger:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	flags := flag.NewFlagSet("ledger", flag.ContinueOnError)
	out := flags.String("o", "", "write the ledger to this file instead of standard output")
	hyp := flags.String("hyp", "*_test.go", "glob of the benchmark files that register hypotheses")
	note := flags.String("note", "", "text printed under the title: what was measured, caveats")
	noteFile := flags.String("notefile", "", "file whose text is printed under the title (after -note)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if flags.NArg() == 0 {
		return fmt.Errorf("no raw benchmark files given")
	}

	var set ledger.Set
	for _, name := range flags.Args() {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		err = set.Read(f, name)
		f.Close()
		if err != nil {
			return err
		}
	}
	if len(set.Runs) == 0 {
		return fmt.Errorf("no ledger benchmarks in %v", flags.Args())
	}

	opt := ledger.Options{
		Note:      *note,
		Reproduce: "How to reproduce it: `bench/README.md`.",
	}
	if *noteFile != "" {
		b, err := os.ReadFile(*noteFile)
		if err != nil {
			return err
		}
		if opt.Note != "" {
			opt.Note += "\n"
		}
		opt.Note += string(b)
	}
	files, err := filepath.Glob(*hyp)
	if err != nil {
		return err
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		hs, err := ledger.ParseHypotheses(bytes.NewReader(src), filepath.ToSlash(filepath.Join("bench", filepath.Base(name))))
		if err != nil {
			return err
		}
		opt.Hypotheses = append(opt.Hypotheses, hs...)
	}

	ledger.SortHypotheses(opt.Hypotheses)
	seen := map[string]string{}
	for _, h := range opt.Hypotheses {
		if prev, dup := seen[h.ID]; dup {
			return fmt.Errorf("hypothesis %s registered twice (%s and %s)", h.ID, prev, h.Source)
		}
		seen[h.ID] = h.Source
	}

	if *out == "" {
		return ledger.Render(stdout, &set, opt)
	}
	old, err := os.ReadFile(*out)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	text, err := ledger.Merge(string(old), &set, opt)
	if err != nil {
		return fmt.Errorf("%s: %v", *out, err)
	}
	return os.WriteFile(*out, []byte(text), 0o644)
}
