// Package ledger turns raw `go test -bench` output from quiver's benchmark
// module into the performance ledger: per machine, per configuration, the
// median time of every implementation, its speedup over the strict scalar
// path and over the best peer, a geomean verdict per backend, and the
// pre-registered hypotheses marked held or missed.
//
// Input is the Go benchmark format that benchstat reads (x/perf/benchfmt):
// "key: value" configuration lines and Benchmark result lines, any number
// of passes interleaved, several files at once. Benchmark names follow
//
//	Benchmark<Op>/type=<T>/n=<N>/nulls=<P>/impl=<I>
//	Benchmark<Op>/type=<T>/n=<N>/nulls=<P>/sel=<S>/impl=<I>
//
// with P the null percentage and S, when present, the kind of selection
// vector the reduction visits (see Config.Sel). An Op named after a
// partial state (SumState, IntSumState, SummaryState) is the part that
// measures the states and the parallel reduce against one call (see
// State). Results with other names are ignored, so a raw file may carry
// unrelated benchmarks too.
package ledger

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// Config is one measured configuration: an operation on n elements of one
// type with a given percentage of nulls (0 means the dense form, no bitmap)
// and, optionally, a selection vector.
type Config struct {
	Op    string // Sum, Min, Max, MinMax, Summary, SumChecked, CountValid; SumState, ... (State)
	Type  string // float64, float32, int64, ...; uint8 for CountValid (the bitmap)
	N     int
	Nulls int // percent
	// Sel is the kind of selection vector the reduction visits, "" for
	// none: "sorted10" selects 10% of the n rows in ascending order,
	// "sorted50" half of them, "random10" 10% in random order.
	Sel string
}

// String names c the way the benchmark does, without the implementation.
func (c Config) String() string {
	s := fmt.Sprintf("%s/type=%s/n=%d/nulls=%d", c.Op, c.Type, c.N, c.Nulls)
	if c.Sel != "" {
		s += "/sel=" + c.Sel
	}
	return s
}

// Label is c as the hypotheses and the ledger's tables spell it:
// "Sum float64 n=4096 nulls=0%", with " sel=sorted10" when c has a
// selection.
func (c Config) Label() string {
	s := fmt.Sprintf("%s %s n=%d nulls=%d%%", c.Op, c.Type, c.N, c.Nulls)
	if c.Sel != "" {
		s += " sel=" + c.Sel
	}
	return s
}

// ShortMax is the largest n of a short input: the ledger shows
// configurations up to this size (without a selection) in a section of
// their own, against the plain loop.
const ShortMax = 256

// Shape is which part of the matrix c belongs to, and which section of the
// ledger shows it.
type Shape int

const (
	Large     Shape = iota // n > ShortMax, no selection: the main tables
	Short                  // n <= ShortMax, no selection
	Selection              // any n, with a selection vector
	// State is a partial state fed in batches or through its parallel
	// reduce, against one call of its reduction over the whole input:
	// an Op that IsStateOp, whatever n. Its implementations are Call and
	// the ways of feeding the state (IsStateImpl), not backends, and
	// there is no plain loop, so it has a section of its own and stays
	// out of the verdict and of the list of configurations slower than
	// the loop.
	State
)

// IsStateOp reports whether op names a partial state ("SumState",
// "SummaryState", ...): the operations of the State part.
func IsStateOp(op string) bool {
	return len(op) > len("State") && strings.HasSuffix(op, "State")
}

// ShapeOf classifies c.
func ShapeOf(c Config) Shape {
	switch {
	case IsStateOp(c.Op):
		return State
	case c.Sel != "":
		return Selection
	case c.N <= ShortMax:
		return Short
	}
	return Large
}

// Machine identifies where and on what a run was measured. Results that
// agree on every field are pooled; anything else is a separate section of
// the ledger.
type Machine struct {
	CPU string // the cpu: line of go test, the CPU model
	// CPUID is the kernel's identification of the CPU model as the
	// benchmark printed it (cpuinfo-id:): "family 25 model 1" on x86,
	// "implementer 0x41 part 0xd0c" on arm64; "" when not recorded.
	CPUID    string
	Features string // cpu-features: the instruction-set extensions that matter
	Go       string // go: the toolchain version
	GOOS     string
	GOARCH   string
	Commit   string // commit: the quiver commit measured
}

