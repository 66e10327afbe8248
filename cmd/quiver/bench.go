package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/quiverlabs/quiver"
)

// benchOpts are the knobs of quiver bench.
type benchOpts struct {
	sizes  []int
	nulls  []int // percent; 0 is the dense form
	rounds int
	time   string // per benchmark, in -test.benchtime syntax: 25ms or 100x
}

// benchCmd parses the flags of quiver bench and runs it.
func benchCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("quiver bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "a smoke run of a few seconds: n=256, one round, 20 iterations each")
	sizes := fs.String("n", "4096,65536", "comma-separated input sizes")
	rounds := fs.Int("rounds", 3, "interleaved rounds; the table shows the median")
	per := fs.String("time", "25ms", "time per benchmark and round (a duration, or a count such as 100x)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: quiver bench [flags]\n\n"+
			"Times quiver's available backends on Sum and Summarize over float64, float32,\n"+
			"int64, int32 and uint8, dense and with 10%% nulls, and prints each backend's\n"+
			"median time and its speedup over the strict scalar backend. The defaults take\n"+
			"well under a minute.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("bench: unexpected arguments %q", fs.Args())
	}
	o := benchOpts{nulls: []int{0, 10}, rounds: *rounds, time: *per}
	if *quick {
		*sizes, o.rounds, o.time = "256", 1, "20x"
	}
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			return fmt.Errorf("bench: bad size %q", s)
		}
		o.sizes = append(o.sizes, n)
	}
	if o.rounds < 1 {
		return fmt.Errorf("bench: -rounds must be at least 1")
	}
	return runBench(o, stdout, stderr)
}

// config is one row of the table.
type config struct {
	op, typ string
	n       int
	nulls   int
	run     func() // the reduction on this configuration's input
}

// configs builds every configuration's input and call.
func configs(o benchOpts) []config {
	var out []config
	for _, op := range []string{"Sum", "Summarize"} {
		for _, typ := range []string{"float64", "float32", "int64", "int32", "uint8"} {
			for _, n := range o.sizes {
				for _, nulls := range o.nulls {
					out = append(out, config{op: op, typ: typ, n: n, nulls: nulls, run: call(op, typ, n, nulls)})
				}
			}
		}
	}
	return out
}

// sink keeps results alive so that no call is optimized away.
var sink float64

// call returns the reduction op over n random values of typ with nulls
// percent of them null.
func call(op, typ string, n, nulls int) func() {
	r := rand.New(rand.NewPCG(uint64(n), uint64(nulls)))
	var m []quiver.Mask
	if nulls > 0 {
		bm := make([]byte, (n+7)/8)
		for i := range n {
			if r.IntN(100) >= nulls {
				bm[i>>3] |= 1 << (i & 7)
			}
		}
		m = []quiver.Mask{quiver.Valid(bm, 0)}
	}
	switch typ {
	case "float64":
		x := floatsOf[float64](r, n)
		if op == "Sum" {
			return func() { sink = quiver.Sum(x, m...) }
		}
		return func() { sink = float64(quiver.Summarize(x, m...).Count) }
	case "float32":
		x := floatsOf[float32](r, n)
		if op == "Sum" {
			return func() { sink = float64(quiver.Sum(x, m...)) }
		}
		return func() { sink = float64(quiver.Summarize(x, m...).Count) }
	case "int64":
		x := intsOf[int64](r, n)
		if op == "Sum" {
			return func() { sink = float64(quiver.SumInt(x, m...)) }
		}
		return func() { sink = float64(quiver.Summarize(x, m...).Count) }
	case "int32":
		x := intsOf[int32](r, n)
		if op == "Sum" {
			return func() { sink = float64(quiver.SumInt(x, m...)) }
		}
		return func() { sink = float64(quiver.Summarize(x, m...).Count) }
	default: // uint8
		x := intsOf[uint8](r, n)
		if op == "Sum" {
			return func() { sink = float64(quiver.SumUint(x, m...)) }
		}
		return func() { sink = float64(quiver.Summarize(x, m...).Count) }
	}
}

// floatsOf draws values of moderate magnitude and random sign.
func floatsOf[F float32 | float64](r *rand.Rand, n int) []F {
	x := make([]F, n)
	for i := range x {
		x[i] = F((r.Float64()*2 - 1) * math.Ldexp(1, r.IntN(40)-20))
	}
	return x
}

// intsOf draws values across the whole range of the type.
func intsOf[I int64 | int32 | uint8](r *rand.Rand, n int) []I {
	x := make([]I, n)
	for i := range x {
		x[i] = I(r.Uint64())
	}
	return x
}

