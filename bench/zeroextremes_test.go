package bench

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/quiverlabs/quiver"
)

// Dense float Min, Max, MinMax and Summarize below the kernels' cut whose
// extreme is a zero: a column of non-negative values with a zero among
// them (counts, amounts, readings that floor at zero) has the minimum 0,
// and ADR-103 makes it the first of ±0 in index order. The builtin min's
// chains (kernel.ChainMin and friends, H396-H402) take -0 below +0, so a
// zero result was settled by running the reference's compare-and-branch
// loops (kernel.FloatExtremes) over the whole column again. Counted with
// cachegrind before the change (bench/callcount.sh, avx2, Min64: zeros at
// index 0 and 13): a float64 Min of 16 elements 454 instructions a call,
// against 238 for a column without a zero (Min64p) and 255 in 4924ae2,
// before the chains. The change: a zero extreme is settled by the scan
// for the first zero that the kernels' results already take (it stops
// there), and a NaN, which the chains give exactly when an element is
// NaN, becomes the canonical NaN without a second pass. Registered
// before measuring, on an AMD EPYC (family 26 model 2, Zen 5 class,
// AVX-512); ratios are the change's time over the commit before's,
// medians of BenchmarkShortFloatZeros run alternately from the two
// commits' bench binaries, or instruction counts of callcount.sh:
//
//	H434 (measured by hand): Min64 n=16 on avx2: executed instructions a call (callcount.sh) <= 0.75x the commit before's
//	H435 (measured by hand): Min and Max float64 and float32 n=4/8/16, MinMax and Summary n=4/8/12, zero extremes, on avx512 and avx2: time <= 0.85x
//	H436 (measured by hand): the same ops and lengths without a zero (BenchmarkShortFloatExtremes), and every op at n=24/32 with zeros: time <= 1.03x

// BenchmarkShortFloatZeros is BenchmarkShortFloatExtremes over inputs
// whose minimum (Min, MinMax, Summarize) or maximum (Max) is ±0: 16
// rotating inputs of random magnitudes (drawValues' range), each with one
// zero of random sign at a random index, and for MinMax and Summarize a
// second zero of the other sign after it.
func BenchmarkShortFloatZeros(b *testing.B) {
	forShortBackends(b, []int{4, 8, 12, 16, 24, 32}, func(b *testing.B, n int) {
		shortZeroCases[float64](b, n)
		shortZeroCases[float32](b, n)
	})
}

func shortZeroCases[T float32 | float64](b *testing.B, n int) {
	lows, highs := zeroRotations[T](n, 434)
	top, bottom := T(math.Inf(1)), T(math.Inf(-1))
	for _, c := range []struct {
		name string
		xs   *[16][]T
		f    func([]T) T
	}{
		{"Min/impl=quiver", &lows, func(x []T) T { return quiver.Min(x) }},
		{"Max/impl=quiver", &highs, func(x []T) T { return quiver.Max(x) }},
		{"MinMax/impl=quiver", &lows, func(x []T) T { lo, hi := quiver.MinMax(x); return lo + hi }},
		{"Summary/impl=quiver", &lows, func(x []T) T { s := quiver.Summarize(x); return s.Min + s.Max + T(s.Count) }},
		{"Min/impl=loop", &lows, func(x []T) T { return loopMin(x, nil, top) }},
		{"Max/impl=loop", &highs, func(x []T) T { return loopMax(x, nil, bottom) }},
		{"Summary/impl=loop", &lows, func(x []T) T { lo, hi, c := loopSummary(x, nil, top, bottom); return lo + hi + T(c) }},
	} {
		b.Run("type="+typeName[T]()+"/n="+strconv.Itoa(n)+"/op="+c.name, func(b *testing.B) {
			var s T
			k := 0
			for b.Loop() {
				s += c.f(c.xs[k&15])
				k++
			}
			sink = res{uint64(s)}
		})
	}
}

// zeroRotations is 16 inputs of n non-negative values with a zero among
// them (lows: the minimum is ±0) and the same negated (highs: the
// maximum is ±0). From 4 elements each input has a second zero of the
// other sign after the first, so that the first one decides.
func zeroRotations[T float32 | float64](n int, seed uint64) (lows, highs [16][]T) {
	r := rand.New(rand.NewPCG(uint64(n), seed))
	for k := range lows {
		lo, hi := make([]T, n), make([]T, n)
		drawValues(r, lo)
		i := r.IntN(n - n/4)
		zero := T(0)
		if r.IntN(2) == 0 {
			zero = T(math.Copysign(0, -1))
		}
		for j := range lo {
			lo[j] = T(math.Abs(float64(lo[j])))
		}
		lo[i] = zero
		if n >= 4 {
			lo[i+1+r.IntN(n-i-1)] = -zero
		}
		for j, v := range lo {
			hi[j] = -v
		}
		lows[k], highs[k] = lo, hi
	}
	return lows, highs
}
