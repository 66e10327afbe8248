package bench

// Pre-registered hypotheses for the call shapes a loop-replacing user
// meets outside the large dense and masked inputs above: short inputs
// (a group-by with small groups, a window, a per-row call) and selection
// vectors (what a vectorized filter hands to the next operator). Written
// on 2026-11-30 before any of these configurations was measured; ratios
// are the plain loop's time over quiver's in the same run, on the
// dispatched backend. The targets: at n = 1 at most 2x the loop's time
// (ratio >= 0.5), at n = 8 and 16 at most 1.25x (>= 0.8), from n = 32 on
// never slower (>= 1.0); over a selection never slower than the loop, and
// 1.5x faster for int64 SumInt and float64 Min over a sorted 10%
// selection of n = 65536. "sel=sorted10" selects 10% of the rows in
// ascending order, "sorted50" half of them, "random10" 10% in random
// order. The float Sum over a selection is the strict fold in selection
// order, latency-bound like the loop, hence parity.
//
//	H40: Sum float64 n=1 nulls=0%: avx512 >= 0.5x loop            fixed cost of a call on one element
//	H41: Sum float64 n=8 nulls=0%: avx512 >= 0.8x loop
//	H42: Sum float64 n=16 nulls=0%: avx512 >= 0.8x loop
//	H43: Sum float64 n=32 nulls=0%: avx512 >= 1.0x loop            one AVX-512 block
//	H44: Sum int64 n=1 nulls=0%: avx512 >= 0.5x loop
//	H45: Sum int64 n=8 nulls=0%: avx512 >= 0.8x loop
//	H46: Sum int64 n=16 nulls=0%: avx512 >= 0.8x loop
//	H47: Sum int64 n=32 nulls=0%: avx512 >= 1.0x loop
//	H48: Min float64 n=1 nulls=0%: avx512 >= 0.5x loop
//	H49: Min float64 n=8 nulls=0%: avx512 >= 0.8x loop
//	H50: Min float64 n=16 nulls=0%: avx512 >= 0.8x loop
//	H51: Min float64 n=32 nulls=0%: avx512 >= 1.0x loop
//	H52: Summary float64 n=1 nulls=0%: avx512 >= 0.5x loop
//	H53: Summary float64 n=8 nulls=0%: avx512 >= 0.8x loop
//	H54: Summary float64 n=16 nulls=0%: avx512 >= 0.8x loop
//	H55: Summary float64 n=32 nulls=0%: avx512 >= 1.0x loop
//	H56: Sum float64 n=8 nulls=10%: avx512 >= 0.8x loop           the masked short form
//	H57: Sum int64 n=64 nulls=10%: avx512 >= 1.0x loop
//	H58: SumChecked int64 n=8 nulls=0%: avx512 >= 0.8x loop
//	H59: CountValid uint8 n=16 nulls=10%: avx512 >= 0.8x loop
//
//	H60: Sum int64 n=65536 nulls=0% sel=sorted10: avx512 >= 1.5x loop     registered for gathers; since H369-H371 the Go loop with four accumulators
//	H61: Min float64 n=65536 nulls=0% sel=sorted10: avx512 >= 1.5x loop
//	H62: Sum float64 n=65536 nulls=0% sel=sorted10: avx512 >= 1.0x loop   strict fold: parity
//	H63: Min int64 n=65536 nulls=0% sel=sorted10: avx512 >= 1.0x loop
//	H64: Summary float64 n=65536 nulls=0% sel=sorted10: avx512 >= 1.0x loop
//	H65: Sum int64 n=65536 nulls=0% sel=sorted50: avx512 >= 1.0x loop
//	H66: Sum int64 n=65536 nulls=0% sel=random10: avx512 >= 1.0x loop
//	H67: Sum int64 n=65536 nulls=10% sel=sorted10: avx512 >= 1.0x loop    selection and validity
//	H68: Min float64 n=65536 nulls=10% sel=sorted10: avx512 >= 1.0x loop
//	H69: Sum uint8 n=65536 nulls=0% sel=sorted10: avx512 >= 1.0x loop
//
// Registered on 2026-11-30 after development runs of the changes they
// test (one validity word per short masked call, strict two-chain float
// extremes, the short-bitmap copy of the kernels, split-half selected
// exact sums, gathers for ascending selections only), before the ledger
// run that measures them:
//
//	H113: Min float64 n=16 nulls=10%: avx512 >= 0.8x loop           one validity word, two strict chains
//	H114: Max float64 n=32 nulls=0%: avx512 >= 1.0x loop            two strict chains instead of the builtins
//	H115: Sum float64 n=32 nulls=10%: avx512 >= 1.0x loop           a 4-byte bitmap, copied with one store
//	H116: Summary float64 n=32 nulls=10%: avx512 >= 1.0x loop
//	H117: SumChecked int64 n=65536 nulls=10% sel=sorted10: avx512 >= 1.0x loop   split halves, no carry chain
//	H118: SumChecked int64 n=65536 nulls=0% sel=sorted50: avx512 >= 1.0x loop    index checked in the summing loop
//	H119: Sum int64 n=65536 nulls=0% sel=random10: avx512 >= 1.0x loop           no gathers in random order
//	H120: Sum int64 n=65536 nulls=0% sel=sorted50: avx512 >= 1.0x loop           no gathers for a crowded selection
//
// Registered on 2026-11-30 after development runs of the changes they
// test (the SIMD kernel for masked wide-integer and checked sums from 32
// elements; selected min, max and summaries that check their indices in
// the loop and take one rare branch per entry), before the ledger run
// that measures them:
//
//	H124: Sum int64 n=32 nulls=10%: avx512 >= 1.2x loop                     the kernel from 32 wide elements
//	H125: SumChecked int64 n=32 nulls=10%: avx512 >= 1.2x loop
//	H126: SumChecked int64 n=32 nulls=0%: avx512 >= 1.1x loop
//	H127: Summary float64 n=65536 nulls=0% sel=sorted10: generic >= 0.95x loop   portable selection loop, one rare branch an entry
//	H128: Min int64 n=65536 nulls=0% sel=sorted10: generic >= 0.95x loop         the index check in the loop, not a pass of its own
//	H129: Sum float64 n=65536 nulls=10% sel=random10: avx512 >= 1.0x loop       the validity bit through BT