// runBench times every available backend on every configuration, rounds
// times, interleaved so that a noisy moment hits all backends alike, and
// prints the table.
func runBench(o benchOpts, stdout, stderr io.Writer) error {
	testing.Init()
	if err := flagSet("test.benchtime", o.time); err != nil {
		return fmt.Errorf("bench: -time %q: %v", o.time, err)
	}
	var backends []string
	for _, b := range quiver.Backends() {
		if b.Available {
			backends = append(backends, b.Name)
		}
	}
	slices.Reverse(backends) // least preferred (the strict scalar) first
	prev := quiver.ActiveBackend().Name
	defer quiver.SetBackend(prev)

	cfgs := configs(o)
	samples := make([][][]float64, len(cfgs)) // [config][backend][round] ns/op
	for i := range samples {
		samples[i] = make([][]float64, len(backends))
	}
	total, done := o.rounds*len(cfgs)*len(backends), 0
	p := &progress{w: stderr}
	start := time.Now()
	for round := range o.rounds {
		for i, c := range cfgs {
			for j, name := range backends {
				done++
				p.show(fmt.Sprintf("[%d/%d] round %d/%d  %s %s n=%d nulls=%d%%  %s",
					done, total, round+1, o.rounds, c.op, c.typ, c.n, c.nulls, name))
				if err := quiver.SetBackend(name); err != nil {
					return err
				}
				res := testing.Benchmark(func(b *testing.B) {
					for b.Loop() {
						c.run()
					}
				})
				if res.N == 0 {
					return fmt.Errorf("bench: %s %s on %s did not run", c.op, c.typ, name)
				}
				samples[i][j] = append(samples[i][j], float64(res.T.Nanoseconds())/float64(res.N))
			}
		}
	}
	p.done(fmt.Sprintf("%d benchmarks in %s", total, time.Since(start).Round(time.Second/10)))
	return printTable(stdout, o, backends, cfgs, samples)
}

// flagSet sets one of the flags testing.Init registered.
func flagSet(name, value string) error {
	f := flag.Lookup(name)
	if f == nil {
		return fmt.Errorf("no flag %s", name)
	}
	return f.Value.Set(value)
}

// printTable writes the medians and speedups, then the geomeans.
func printTable(w io.Writer, o benchOpts, backends []string, cfgs []config, samples [][][]float64) error {
	fmt.Fprintf(w, "quiver bench on %s/%s, %s, active backend %s; median of %d round(s) of %s each\n",
		runtime.GOOS, runtime.GOARCH, runtime.Version(), quiver.ActiveBackend().Name, o.rounds, o.time)
	fmt.Fprintf(w, "cells: ns/op (speedup over the strict scalar backend)\n\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "op\ttype\tn\tnulls\t")
	for _, b := range backends {
		fmt.Fprintf(tw, "%s\t", b)
	}
	fmt.Fprintln(tw)
	strictCol := slices.Index(backends, "scalar")
	ratios := make([][]float64, len(backends))
	for i, c := range cfgs {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d%%\t", c.op, c.typ, c.n, c.nulls)
		strict := math.NaN()
		if strictCol >= 0 {
			strict = median(samples[i][strictCol])
		}
		for j := range backends {
			t := median(samples[i][j])
			r := strict / t
			ratios[j] = append(ratios[j], r)
			fmt.Fprintf(tw, "%.0f (%.1f×)\t", t, r)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\ngeomean speedup over the strict scalar backend:")
	for j, b := range backends {
		fmt.Fprintf(w, "  %s %.2f×", b, geomean(ratios[j]))
	}
	fmt.Fprintf(w, "\nfloat sums on SIMD backends are reassociated (ADR-013), the scalar one is the strict fold;\n"+
		"for the comparison with other Go libraries see docs/ledger.md.\n")
	return nil
}

// median is the middle of xs (mean of the middle two for an even count).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// geomean is the geometric mean of the positive finite values of xs.
func geomean(xs []float64) float64 {
	sum, n := 0.0, 0
	for _, x := range xs {
		if x > 0 && !math.IsInf(x, 0) {
			sum += math.Log(x)
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return math.Exp(sum / float64(n))
}

// progress keeps one status line on stderr, rewritten in place with a
// carriage return. When stderr is not a terminal (a log file, a test) the
// carriage returns would pile up on one line, so it writes only the
// final line there.
type progress struct {
	w    io.Writer
	last int
}

func (p *progress) show(line string) {
	if !isTerminal(p.w) {
		return
	}
	pad := max(p.last-len(line), 0)
	fmt.Fprintf(p.w, "\r%s%s", line, strings.Repeat(" ", pad))
	p.last = len(line)
}

func (p *progress) done(line string) {
	if !isTerminal(p.w) {
		fmt.Fprintln(p.w, line)
		return
	}
	p.show(line)
	fmt.Fprintln(p.w)
}

// isTerminal reports whether w is a character device such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
