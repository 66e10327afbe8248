package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver"
)

// Masked Min, Max, MinMax and Summarize of fewer than kernel.SmallCut (64)
// elements ran the short word loops on every backend (one validity word,
// kernel.SummaryWord's two chains and a branch on each validity bit). A
// probe of the kernel package on an AMD EPYC (family 26 model 2, Zen 5
// class, AVX-512), registered on 2026-12-07 before the change, timed those
// loops against the AVX-512 and AVX2 masked kernels called through
// kernel.Summary, fastest of 60 samples, 8 and 256 rotating inputs with
// 10% nulls (the two agreed within 5%): for both extremes the kernels
// took 0.95-1.08 of the loops' time at n=24, 0.74-0.88 at 32 and
// 0.49-0.62 at 63 (float64, float32, int64, int32); for one extreme
// 0.94-1.05 at 40 (floats; integers 0.84-0.96), 0.75-0.92 at 48 and
// 0.71-0.83 at 63. So on avx2 and avx512 a masked MinMax or Summarize
// runs the kernels from 32 elements and a masked Min or Max from 48
// (kernel.ISA.MaskedExtremeCut); 8- and 16-bit integers on AVX2, whose
// kernels take whole 32-byte vectors, and the other backends keep the
// loops below 64.
//
// Ratios are the change's time over the commit before's, medians of
// BenchmarkShortMaskedExtremes run alternately from the two commits'
// bench binaries (8 passes), on the avx512 and avx2 backends, for
// float64, float32, int64 and int32:
//
//	H459 (measured by hand): MinMax and Summary n=32/40/48/56/63: <= 0.85x; at n=48/56/63 <= 0.75x
//	H460 (measured by hand): Min and Max n=48/56/63: <= 0.90x
//	H461 (measured by hand): every op at n=16/24, and Min and Max at n=32/40 (the loops before and after): <= 1.03x
//	H462 (measured by hand): the generic backend, and uint8 on avx2, every op and n: <= 1.03x
//	H463 (measured by hand): MinMax float64 n=63 on avx512 after the change: >= 1.5x the plain masked loop's speed
//
// The first A/B (addc16b against 161a750) found uint8 on avx512, which
// the change had switched too, 1.10-1.14x slower for Min and Max at
// n=48 and 1.05x for MinMax at 32, where a kernel probe had bytes' single
// extreme at 1.09-1.61 of the loops' time up to 48 (the AVX-512 byte
// kernel computes both extremes), their both at 0.89 at 32 and 0.76 at
// 40, and 16-bit integers like the wider types (single 0.93 at 48, both
// 0.74-0.80 at 32). So bytes on avx512 keep the loops for one extreme and
// take the kernel for both from 40; int16 joins the benchmark. Registered
// before the second A/B (the change against 161a750):
//
//	H464 (measured by hand): uint8 on avx512: Min and Max every n <= 1.03x; MinMax and Summary n=40..63 <= 0.90x
//	H465 (measured by hand): int16 on avx512: MinMax and Summary n=32..63 <= 0.85x; Min and Max n=48..63 <= 0.95x; on avx2 every op and n <= 1.03x
//
// A probe with a zero minimum (values k/2 for random k in 0..12, so that
// the minimum of almost every input is a zero and the first valid zero has
// to be found) put float MinMax at 32 at 1.09-1.15x the loops' time where
// it gained 0.95-0.99 without zeros, level at 40 (0.97-1.07; 0.80 without
// zeros), and AVX2 float Min at 48 at 1.08-1.10 (0.96 without zeros). So
// float MinMax and Summarize take the kernels from 40, and AVX2 float Min
// and Max from 56. Registered before the third A/B (the change against
// 161a750), BenchmarkShortMaskedZeros and BenchmarkShortMaskedExtremes:
//
//	H466 (measured by hand): float64 and float32 with a zero minimum, Min, MinMax and Summary n=32..63, avx512 and avx2: <= 1.05x
//	H467 (measured by hand): avx2 float64 and float32 Min and Max n=48: <= 1.03x; n=56/63: <= 0.92x
//
// The third A/B left two costs in the word loops and the rescan, which
// random bitmaps expose: the integer word loops (kernel.IntMinWord,
// IntMaxWord, IntMinMaxWord) branch on each validity bit, and took 22 or
// 31 ns for a Summarize of 16 int32 depending on the build (the slow
// mode, a misprediction per null, is what a bitmap no predictor has seen
// gets); and the first valid zero is found by a loop that exits at it,
// one misprediction a call (H466 missed: Min with a zero minimum 1.06-1.12x
// at 40-56). The change these register ran both without a branch on the
// data: a null takes the first valid element (as the generic backend's
// folds), and the zero scan runs backwards over the whole word keeping
// each valid zero by a conditional move (as the dense short scan,
// H434-H436). Neither was kept: both were slower (docs/ledger.md).
// Registered before the A/B of the change against c8c23ff:
//
//	H468 (measured by hand): BenchmarkShortMaskedZeros, every op, n=32..63, avx512, avx2 and generic: <= 0.92x
//	H469 (measured by hand): BenchmarkShortMaskedExtremes int64, int32, int16 and uint8 Min, Max (n=16..40) and MinMax and Summary (n=16..24), avx512, avx2 and generic: <= 0.90x; float64 and float32 every op and n: <= 1.03x
//
// The profile of a masked Min of 48 float64 with a zero minimum on the
// kernels' route (47.7 ns, 32.1 without zeros) put 7.4 ns in firstZero,
// whose loop tests each element as a float (UCOMISD and two branches).
// Comparing the element's bits shifted left by one with zero takes one
// compare and one branch; registered before the A/B of that change
// against the commit before it:
//
//	H470 (measured by hand): BenchmarkShortMaskedZeros, the cells on the kernels (MinMax and Summary n=40..63, Min n=48..63 on avx512 and 56..63 on avx2): <= 0.95x; BenchmarkShortMaskedExtremes float64 and float32: <= 1.03x
//
// summaryDirect (H486-H491) took 8-12 ns off the masked kernels' call.
// A probe in the kernel package timed both routes in one binary, the
// word loops (kernel.SummaryWord) against kernel.Summary, 16 rotating
// inputs with 10% nulls, fastest of 4 runs (AMD EPYC family 26 model 2,
// Zen 5 class); with 5 ns added to the kernels' route for the API's
// frames that the word loops do not cross, the kernels' share of the
// loops' time: both extremes of floats 0.67-0.77 at 32 (with a zero
// minimum 0.91-1.04); one extreme of floats and 16- to 64-bit integers
// 0.68-0.86 at 40 (zeros 1.05-1.14), 0.60-0.73 at 48 (zeros 0.95-0.96);
// on AVX2 16-bit integers 0.72 (both) and 0.84 (one) at 32, bytes 0.73
// (both) at 32 and 0.77 (one) at 48; both extremes of 32- and 64-bit
// integers 0.88-0.95 at 24, which stays at 32. So on AVX2 and AVX-512
// the masked cuts move: both extremes of floats from 40 to 32, one
// extreme from 48 (AVX2 floats 56) to 40, AVX2 16-bit integers from 64
// to 32 (both) and 40 (one), AVX2 bytes from 64 to 32 (both) and 48
// (one); bytes on AVX-512 keep theirs. Registered before the A/B of the
// change against the commit before it (BenchmarkShortMaskedExtremes and
// BenchmarkShortMaskedZeros, avx2 and avx512):
//
//	H492 (measured by hand): float64 and float32 MinMax and Summary at n=32: <= 0.85x
//	H493 (measured by hand): Min and Max of float64, float32, int64, int32 and int16 at n=40 (and avx2 float64 and float32 at 48): <= 0.85x
//	H494 (measured by hand): avx2 int16 MinMax and Summary n=32..63 and Min and Max n=40..63, avx2 uint8 MinMax and Summary n=32..63 and Min and Max n=48..63: <= 0.85x
//	H495 (measured by hand): BenchmarkShortMaskedZeros at the lengths that moved to the kernels: <= 1.15x
//	H496 (measured by hand): the cells whose route did not change: <= 1.05x