import (
	"math"
	"testing"

	"github.com/quiverlabs/quiver"
)

// The call shapes' matrices. Short inputs: n from 1 to 128, dense and
// with 10% nulls; -quick keeps n=8. Selections: n = 65536, each kind,
// dense and with 10% nulls; -quick keeps sorted10.
var (
	shortSizes = []int{1, 4, 8, 16, 32, 64, 128}
	selSize    = 65536
	shapeNulls = []int{0, 10}
)

func shortMatrix(m mode) []shape {
	switch m {
	case quickMode:
		return grid([]int{8}, shapeNulls, []string{""})
	case testShort:
		return grid([]int{1, 8, 33, 128}, shapeNulls, []string{""})
	}
	return grid(shortSizes, shapeNulls, []string{""})
}

// shortMaskedMatrix is shortMatrix with nulls only: CountValid without a
// bitmap returns n and reads nothing.
func shortMaskedMatrix(m mode) []shape {
	var out []shape
	for _, sh := range shortMatrix(m) {
		if sh.nulls > 0 {
			out = append(out, sh)
		}
	}
	return out
}

func selMatrix(m mode) []shape {
	if m == quickMode {
		return grid([]int{selSize}, shapeNulls, []string{"sorted10"})
	}
	return grid([]int{selSize}, shapeNulls, selKinds[1:])
}

