package bench

// Pre-registered hypotheses for Summarize (min, max and valid count in one
// pass), written before any number was measured (targets from the
// project's issue; ratios are baseline time over quiver time in the same
// run). The masked baseline is the loop a Go user writes: per element a
// bitmap bit test and branch, then two compares. At 50% nulls that branch
// is unpredictable, hence the higher target. At n=1048576 the target is
// parity with the best peer.
//
//	H30: Summary float64 n=65536 nulls=10%: avx512 >= 20x loop
//	H31: Summary float64 n=65536 nulls=50%: avx512 >= 40x loop
//	H32: Summary float64 n=1048576 nulls=0%: avx512 >= 0.95x best-peer

import (
	"slices"
	"testing"

	"github.com/quiverlabs/quiver"
)

func BenchmarkSummary(b *testing.B) { runSuites(b, slices.Concat(summarySuites, shapeSummarySuites)) }

var summarySuites = []suite{
	newSuite("Summary", summaryImpls[float64], exactCheck[float64]),
	newSuite("Summary", summaryImpls[float32], exactCheck[float32]),
	newSuite("Summary", summaryImpls[int64], exactCheck[int64]),
	newSuite("Summary", summaryImpls[int32], exactCheck[int32]),
	newSuite("Summary", summaryImpls[uint8], exactCheck[uint8]),
}

// summaryImpls returns quiver's Summarize and the alternatives: the
// one-pass loop and, on dense input, each peer's Min and Max as two passes
// (no peer has a fused summary; the count of a dense input is its length).
func summaryImpls[T number](in *input[T]) (func() res, []impl) {
	x, ms, bm := in.x, in.masks, in.bits
	lo0, hi0 := quiver.Min([]T{}), quiver.Max([]T{})
	q := func() res {
		s := quiver.Summarize(x, ms...)
		return res{bitsOf(s.Min), bitsOf(s.Max), uint64(s.Count)}
	}
	alts := []impl{{name: "loop", run: func() res {
		lo, hi, c := loopSummary(x, bm, lo0, hi0)
		return res{bitsOf(lo), bitsOf(hi), uint64(c)}
	}}}
	if bm != nil {
		return q, alts
	}
	peersOf(func(name string, minf, maxf func([]T) T) {
		alts = append(alts, impl{name: name, run: func() res {
			lo, hi := twoPass(minf, maxf, x)
			return res{bitsOf(lo), bitsOf(hi), uint64(len(x))}
		}})
	})
	return q, alts
}