// BenchmarkShortMaskedExtremes times masked Min, Max, MinMax and Summarize
// at lengths around the masked cuts on the avx2, avx512 and generic
// backends, with 10% nulls, and the plain loops beside them. Each
// iteration takes the next of 16 inputs, each with a bitmap of its own,
// so that no branch predictor learns one.
func BenchmarkShortMaskedExtremes(b *testing.B) {
	forShortBackends(b, []int{16, 24, 32, 40, 48, 56, 63}, func(b *testing.B, n int) {
		shortMaskedCases(b, n, rotation[float64](n, 459), math.Inf(1), math.Inf(-1))
		shortMaskedCases(b, n, rotation[float32](n, 459), float32(math.Inf(1)), float32(math.Inf(-1)))
		shortMaskedCases(b, n, rotation[int64](n, 459), math.MaxInt64, math.MinInt64)
		shortMaskedCases(b, n, rotation[int32](n, 459), math.MaxInt32, math.MinInt32)
		shortMaskedCases(b, n, rotation[int16](n, 459), math.MaxInt16, math.MinInt16)
		shortMaskedCases(b, n, rotation[uint8](n, 459), math.MaxUint8, 0)
	})
}

// shortMaskedCases runs quiver's masked Min, Max, MinMax and Summarize
// and the plain masked loops (which start from top and bottom) over the
// 16 inputs xs, each with a bitmap of 10% nulls, each iteration the next.
func shortMaskedCases[T number](b *testing.B, n int, xs [16][]T, top, bottom T) {
	r := rand.New(rand.NewPCG(uint64(n), 460))
	var bms [16][]byte
	var ms [16]quiver.Mask
	for k := range bms {
		bms[k] = drawBitmap(r, n, 10)
		ms[k] = quiver.Valid(bms[k], 0)
	}
	for _, im := range []struct {
		name string
		f    func(x []T, bm []byte, m quiver.Mask) T
	}{
		{"Min/impl=quiver", func(x []T, _ []byte, m quiver.Mask) T { return quiver.Min(x, m) }},
		{"Max/impl=quiver", func(x []T, _ []byte, m quiver.Mask) T { return quiver.Max(x, m) }},
		{"MinMax/impl=quiver", func(x []T, _ []byte, m quiver.Mask) T { lo, hi := quiver.MinMax(x, m); return lo + hi }},
		{"Summary/impl=quiver", func(x []T, _ []byte, m quiver.Mask) T {
			s := quiver.Summarize(x, m)
			return s.Min + s.Max + T(s.Count)
		}},
		{"Min/impl=loop", func(x []T, bm []byte, _ quiver.Mask) T { return loopMin(x, bm, top) }},
		{"Max/impl=loop", func(x []T, bm []byte, _ quiver.Mask) T { return loopMax(x, bm, bottom) }},
		{"Summary/impl=loop", func(x []T, bm []byte, _ quiver.Mask) T {
			lo, hi, c := loopSummary(x, bm, top, bottom)
			return lo + hi + T(c)
		}},
	} {
		b.Run(fmt.Sprintf("type=%s/n=%d/op=%s", typeName[T](), n, im.name), func(b *testing.B) {
			var s T
			k := 0
			for b.Loop() {
				s += im.f(xs[k&15], bms[k&15], ms[k&15])
				k++
			}
			sink = res{uint64(s)}
		})
	}
}

// BenchmarkShortMaskedZeros is BenchmarkShortMaskedExtremes for floats
// whose minimum is a zero: values k/2 for random k in 0..12, so that a
// call finds the first valid zero (the reference keeps the first of ±0).
func BenchmarkShortMaskedZeros(b *testing.B) {
	forShortBackends(b, []int{32, 40, 48, 56, 63}, func(b *testing.B, n int) {
		shortMaskedCases(b, n, zeroRotation[float64](n), math.Inf(1), math.Inf(-1))
		shortMaskedCases(b, n, zeroRotation[float32](n), float32(math.Inf(1)), float32(math.Inf(-1)))
	})
}

// zeroRotation is 16 inputs of n values k/2, k random in 0..12.
func zeroRotation[T float32 | float64](n int) [16][]T {
	r := rand.New(rand.NewPCG(uint64(n), 466))
	var xs [16][]T
	for k := range xs {
		xs[k] = make([]T, n)
		for i := range xs[k] {
			xs[k][i] = T(r.IntN(13)) / 2
		}
	}
	return xs
}
