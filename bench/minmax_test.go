package bench

// Pre-registered hypotheses for Min, Max and MinMax, written before any
// number was measured (targets from the project's issue; ratios are
// baseline time over quiver time in the same run). "loop" is the plain
// `if v < m` loop a Go user writes: one compare and a data-dependent
// branch per element, which the SIMD kernels replace with vector min/max
// and the exactness rescues (canonical NaN, first of ±0). At n=1048576 the
// target is parity with the best peer: memory bandwidth bounds everyone.
//
//	H20: Min float64 n=4096 nulls=0%: avx512 >= 12x loop
//	H21: Max float64 n=4096 nulls=0%: avx512 >= 12x loop
//	H22: MinMax float64 n=4096 nulls=0%: avx512 >= 12x loop
//	H23: Min float64 n=1048576 nulls=0%: avx512 >= 0.95x best-peer
//	H24: Max float64 n=1048576 nulls=0%: avx512 >= 0.95x best-peer
//	H25: MinMax float64 n=1048576 nulls=0%: avx512 >= 0.95x best-peer
//
// Registered later (2026-11-30), before the kernels were tuned for them:
// vek uses bare VMINPD/VMAXPD and gets NaN and ±0 wrong; quiver keeps both
// rules and must still not lose to it in L1 and L2.
//
//	H26: Min float64 n=4096 nulls=0%: avx512 >= 1.0x vek
//	H27: Max float64 n=4096 nulls=0%: avx512 >= 1.0x vek
//	H28: Min float64 n=65536 nulls=0%: avx512 >= 1.0x vek
//	H29: Max float64 n=65536 nulls=0%: avx512 >= 1.0x vek
//
// Registered 2026-12-02 on an AMD EPYC family 26 model 2 (Zen 5 class, the
// avx2 backend on an AVX-512 core), before the AVX2 backend got min-only
// and max-only kernels for 64-bit integers. AVX2 has no 64-bit min or
// max, so each extreme costs a compare and a blend a vector, and Min and
// Max of an int64 column ran the fused kernel, both extremes: at n=4096,
// 430-445 ns, level with MinMax (428-432 ns) and 2.7x float64 Min (161 ns;
// BenchmarkOffsets, 3 passes of 50 ms). The fused kernel itself may pair
// vectors first (one compare and two blends sort a pair into a smaller
// and a larger vector, and only those meet the accumulators): 3.5
// instead of 4 operations a vector. Method: the kernels of both commits
// in one test binary, interleaved, fastest of 200 rounds; ratio: time
// after over time before:
//
//	H278 (measured by hand): Min int64 dense n=4096 on avx2: time <= 0.60x before
//	H279 (measured by hand): Max uint64 dense n=4096 on avx2: time <= 0.60x before
//	H280 (measured by hand): Min int64 dense n=65536 on avx2 (from L2): time <= 0.75x before
//	H281 (measured by hand): Min int64 with a bitmap (10% nulls) n=4096 on avx2: time <= 0.80x before
//	H282 (measured by hand): MinMax int64 dense n=4096 on avx2, vectors paired first: time <= 0.90x before
//
// Registered after H278-H282, before measuring: the other integer types'
// min and max are one instruction a vector (VPMINS*/VPMINU*), so their Min
// and Max still run the fused kernel, two instructions a vector. On the
// same Zen 5, in one process, the fused AVX2 int32 kernel took 93-97 ns at
// n=4096 and the AVX-512 one 39-40 ns. Kernels of their own would halve
// the instructions and double the accumulators on AVX2 (eight vectors an
// iteration, as for floats); whether that pays depends on whether the
// instructions or the loads bound the loop. Same method (the fused
// kernel, unchanged, beside the new one in one binary):
//
//	H288 (measured by hand): Min int32 dense n=4096 on avx2, min-only kernel: time <= 0.75x the fused kernel
//	H289 (measured by hand): Min int8 and int16 dense (16384 and 8192 elements) on avx2, min-only kernels: time <= 0.75x the fused kernels
//	H290 (measured by hand): Min int32 dense n=4096 on avx512, min-only kernel: time <= 0.85x the fused kernel

import (
	"slices"
	"testing"

	"github.com/viterin/vek"
	"github.com/viterin/vek/vek32"
	"gonum.org/v1/gonum/floats"

	"github.com/quiverlabs/quiver"
)