// The short-input and selection suites. Their alternatives are the plain
// loop only (the peers take no selection and, at a few elements, would
// measure their own call overhead). To keep the ledger run near 15
// minutes, Max and MinMax run short inputs on float64 only (Min covers
// int64).
var (
	shortSumSuites = []suite{
		newSuiteOver("Sum", shortMatrix, shapeSumImpls[float64], closeSum[float64]),
		newSuiteOver("Sum", shortMatrix, shapeSumImpls[int64], exactCheck[int64]),
		newSuiteOver("Sum", shortMatrix, shapeSumImpls[uint8], exactCheck[uint8]),
	}
	selSumSuites = []suite{
		newSuiteOver("Sum", selMatrix, shapeSumImpls[float64], closeSum[float64]),
		newSuiteOver("Sum", selMatrix, shapeSumImpls[int64], exactCheck[int64]),
		newSuiteOver("Sum", selMatrix, shapeSumImpls[int32], exactCheck[int32]),
		newSuiteOver("Sum", selMatrix, shapeSumImpls[uint8], exactCheck[uint8]),
	}
	shortExtremeSuites = map[string][]suite{
		"Min": {
			newSuiteOver("Min", shortMatrix, shapeExtremeImpls[float64](onlyMin), exactCheck[float64]),
			newSuiteOver("Min", shortMatrix, shapeExtremeImpls[int64](onlyMin), exactCheck[int64]),
		},
		"Max":    {newSuiteOver("Max", shortMatrix, shapeExtremeImpls[float64](onlyMax), exactCheck[float64])},
		"MinMax": {newSuiteOver("MinMax", shortMatrix, shapeExtremeImpls[float64](both), exactCheck[float64])},
	}
	selExtremeSuites = map[string][]suite{
		"Min": {
			newSuiteOver("Min", selMatrix, shapeExtremeImpls[float64](onlyMin), exactCheck[float64]),
			newSuiteOver("Min", selMatrix, shapeExtremeImpls[int64](onlyMin), exactCheck[int64]),
		},
		"Max": {
			newSuiteOver("Max", selMatrix, shapeExtremeImpls[float64](onlyMax), exactCheck[float64]),
			newSuiteOver("Max", selMatrix, shapeExtremeImpls[int64](onlyMax), exactCheck[int64]),
		},
	}
	shapeSummarySuites = []suite{
		newSuiteOver("Summary", shortMatrix, shapeSummaryImpls[float64], exactCheck[float64]),
		newSuiteOver("Summary", shortMatrix, shapeSummaryImpls[int64], exactCheck[int64]),
		newSuiteOver("Summary", selMatrix, shapeSummaryImpls[float64], exactCheck[float64]),
		newSuiteOver("Summary", selMatrix, shapeSummaryImpls[int64], exactCheck[int64]),
	}
	sumCheckedSuites = []suite{
		newSuiteOver("SumChecked", shortMatrix, sumCheckedImpls, exactCheck[int64]),
		newSuiteOver("SumChecked", selMatrix, sumCheckedImpls, exactCheck[int64]),
	}
	countValidSuites = []suite{
		newSuiteOver("CountValid", shortMaskedMatrix, countValidImpls, exactCheck[uint8]),
		newSuiteOver("CountValid", selMatrix, countValidImpls, exactCheck[uint8]),
	}
)

func BenchmarkSumChecked(b *testing.B) { runSuites(b, sumCheckedSuites) }
func BenchmarkCountValid(b *testing.B) { runSuites(b, countValidSuites) }

// loopOnly keeps the plain loop among alts.
func loopOnly(alts []impl) []impl {
	for _, a := range alts {
		if a.name == "loop" {
			return []impl{a}
		}
	}
	return nil
}

// shapeSumImpls is sumImpls with the loop as the only alternative, and
// over a selection quiver.Sum/SumInt/SumUint with the selection Mask
// against the loop over the selection.
func shapeSumImpls[T number](in *input[T]) (func() res, []impl) {
	if in.sel == nil {
		q, alts := sumImpls(in)
		return q, loopOnly(alts)
	}
	ms, bm, sel := in.masks, in.bits, in.sel
	var q, loop func() res
	switch x := any(in.x).(type) {
	case []float64:
		q = func() res { return res{math.Float64bits(quiver.Sum(x, ms...))} }
		loop = func() res { return res{math.Float64bits(selSumFloat(x, sel, bm))} }
	case []int64:
		q = func() res { return res{uint64(quiver.SumInt(x, ms...))} }
		loop = func() res { return res{uint64(selSumSigned(x, sel, bm))} }
	case []int32:
		q = func() res { return res{uint64(quiver.SumInt(x, ms...))} }
		loop = func() res { return res{uint64(selSumSigned(x, sel, bm))} }
	case []uint8:
		q = func() res { return res{quiver.SumUint(x, ms...)} }
		loop = func() res { return res{selSumUnsigned(x, sel, bm)} }
	default:
		panic("shapeSumImpls: unexpected element type " + typeName[T]())
	}
	return q, []impl{{name: "loop", run: loop}}
}

