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
	ops    []string
	types  []string
	sizes  []int
	nulls  []int    // percent; 0 is the dense form
	sels   []string // selection kinds; "" is none
	rounds int
	time   string // per benchmark, in -test.benchtime syntax: 25ms or 100x
	format string // "table" or "bench"
}

// The operations, element types and selection kinds quiver bench knows,
// named as the benchmark module and its ledger name them.
var (
	allOps   = []string{"Sum", "SumChecked", "Min", "Max", "MinMax", "Summary", "CountValid"}
	allTypes = []string{"float64", "float32", "int64", "int32", "int8", "uint8"}
	allSels  = []string{"sorted10", "sorted50", "random10"}
)

// benchCmd parses the flags of quiver bench and runs it.
func benchCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("quiver bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "a smoke run of a few seconds: n=256, one round, 20 iterations each")
	ops := fs.String("op", "Sum,Summary", "comma-separated operations: "+strings.Join(allOps, ", ")+" (Summarize is Summary)")
	types := fs.String("type", "float64,float32,int64,int32,uint8", "comma-separated element types: "+strings.Join(allTypes, ", ")+
		"; CountValid reads only the bitmap and runs once, as uint8")
	sizes := fs.String("n", "4096,65536", "comma-separated input sizes (short inputs such as 1,8,16 too)")
	nulls := fs.String("nulls", "0,10", "comma-separated null percentages; 0 is the dense form, without a bitmap")
	sels := fs.String("sel", "none", "comma-separated selection vectors: none, "+strings.Join(allSels, ", ")+
		" (10% or 50% of the rows, ascending, or 10% in random order)")
	rounds := fs.Int("rounds", 3, "interleaved rounds; the table shows the median")
	per := fs.String("time", "25ms", "time per benchmark and round (a duration, or a count such as 100x)")
	format := fs.String("format", "table", "output: table (medians and speedups), or bench (go test benchmark lines, one per round, for benchstat)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: quiver bench [flags]\n\n"+
			"Times quiver's available backends and prints each backend's median time and its\n"+
			"speedup over the strict scalar backend. By default: Sum and Summarize over float64,\n"+
			"float32, int64, int32 and uint8, dense and with 10%% nulls, which takes well under a\n"+
			"minute. -format bench prints go test's benchmark format instead, named\n"+
			"Benchmark<Op>/type=<T>/n=<N>/nulls=<P>[/sel=<S>]/impl=<backend>, for benchstat:\n\n"+
			"  quiver bench -format bench -n 8,16 -op Sum -type int64 > out.txt\n"+
			"  benchstat -col /impl out.txt\n\n")
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
	o := benchOpts{rounds: *rounds, time: *per, format: *format}
	if *quick {
		*sizes, o.rounds, o.time = "256", 1, "20x"
	}
	if o.format != "table" && o.format != "bench" {
		return fmt.Errorf("bench: -format %q: want table or bench", o.format)
	}
	for _, op := range list(*ops) {
		if op == "Summarize" {
			op = "Summary"
		}
		if !slices.Contains(allOps, op) {
			return fmt.Errorf("bench: unknown operation %q (want %s)", op, strings.Join(allOps, ", "))
		}
		o.ops = append(o.ops, op)
	}
	for _, t := range list(*types) {
		if !slices.Contains(allTypes, t) {
			return fmt.Errorf("bench: unknown type %q (want %s)", t, strings.Join(allTypes, ", "))
		}
		o.types = append(o.types, t)
	}
	for _, s := range list(*sizes) {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			return fmt.Errorf("bench: bad size %q", s)
		}
		o.sizes = append(o.sizes, n)
	}
	for _, s := range list(*nulls) {
		p, err := strconv.Atoi(s)
		if err != nil || p < 0 || p > 100 {
			return fmt.Errorf("bench: bad null percentage %q", s)
		}
		o.nulls = append(o.nulls, p)
	}
	for _, s := range list(*sels) {
		switch {
		case s == "none":
			o.sels = append(o.sels, "")
		case slices.Contains(allSels, s):
			o.sels = append(o.sels, s)
		default:
			return fmt.Errorf("bench: unknown selection %q (want none, %s)", s, strings.Join(allSels, ", "))
		}
	}
	if o.rounds < 1 {
		return fmt.Errorf("bench: -rounds must be at least 1")
	}
	return runBench(o, stdout, stderr)
}

