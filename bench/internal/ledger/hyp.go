package ledger

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A Hypothesis is a target registered in a benchmark file before any
// number was measured: in configuration Config, Impl is at least Min
// times as fast as Baseline. Baseline is an implementation name or
// BestPeer.
type Hypothesis struct {
	ID       string
	Config   Config
	Impl     string
	Baseline string
	Min      float64
	Why      string // the rest of the line, free text
	Source   string // file that registered it
}

// BestPeer as a baseline means the fastest comparable alternative to
// quiver in that configuration (see Analysis.BestPeer).
const BestPeer = "best-peer"

// hypLine is the registration syntax, inside a // comment:
//
//	H1: Sum float64 n=4096 nulls=0%: avx512 >= 17x scalar   AVX-512 vs the strict loop
//	H60: Sum int64 n=65536 nulls=0% sel=sorted10: avx512 >= 1.5x loop
//
// with the selection (Config.Sel) optional.
var hypLine = regexp.MustCompile(`^\s*//\s*(H[0-9]+[a-z]?):\s+(\w+)\s+(\w+)\s+n=([0-9]+)\s+nulls=([0-9]+)%(?:\s+sel=(\w+))?:\s+([\w-]+)\s+>=\s+([0-9.]+)x\s+([\w-]+)\s*(.*)$`)

// hypPrefix recognises a line meant as a registration, so that a typo in
// one is reported instead of silently unregistering the hypothesis.
var hypPrefix = regexp.MustCompile(`^\s*//\s*H[0-9]+[a-z]?:`)

// ParseHypotheses reads the registrations in a Go source file. A comment
// line that starts like a registration but does not parse is an error.
func ParseHypotheses(r io.Reader, source string) ([]Hypothesis, error) {
	var out []Hypothesis
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if !hypPrefix.MatchString(text) {
			continue
		}
		m := hypLine.FindStringSubmatch(text)
		if m == nil {
			return nil, fmt.Errorf("%s:%d: malformed hypothesis %q", source, line, strings.TrimSpace(text))
		}
		n, _ := strconv.Atoi(m[4])
		nulls, _ := strconv.Atoi(m[5])
		ratio, err := strconv.ParseFloat(m[8], 64)
		if err != nil || ratio <= 0 {
			return nil, fmt.Errorf("%s:%d: bad ratio %q", source, line, m[8])
		}
		out = append(out, Hypothesis{
			ID:       m[1],
			Config:   Config{Op: m[2], Type: m[3], N: n, Nulls: nulls, Sel: m[6]},
			Impl:     m[7],
			Min:      ratio,
			Baseline: m[9],
			Why:      strings.TrimSpace(m[10]),
			Source:   source,
		})
	}
	return out, sc.Err()
}

// SortHypotheses orders hs by the number in their IDs (H2 before H10),
// whatever order the files were read in.
func SortHypotheses(hs []Hypothesis) {
	num := func(id string) int {
		n, _ := strconv.Atoi(strings.TrimRight(strings.TrimPrefix(id, "H"), "abcdefghijklmnopqrstuvwxyz"))
		return n
	}
	slices.SortStableFunc(hs, func(a, b Hypothesis) int {
		if d := num(a.ID) - num(b.ID); d != 0 {
			return d
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// Verdict is the outcome of one hypothesis on one machine.
type Verdict struct {
	Hypothesis
	Measured       bool
	Ratio          float64 // baseline time / impl time
	ImplNs, BaseNs float64
	BaseName       string // the baseline actually used (the best peer's name)
	Held           bool
}

// Check evaluates h against the run's medians.
func (a *Analysis) Check(h Hypothesis) Verdict {
	v := Verdict{Hypothesis: h, BaseName: h.Baseline}
	v.ImplNs = a.Run.Median(h.Config, h.Impl)
	if h.Baseline == BestPeer {
		v.BaseName, v.BaseNs = a.BestPeer(h.Config)
	} else {
		v.BaseNs = a.Run.Median(h.Config, h.Baseline)
	}
	v.Ratio = Speedup(v.BaseNs, v.ImplNs)
	v.Measured = finite(v.Ratio)
	v.Held = v.Measured && v.Ratio >= h.Min
	return v
}
