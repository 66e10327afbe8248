// Command abratio summarizes an A/B run of two benchmark binaries that
// took turns: for each benchmark, the median time of each binary, the
// median of the per-pass ratios (new over old), and the ratio of the
// fastest samples.
//
// Usage, from the bench directory:
//
//	go run ./cmd/abratio [-old label] [-new label] [-match regexp] raw.txt
//
// The input is what bench/avx2only.sh writes: a line "# pass P bin LABEL"
// before each binary's output in each pass, and each benchmark line
// prefixed with its binary's label ("LABEL BenchmarkX-2  100  12.5 ns/op").
// With one label in the file (a run without a base), it prints the median
// and fastest time of each benchmark.
//
// Why per-pass ratios: on a shared machine a slow minute slows both
// binaries of a pass, so the ratio within a pass is steadier than the
// ratio of two medians taken over different minutes. A ratio below 1
// means the new binary is faster.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "abratio:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	flags := flag.NewFlagSet("abratio", flag.ContinueOnError)
	oldLabel := flags.String("old", "old", "label of the base binary")
	newLabel := flags.String("new", "new", "label of the binary under test")
	match := flags.String("match", "", "only benchmarks whose name matches this regexp")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if flags.NArg() != 1 {
		return errors.New("want one raw file")
	}
	re, err := regexp.Compile(*match)
	if err != nil {
		return err
	}
	f, err := os.Open(flags.Arg(0))
	if err != nil {
		return err
	}
	defer f.Close()
	runs, err := parse(f)
	if err != nil {
		return err
	}
	report(stdout, runs, *oldLabel, *newLabel, re)
	return nil
}

// sample is one benchmark result of one binary in one pass.
type sample struct {
	pass int
	ns   float64
}

// runs holds, in order of first appearance, each benchmark's samples by
// binary label.
type runs struct {
	names  []string
	labels map[string]bool
	by     map[string]map[string][]sample
}

// benchLine is "LABEL BenchmarkName[-procs] iterations ns ns/op ...".
var benchLine = regexp.MustCompile(`^(\S+) (Benchmark\S*?)(?:-\d+)?\s+\d+\s+([0-9.e+]+) ns/op`)

func parse(r io.Reader) (*runs, error) {
	rs := &runs{labels: map[string]bool{}, by: map[string]map[string][]sample{}}
	pass := 0
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "# pass "); ok {
			p, _, _ := strings.Cut(rest, " ")
			n, err := strconv.Atoi(p)
			if err != nil {
				return nil, fmt.Errorf("bad pass line %q", line)
			}
			pass = n
			continue
		}
		m := benchLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		ns, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			return nil, fmt.Errorf("bad time in %q", line)
		}
		label, name := m[1], m[2]
		if rs.by[name] == nil {
			rs.by[name] = map[string][]sample{}
			rs.names = append(rs.names, name)
		}
		rs.labels[label] = true
		rs.by[name][label] = append(rs.by[name][label], sample{pass, ns})
	}
	return rs, sc.Err()
}

func report(w io.Writer, rs *runs, oldLabel, newLabel string, re *regexp.Regexp) {
	single := len(rs.labels) == 1
	if single {
		fmt.Fprintf(w, "%-100s %12s %12s %6s\n", "benchmark", "median ns", "fastest ns", "passes")
	} else {
		fmt.Fprintf(w, "%-100s %12s %12s %9s %9s %6s\n", "benchmark", oldLabel+" ns", newLabel+" ns", "ratio", "fastest", "passes")
	}
	var logSum float64
	var count int
	for _, name := range rs.names {
		if !re.MatchString(name) {
			continue
		}
		if single {
			for _, s := range rs.by[name] {
				ns := times(s)
				fmt.Fprintf(w, "%-100s %12.1f %12.1f %6d\n", name, median(ns), slices.Min(ns), len(ns))
			}
			continue
		}
		a, b := rs.by[name][oldLabel], rs.by[name][newLabel]
		if len(a) == 0 || len(b) == 0 {
			continue
		}
		ratios := pairRatios(a, b)
		if len(ratios) == 0 {
			continue
		}
		r := median(ratios)
		logSum += math.Log(r)
		count++
		fmt.Fprintf(w, "%-100s %12.1f %12.1f %9.3f %9.3f %6d\n", name,
			median(times(a)), median(times(b)), r, slices.Min(times(b))/slices.Min(times(a)), len(ratios))
	}
	if count > 0 {
		fmt.Fprintf(w, "geometric mean of the %d median ratios (%s over %s): %.3f\n", count, newLabel, oldLabel, math.Exp(logSum/float64(count)))
	}
}

// pairRatios is b's time over a's for each pass both binaries ran.
func pairRatios(a, b []sample) []float64 {
	byPass := map[int]float64{}
	for _, s := range a {
		byPass[s.pass] = s.ns
	}
	var out []float64
	for _, s := range b {
		if t, ok := byPass[s.pass]; ok && t > 0 {
			out = append(out, s.ns/t)
		}
	}
	return out
}

func times(s []sample) []float64 {
	out := make([]float64, len(s))
	for i, x := range s {
		out[i] = x.ns
	}
	return out
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