// Run holds every sample of one machine.
type Run struct {
	Machine
	// Backends lists quiver's backends as the benchmark reported them
	// (quiver-backends:), most preferred first; Active is the one a plain
	// call dispatches to (quiver-active:).
	Backends []string
	Active   string
	// Policies maps a backend to its ADR-013 float sum layouts as the
	// benchmark printed them (quiver-float-policies:), "AxW,AxW" for
	// float32 and float64; "1x1,1x1" is the strict fold.
	Policies map[string]string
	// Extra holds the other configuration lines (benchtime, passes, ...),
	// last value wins, for the ledger's header.
	Extra map[string]string

	// Samples maps a configuration and an implementation to its times in
	// nanoseconds per operation, one per pass.
	Samples map[Config]map[string][]float64

	// Failures are the benchmarks that reported failure in the raw files
	// this run's results came from.
	Failures []string
}

// CPUKey names the CPU model r was measured on: go test's cpu: line and,
// when recorded, the CPUID ("AMD EPYC, family 25 model 1"). The ledger
// keeps one section per key.
func (m Machine) CPUKey() string {
	name := m.CPU
	if name == "" {
		name = "unknown CPU"
	}
	if m.CPUID != "" {
		name += ", " + m.CPUID
	}
	return name
}

// Set is everything read, one Run per machine, in order of appearance.
type Set struct {
	Runs []*Run
	// Failures are the full names of benchmarks that reported failure in
	// any input, once each.
	Failures []string
}

// machineKeys are the configuration keys that identify a machine; every
// other key goes to Run.Extra.
var machineKeys = map[string]bool{
	"cpu": true, "cpuinfo-id": true, "cpu-features": true, "go": true, "goos": true, "goarch": true, "commit": true,
	"quiver-backends": true, "quiver-active": true, "quiver-float-policies": true, "pkg": true,
}

// Read adds the results in r (named name in error messages) to s. Lines
// that are not benchmark results or configuration are skipped, as
// benchstat skips them; a malformed result line is an error, because a
// ledger built from a silently truncated file would be wrong.
//
// Benchmarks that failed (a "--- FAIL: Benchmark..." line, as when a
// result disagrees with the strict reference) are collected in
// s.Failures, so that the ledger can say which numbers are missing and why.
func (s *Set) Read(r io.Reader, name string) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	var failures []string
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "--- FAIL: "); ok && strings.HasPrefix(rest, "Benchmark") {
			fields := strings.Fields(rest)
			if !slices.Contains(failures, fields[0]) {
				failures = append(failures, fields[0])
			}
			if !slices.Contains(s.Failures, fields[0]) {
				s.Failures = append(s.Failures, fields[0])
			}
		}
	}
	var touched []*Run
	br := benchfmt.NewReader(bytes.NewReader(raw), name)
	for br.Scan() {
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			return rec
		case *benchfmt.Result:
			run, err := s.add(rec)
			if err != nil {
				file, line := rec.Pos()
				return fmt.Errorf("%s:%d: %v", file, line, err)
			}
			if run != nil && !slices.Contains(touched, run) {
				touched = append(touched, run)
			}
		}
	}
	// A failure line names no machine: it belongs to the runs of its file.
	for _, r := range touched {
		for _, f := range failures {
			if !slices.Contains(r.Failures, f) {
				r.Failures = append(r.Failures, f)
			}
		}
	}
	return br.Err()
}

// add files one result under its machine and configuration and returns
// the machine's run (nil for a result outside the ledger's scheme).
func (s *Set) add(res *benchfmt.Result) (*Run, error) {
	cfg, impl, ok, err := ParseName(res.Name.String())
	if err != nil || !ok {
		return nil, err
	}
	ns, ok := nsPerOp(res)
	if !ok {
		return nil, fmt.Errorf("%s: no time per operation", res.Name)
	}
	m := Machine{
		CPU:      strings.TrimSpace(res.GetConfig("cpu")),
		CPUID:    strings.TrimSpace(res.GetConfig("cpuinfo-id")),
		Features: res.GetConfig("cpu-features"),
		Go:       res.GetConfig("go"),
		GOOS:     res.GetConfig("goos"),
		GOARCH:   res.GetConfig("goarch"),
		Commit:   res.GetConfig("commit"),
	}
	run := s.run(m)
	if b := res.GetConfig("quiver-backends"); b != "" {
		run.Backends = strings.Fields(b)
	}
	if a := res.GetConfig("quiver-active"); a != "" {
		run.Active = a
	}
	for _, f := range strings.Fields(res.GetConfig("quiver-float-policies")) {
		if name, pol, ok := strings.Cut(f, "="); ok {
			run.Policies[name] = pol
		}
	}
	for _, c := range res.Config {
		if !machineKeys[c.Key] {
			run.Extra[c.Key] = string(c.Value)
		}
	}
	byImpl := run.Samples[cfg]
	if byImpl == nil {
		byImpl = map[string][]float64{}
		run.Samples[cfg] = byImpl
	}
	byImpl[impl] = append(byImpl[impl], ns)
	return run, nil
}

