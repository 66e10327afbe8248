package ledger

import (
	"slices"
	"strconv"
	"strings"
)

// Roles of the implementations the benchmarks run.
const (
	// Strict is quiver's scalar backend: the reference, the strict left
	// fold for float sums, the path -tags purego builds. Every "vs strict"
	// ratio divides its time.
	Strict = "scalar"
	// Loop is the plain Go loop a user writes by hand: `s += v`, `if v < m`,
	// and with a bitmap, a test of one bit per element.
	Loop = "loop"
	// Call is the baseline of the State part: one call of the state's
	// reduction (Sum, SumChecked, Summarize) over the whole input, on
	// the dispatched backend.
	Call = "call"
)

// Peers are the libraries a Go user would otherwise pick, in the ledger's
// column order. An implementation that is neither a peer, Loop, Strict
// nor one of the State part's (IsStateImpl) is one of quiver's SIMD or
// portable backends.
var Peers = []string{"gonum", "vek", "arrow", "slices"}

// IsPeer reports whether impl is a peer library.
func IsPeer(impl string) bool {
	for _, p := range Peers {
		if p == impl {
			return true
		}
	}
	return false
}

// IsBackend reports whether impl is one of quiver's backends.
func IsBackend(impl string) bool {
	return impl != Loop && !IsPeer(impl) && !IsStateImpl(impl) && !IsReference(impl)
}

// IsReference reports whether impl is another quiver operation measured
// as a reference point in a configuration, named "<op>-<backend>": Sum on
// a backend in the SumReproducible configurations ("sum-avx512"). A
// reference is neither a backend nor a peer: hypotheses may name it as a
// baseline, and the tables leave it out.
func IsReference(impl string) bool { return strings.HasPrefix(impl, "sum-") }

// IsStateImpl reports whether impl is one of the State part's ways of
// computing a reduction: Call, "batches<k>" (the state fed k elements per
// Add), "workers<k>" (AddParallel with k workers) or "chunks<k>" (an Arrow
// chunked column of k-row chunks). Such names must not
// be taken for backends, whose names are free.
func IsStateImpl(impl string) bool {
	if impl == Call {
		return true
	}
	_, ok := stateImplArg(impl)
	return ok
}

// stateImplArg is the k of "batches<k>", "workers<k>" or "chunks<k>".
func stateImplArg(impl string) (int, bool) {
	for _, prefix := range []string{"batches", "workers", "chunks"} {
		if rest, ok := strings.CutPrefix(impl, prefix); ok {
			k, err := strconv.Atoi(rest)
			return k, err == nil && k >= 0 && rest == strconv.Itoa(k)
		}
	}
	return 0, false
}

// Note says how an alternative to quiver computes something different
// from quiver's contract in configuration c on machine m, for the ledger to
// print next to its number. Comparable is false when the difference shows
// on the benchmark's own input (a peer that adds the values under nulls
// computes another number); such a peer is shown but never counts as the
// best peer. Differences that the NaN-free, non-empty, zero-free benchmark
// input cannot show (NaN rules, panics on empty, another summation order)
// keep it comparable: on this input it does the same work.
//
// Text is a list of claims separated by "; ". Every claim is checked
// against the peer itself by TestPeerNotes in the benchmark package, so a
// peer upgrade that changes a behaviour fails a test instead of leaving a
// wrong footnote. Some depend on the machine: gonum and vek have assembly
// only for amd64 (vek only with AVX2 and FMA), Arrow for amd64 and arm64;
// elsewhere they run a plain Go loop.
type Note struct {
	Text       string
	Comparable bool
}

// Claims of the notes, shared with the tests that check them.
const (
	ClaimStrictFold     = "strict left fold"
	ClaimBitLoop        = "tests one bitmap bit per element"
	ClaimFirstNaN       = "`if v < m` from x[0]: a NaN is kept only in first place"
	ClaimAlignment      = "reassociates: SSE2, 4×2 lanes, order depends on alignment"
	ClaimReassociates   = "reassociates (SIMD accumulators)"
	ClaimSkipsNaN       = "skips NaN"
	ClaimDropsNaN       = "may drop a NaN (vector min/max operand order)"
	ClaimEmptyPanics    = "panics on empty"
	ClaimTwoPasses      = "two passes (Min, Max)"
	ClaimIgnoresNulls   = "ignores validity: adds the values under nulls"
	ClaimNonCanonical   = "a NaN gives a non-canonical NaN"
	ClaimNegZeroFirst   = "-0.0 < +0.0"
	ClaimStrictPortable = "strict left fold (portable Go)"
)

// NoteFor returns the note of impl in configuration c on machine m; the
// zero Note (empty text, comparable) means it computes what quiver's
// contract says.
func NoteFor(impl string, c Config, m Machine) Note {
	masked := c.Nulls > 0
	float := c.Type == "float64" || c.Type == "float32"
	var claims []string
	if c.Op == "MinMax" || c.Op == "Summary" {
		if IsPeer(impl) {
			claims = append(claims, ClaimTwoPasses)
		}
	}
	comparable := true
	switch impl {
	case Loop:
		switch {
		case masked:
			claims = append(claims, ClaimBitLoop)
		case isSum(c.Op) && float:
			claims = append(claims, ClaimStrictFold+", the scalar order")
		case !isSum(c.Op) && float:
			claims = append(claims, ClaimFirstNaN)
		}
	case "gonum":
		switch {
		case c.Op == "Sum" && m.GOARCH == "amd64":
			claims = append(claims, ClaimAlignment)
		case c.Op == "Sum":
			claims = append(claims, ClaimStrictPortable)
		default:
			claims = append(claims, ClaimSkipsNaN, ClaimEmptyPanics)
		}
	case "vek":
		accelerated := m.GOARCH == "amd64" && m.GOOS != "darwin" && hasFeature(m, "avx2") && hasFeature(m, "fma")
		switch {
		case c.Op == "Sum" && accelerated:
			claims = append(claims, ClaimReassociates)
		case c.Op == "Sum":
			claims = append(claims, ClaimStrictPortable)
		case accelerated:
			claims = append(claims, ClaimDropsNaN, ClaimEmptyPanics)
		default:
			claims = append(claims, ClaimFirstNaN, ClaimEmptyPanics)
		}
	case "arrow":
		switch {
		case masked:
			claims = append(claims, ClaimIgnoresNulls)
			comparable = false
		case float && (m.GOARCH == "amd64" || m.GOARCH == "arm64"):
			claims = append(claims, ClaimReassociates)
		case float:
			claims = append(claims, ClaimStrictPortable)
		}
	case "slices":
		if float {
			claims = append(claims, ClaimNonCanonical, ClaimNegZeroFirst)
		}
		claims = append(claims, ClaimEmptyPanics)
	}
	return Note{Text: strings.Join(claims, "; "), Comparable: comparable}
}

// isSum reports whether op is a float sum whose plain loop is `s += v`:
// Sum, and SumReproducible, whose baseline is the same loop.
func isSum(op string) bool { return op == "Sum" || op == "SumReproducible" }

// hasFeature reports whether m's cpu-features line lists f.
func hasFeature(m Machine, f string) bool {
	return slices.Contains(strings.Fields(m.Features), f)
}