// list splits a comma-separated flag value, dropping blanks and repeats.
func list(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// config is one row of the table.
type config struct {
	op, typ string
	n       int
	nulls   int
	sel     string // selection kind, "" for none
	run     func() // the reduction on this configuration's input
}

// name is the configuration as the benchmark module names it.
func (c config) name() string {
	s := fmt.Sprintf("%s/type=%s/n=%d/nulls=%d", c.op, c.typ, c.n, c.nulls)
	if c.sel != "" {
		s += "/sel=" + c.sel
	}
	return s
}

// configs builds every configuration's input and call: the combinations
// of the filters that quiver has a reduction for (SumChecked takes signed
// integers; CountValid reads no elements and runs once per size, null
// percentage and selection, typed uint8 as in the ledger).
func configs(o benchOpts) []config {
	var out []config
	for _, op := range o.ops {
		types := o.types
		if op == "CountValid" {
			types = []string{"uint8"}
		}
		for _, typ := range types {
			if op == "SumChecked" && !slices.Contains([]string{"int64", "int32", "int8"}, typ) {
				continue
			}
			for _, n := range o.sizes {
				for _, nulls := range o.nulls {
					for _, sel := range o.sels {
						c := config{op: op, typ: typ, n: n, nulls: nulls, sel: sel}
						c.run = call(c)
						out = append(out, c)
					}
				}
			}
		}
	}
	return out
}

// sink keeps results alive so that no call is optimized away.
var sink float64

// call returns the reduction c.op over c.n random values of c.typ with
// c.nulls percent of them null, through c.sel's selection vector if any.
func call(c config) func() {
	n := c.n
	r := rand.New(rand.NewPCG(uint64(n), uint64(c.nulls)))
	var bm []byte
	if c.nulls > 0 {
		bm = make([]byte, (n+7)/8)
		for i := range n {
			if r.IntN(100) >= c.nulls {
				bm[i>>3] |= 1 << (i & 7)
			}
		}
	}
	var m []quiver.Mask
	switch {
	case c.sel != "" && bm != nil:
		m = []quiver.Mask{quiver.Valid(bm, 0).Select(selection(n, c.sel))}
	case c.sel != "":
		m = []quiver.Mask{quiver.Select(selection(n, c.sel))}
	case bm != nil:
		m = []quiver.Mask{quiver.Valid(bm, 0)}
	}
	if c.op == "CountValid" {
		return func() { sink = float64(quiver.CountValid(n, m...)) }
	}
	switch c.typ {
	case "float64":
		x := floatsOf[float64](r, n)
		if c.op == "Sum" {
			return func() { sink = quiver.Sum(x, m...) }
		}
		return extreme(c.op, x, m)
	case "float32":
		x := floatsOf[float32](r, n)
		if c.op == "Sum" {
			return func() { sink = float64(quiver.Sum(x, m...)) }
		}
		return extreme(c.op, x, m)
	case "int64":
		return signed(c.op, intsOf[int64](r, n), m)
	case "int32":
		return signed(c.op, intsOf[int32](r, n), m)
	case "int8":
		return signed(c.op, intsOf[int8](r, n), m)
	default: // uint8
		x := intsOf[uint8](r, n)
		if c.op == "Sum" {
			return func() { sink = float64(quiver.SumUint(x, m...)) }
		}
		return extreme(c.op, x, m)
	}
}

// signed is op over a signed integer slice.
func signed[I int64 | int32 | int8](op string, x []I, m []quiver.Mask) func() {
	switch op {
	case "Sum":
		return func() { sink = float64(quiver.SumInt(x, m...)) }
	case "SumChecked":
		return func() { sink = float64(quiver.SumChecked(x, m...).Sum) }
	}
	return extreme(op, x, m)
}

// extreme is Min, Max, MinMax or Summary over x.
func extreme[T quiver.Number](op string, x []T, m []quiver.Mask) func() {
	switch op {
	case "Min":
		return func() { sink = float64(quiver.Min(x, m...)) }
	case "Max":
		return func() { sink = float64(quiver.Max(x, m...)) }
	case "MinMax":
		return func() { lo, hi := quiver.MinMax(x, m...); sink = float64(lo) + float64(hi) }
	}
	return func() { sink = float64(quiver.Summarize(x, m...).Count) }
}

// selection is a selection vector over n rows, as the benchmark module
// draws it: "sorted10" 10% of the rows, distinct, ascending; "sorted50"
// half of them; "random10" the rows of sorted10 in random order.
func selection(n int, kind string) []uint32 {
	pct := 10
	if kind == "sorted50" {
		pct = 50
	}
	r := rand.New(rand.NewPCG(uint64(n), uint64(pct)))
	perm := r.Perm(n)[:max(n*pct/100, min(n, 1))] // at least one row
	sel := make([]uint32, len(perm))
	for i, p := range perm {
		sel[i] = uint32(p)
	}
	slices.Sort(sel)
	if kind == "random10" {
		r := rand.New(rand.NewPCG(uint64(n), 7))
		r.Shuffle(len(sel), func(i, j int) { sel[i], sel[j] = sel[j], sel[i] })
	}
	return sel
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
func intsOf[I int64 | int32 | int8 | uint8](r *rand.Rand, n int) []I {
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
	if len(cfgs) == 0 {
		return fmt.Errorf("bench: no configuration: SumChecked takes int64, int32 or int8 only")
	}
	if o.format == "bench" {
		printBenchHeader(stdout, backends)
	}
	procs := ""
	if p := runtime.GOMAXPROCS(0); p > 1 {
		procs = fmt.Sprintf("-%d", p) // the suffix go test appends
	}
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
				p.show(fmt.Sprintf("[%d/%d] round %d/%d  %s  %s", done, total, round+1, o.rounds, c.name(), name))
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
				ns := float64(res.T.Nanoseconds()) / float64(res.N)
				samples[i][j] = append(samples[i][j], ns)
				if o.format == "bench" {
					fmt.Fprintf(stdout, "Benchmark%s/impl=%s%s\t%d\t%.2f ns/op\n", c.name(), name, procs, res.N, ns)
				}
			}
		}
	}
	p.done(fmt.Sprintf("%d benchmarks in %s", total, time.Since(start).Round(time.Second/10)))
	if o.format == "bench" {
		return nil
	}
	return printTable(stdout, o, backends, cfgs, samples)
}