// shapeExtremeImpls is extremeImpls with the loop as the only
// alternative, over a selection too.
func shapeExtremeImpls[T number](e extremes) builder[T] {
	return func(in *input[T]) (func() res, []impl) {
		if in.sel == nil {
			q, alts := extremeImpls[T](e)(in)
			return q, loopOnly(alts)
		}
		x, ms, bm, sel := in.x, in.masks, in.bits, in.sel
		lo0, hi0 := quiver.Min([]T{}), quiver.Max([]T{})
		var q, loop func() res
		switch e {
		case onlyMin:
			q = func() res { return res{bitsOf(quiver.Min(x, ms...))} }
			loop = func() res { return res{bitsOf(selMin(x, sel, bm, lo0))} }
		case onlyMax:
			q = func() res { return res{bitsOf(quiver.Max(x, ms...))} }
			loop = func() res { return res{bitsOf(selMax(x, sel, bm, hi0))} }
		default:
			panic("shapeExtremeImpls: MinMax has no selection suite")
		}
		return q, []impl{{name: "loop", run: loop}}
	}
}

// shapeSummaryImpls is summaryImpls with the loop as the only
// alternative, over a selection too.
func shapeSummaryImpls[T number](in *input[T]) (func() res, []impl) {
	if in.sel == nil {
		q, alts := summaryImpls(in)
		return q, loopOnly(alts)
	}
	x, ms, bm, sel := in.x, in.masks, in.bits, in.sel
	lo0, hi0 := quiver.Min([]T{}), quiver.Max([]T{})
	q := func() res {
		s := quiver.Summarize(x, ms...)
		return res{bitsOf(s.Min), bitsOf(s.Max), uint64(s.Count)}
	}
	loop := func() res {
		lo, hi, c := selSummary(x, sel, bm, lo0, hi0)
		return res{bitsOf(lo), bitsOf(hi), uint64(c)}
	}
	return q, []impl{{name: "loop", run: loop}}
}

// sumCheckedImpls is quiver.SumChecked on int64 against the loop a user
// writes for an exact sum: a 128-bit accumulator with math/bits.Add64,
// overflow when the high word is not the sign of the low one. The
// input's values span int64, so the sums overflow; the flag is compared.
func sumCheckedImpls(in *input[int64]) (func() res, []impl) {
	x, ms, bm, sel := in.x, in.masks, in.bits, in.sel
	q := func() res {
		s := quiver.SumChecked(x, ms...)
		return res{uint64(s.Sum), b2u(s.Overflowed)}
	}
	loop := func() res { s, o := loopSumChecked(x, bm); return res{uint64(s), b2u(o)} }
	if sel != nil {
		loop = func() res { s, o := selSumChecked(x, sel, bm); return res{uint64(s), b2u(o)} }
	}
	return q, []impl{{name: "loop", run: loop}}
}

// countValidImpls is quiver.CountValid over the input's bitmap (and
// selection) against a loop that tests one bit at a time (over a
// selection without a bitmap: that checks every index). The elements
// are not read; the type column says uint8, the bitmap's bytes.
func countValidImpls(in *input[uint8]) (func() res, []impl) {
	n, ms, bm, sel := in.n, in.masks, in.bits, in.sel
	q := func() res { return res{uint64(quiver.CountValid(n, ms...))} }
	loop := func() res { return res{uint64(loopCountValid(bm, n))} }
	if sel != nil {
		loop = func() res { return res{uint64(selCountValid(sel, bm, n))} }
	}
	return q, []impl{{name: "loop", run: loop}}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