// Which of min and max an operation computes.
type extremes int

const (
	onlyMin extremes = iota
	onlyMax
	both
)

func BenchmarkMin(b *testing.B)    { runSuites(b, opSuites("Min", minSuites)) }
func BenchmarkMax(b *testing.B)    { runSuites(b, opSuites("Max", maxSuites)) }
func BenchmarkMinMax(b *testing.B) { runSuites(b, opSuites("MinMax", minMaxSuites)) }

// opSuites is op's main matrix with its short-input and selection suites.
func opSuites(op string, large []suite) []suite {
	return slices.Concat(large, shortExtremeSuites[op], selExtremeSuites[op])
}

var (
	minSuites    = extremeSuites("Min", onlyMin)
	maxSuites    = extremeSuites("Max", onlyMax)
	minMaxSuites = extremeSuites("MinMax", both)
)

func extremeSuites(op string, e extremes) []suite {
	return []suite{
		newSuite(op, extremeImpls[float64](e), exactCheck[float64]),
		newSuite(op, extremeImpls[float32](e), exactCheck[float32]),
		newSuite(op, extremeImpls[int64](e), exactCheck[int64]),
		newSuite(op, extremeImpls[int32](e), exactCheck[int32]),
		newSuite(op, extremeImpls[uint8](e), exactCheck[uint8]),
	}
}

// extremeImpls returns, for Min, Max or MinMax, quiver's call and the
// alternatives: the plain loop and, on dense input, slices.Min/Max, gonum
// floats.Min/Max and vek / vek32 Min/Max (MinMax as two calls, which is
// what a user of those libraries writes). None of the peers takes a
// bitmap, so masked inputs have the loop only. The input has no NaN and no
// zero, so every comparable result is exact.
func extremeImpls[T number](e extremes) func(in *input[T]) (func() res, []impl) {
	return func(in *input[T]) (func() res, []impl) {
		x, ms, bm := in.x, in.masks, in.bits
		lo0, hi0 := quiver.Min([]T{}), quiver.Max([]T{}) // the identities
		pick := func(lo, hi T) res {
			switch e {
			case onlyMin:
				return res{bitsOf(lo)}
			case onlyMax:
				return res{bitsOf(hi)}
			}
			return res{bitsOf(lo), bitsOf(hi)}
		}
		var q, loop func() res
		switch e {
		case onlyMin:
			q = func() res { return res{bitsOf(quiver.Min(x, ms...))} }
			loop = func() res { return res{bitsOf(loopMin(x, bm, lo0))} }
		case onlyMax:
			q = func() res { return res{bitsOf(quiver.Max(x, ms...))} }
			loop = func() res { return res{bitsOf(loopMax(x, bm, hi0))} }
		default:
			q = func() res { return pick(quiver.MinMax(x, ms...)) }
			loop = func() res { lo, hi, _ := loopSummary(x, bm, lo0, hi0); return pick(lo, hi) }
		}
		alts := []impl{{name: "loop", run: loop}}
		if bm != nil {
			return q, alts
		}
		// peer runs the min and max functions the operation needs.
		peer := func(name string, minf, maxf func([]T) T) {
			var run func() res
			switch e {
			case onlyMin:
				run = func() res { return res{bitsOf(minf(x))} }
			case onlyMax:
				run = func() res { return res{bitsOf(maxf(x))} }
			default:
				run = func() res { return pick(twoPass(minf, maxf, x)) }
			}
			alts = append(alts, impl{name: name, run: run})
		}
		peersOf(peer)
		return q, alts
	}
}

// peersOf registers, through peer, the min and max functions each peer
// library offers for T.
func peersOf[T number](peer func(name string, minf, maxf func([]T) T)) {
	var zero T
	switch any(zero).(type) {
	case float64:
		peer("gonum", asFunc[T](floats.Min), asFunc[T](floats.Max))
		peer("vek", asFunc[T](vek.Min), asFunc[T](vek.Max))
	case float32:
		peer("vek", asFunc[T](vek32.Min), asFunc[T](vek32.Max))
	}
	peer("slices", slices.Min[[]T], slices.Max[[]T])
}

// asFunc converts f, a function over one concrete element type, to the
// same function over T; the caller has checked that T is that type.
func asFunc[T number, E any](f func([]E) E) func([]T) T {
	return any(f).(func([]T) T)
}