// printBenchHeader writes the configuration lines go test prints before
// its results, and the benchmark module's quiver lines, so that benchstat
// and the ledger tool read the output as they read go test's.
func printBenchHeader(w io.Writer, backends []string) {
	fmt.Fprintf(w, "goos: %s\ngoarch: %s\npkg: github.com/quiverlabs/quiver/cmd/quiver\n", runtime.GOOS, runtime.GOARCH)
	if name, id, ok := cpuModel(); ok {
		fmt.Fprintf(w, "cpu: %s\n", name)
		if id != "" {
			fmt.Fprintf(w, "cpuinfo-id: %s\n", id)
		}
	}
	fmt.Fprintf(w, "go: %s\n", runtime.Version())
	pref := slices.Clone(backends)
	slices.Reverse(pref) // most preferred first, as the benchmark module prints them
	fmt.Fprintf(w, "quiver-backends: %s\nquiver-active: %s\n", strings.Join(pref, " "), quiver.ActiveBackend().Name)
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
	hasSel := slices.ContainsFunc(cfgs, func(c config) bool { return c.sel != "" })
	fmt.Fprint(tw, "op\ttype\tn\tnulls\t")
	if hasSel {
		fmt.Fprint(tw, "sel\t")
	}
	for _, b := range backends {
		fmt.Fprintf(tw, "%s\t", b)
	}
	fmt.Fprintln(tw)
	strictCol := slices.Index(backends, "scalar")
	ratios := make([][]float64, len(backends))
	for i, c := range cfgs {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d%%\t", c.op, c.typ, c.n, c.nulls)
		if hasSel {
			sel := c.sel
			if sel == "" {
				sel = "-"
			}
			fmt.Fprintf(tw, "%s\t", sel)
		}
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