// run returns the Run of machine m, creating it on first sight.
func (s *Set) run(m Machine) *Run {
	for _, r := range s.Runs {
		if r.Machine == m {
			return r
		}
	}
	r := &Run{Machine: m, Extra: map[string]string{}, Policies: map[string]string{}, Samples: map[Config]map[string][]float64{}}
	s.Runs = append(s.Runs, r)
	return r
}

// nsPerOp returns a result's time per operation in nanoseconds. benchfmt
// reports ns/op as sec/op; both spellings are accepted.
func nsPerOp(res *benchfmt.Result) (float64, bool) {
	for _, v := range res.Values {
		switch v.Unit {
		case "sec/op":
			return v.Value * 1e9, true
		case "ns/op":
			return v.Value, true
		}
	}
	return 0, false
}

// ParseName splits a full benchmark name into its configuration and
// implementation. ok is false for a name that is not in the ledger's
// scheme (another benchmark); err is set for a name that is in the scheme
// but malformed (a non-numeric n, say), which should not pass silently.
func ParseName(full string) (cfg Config, impl string, ok bool, err error) {
	full = strings.TrimPrefix(full, "Benchmark")
	// The -GOMAXPROCS suffix that go test appends to every name.
	if i := strings.LastIndexByte(full, '-'); i >= 0 {
		if _, e := strconv.Atoi(full[i+1:]); e == nil {
			full = full[:i]
		}
	}
	parts := strings.Split(full, "/")
	keys := []string{"type", "n", "nulls", "impl"}
	switch len(parts) {
	case 5:
	case 6:
		keys = []string{"type", "n", "nulls", "sel", "impl"}
	default:
		return cfg, "", false, nil
	}
	cfg.Op = parts[0]
	vals := make([]string, len(keys))
	for i, k := range keys {
		v, found := strings.CutPrefix(parts[i+1], k+"=")
		if !found {
			return Config{}, "", false, nil
		}
		if v == "" {
			return Config{}, "", false, fmt.Errorf("benchmark %s: empty %s", full, k)
		}
		vals[i] = v
	}
	if len(keys) == 5 {
		cfg.Sel = vals[3]
		vals = slices.Delete(vals, 3, 4)
	}
	cfg.Type, impl = vals[0], vals[3]
	if cfg.N, err = strconv.Atoi(vals[1]); err != nil || cfg.N < 0 {
		return Config{}, "", false, fmt.Errorf("benchmark %s: bad n %q", full, vals[1])
	}
	if cfg.Nulls, err = strconv.Atoi(vals[2]); err != nil || cfg.Nulls < 0 || cfg.Nulls > 100 {
		return Config{}, "", false, fmt.Errorf("benchmark %s: bad null percentage %q", full, vals[2])
	}
	return cfg, impl, true, nil
}

// Median is the median time of impl in configuration c, NaN if unmeasured.
func (r *Run) Median(c Config, impl string) float64 {
	return Median(r.Samples[c][impl])
}

// Configs returns every measured configuration in a stable reading order:
// by operation (Sum, SumChecked, Min, Max, MinMax, Summary, CountValid,
// SumState, IntSumState, SummaryState, then others by name), type (float64, float32, then integers wide to
// narrow), n, null percentage, selection (none first).
func (r *Run) Configs() []Config {
	out := make([]Config, 0, len(r.Samples))
	for c := range r.Samples {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Config) int {
		if d := rank(opOrder, a.Op) - rank(opOrder, b.Op); d != 0 {
			return d
		}
		if a.Op != b.Op {
			return strings.Compare(a.Op, b.Op)
		}
		if d := rank(typeOrder, a.Type) - rank(typeOrder, b.Type); d != 0 {
			return d
		}
		if a.Type != b.Type {
			return strings.Compare(a.Type, b.Type)
		}
		if a.N != b.N {
			return a.N - b.N
		}
		if a.Nulls != b.Nulls {
			return a.Nulls - b.Nulls
		}
		if d := rank(selOrder, a.Sel) - rank(selOrder, b.Sel); d != 0 {
			return d
		}
		return strings.Compare(a.Sel, b.Sel)
	})
	return out
}

var (
	opOrder   = []string{"Sum", "SumChecked", "Min", "Max", "MinMax", "Summary", "CountValid", "SumState", "IntSumState", "SummaryState"}
	selOrder  = []string{"", "sorted10", "sorted50", "random10"}
	typeOrder = []string{"float64", "float32", "int64", "int32", "int16", "int8", "uint64", "uint32", "uint16", "uint8"}
)

// rank is the position of s in order, or len(order) for the unlisted.
func rank(order []string, s string) int {
	if i := slices.Index(order, s); i >= 0 {
		return i
	}
	return len(order)
}

// finite reports whether x is a usable number (not NaN or infinite).
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
