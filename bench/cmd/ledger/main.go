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
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
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
	fs := flag.NewFlagSet("ledger", flag.ContinueOnError)
	out := fs.String("o", "", "write the ledger to this file instead of standard output")
	hyp := fs.String("hyp", "*_test.go", "glob of the benchmark files that register hypotheses")
	note := fs.String("note", "", "text printed under the title: what was measured, caveats")
	noteFile := fs.String("notefile", "", "file whose text is printed under the title (after -note)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("no raw benchmark files given")
	}

	var set ledger.Set
	for _, name := range fs.Args() {
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
		return fmt.Errorf("no ledger benchmarks in %v", fs.Args())
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

	var buf bytes.Buffer
	if err := ledger.Render(&buf, &set, opt); err != nil {
		return err
	}
	if *out == "" {
		_, err := stdout.Write(buf.Bytes())
		return err
	}
	return os.WriteFile(*out, buf.Bytes(), 0o644)
}
