package bench

// The crossovers of short dense calls after the direct functions (H471-
// H477) took 3-4 ns off every kernel call. The cuts were chosen where
// the kernels' old fixed cost met the Go loops: dense float Min and Max
// ran the builtin min's chains below 24 elements, MinMax and Summarize
// below 16; integers (every size on AVX-512, 32 and 64 bits on AVX2) the
// loops of conditional moves below 32 for one extreme and 24 for both
// (kernel.ISA.ExtremeCut); and a float Sum of one block up to two ran
// kernel.BlockSum in Go (kernel.ISA.BlockSumsInGo). A probe with 16
// rotating random inputs, the kernel route against the API's (AMD EPYC
// family 26 model 2, Zen 5 class; medians of 40 interleaved samples,
// kernel time over the API's):
//
//   - float64 Min: n=12 0.99 (avx2), 1.19 (avx512); n=16 0.81, 0.89;
//     n=20 0.65, 0.73. MinMax: n=8 0.89, 1.00; n=12 0.73, 0.85.
//   - int64 Min: n=12 1.04, 1.18; n=16 0.77, 0.88; n=20-24 0.62-0.73.
//     int32 MinMax: n=8 1.06, 1.23; n=12 0.62, 0.77; n=16-20 0.48-0.62.
//   - Sum of exactly one block: float32 n=64 on avx512 0.60 (BlockSum's
//     64 accumulators do not fit in registers); float64 n=32 on avx512
//     and float32 n=32 on avx2 0.91; float64 n=16 on avx2 1.11. With a
//     tail (block < n < 2 block) the kernel lost: 1.2-1.8.
//
// The change: ExtremeCut 16 for float Min and Max, 12 for float MinMax
// and Summarize, 16 for integer Min and Max and 12 for integer MinMax and
// Summarize; and a dense float Sum of exactly one block runs the kernel
// where the block has 32 elements or more (AVX-512, and float32 on AVX2).
// Ratios are the change's time over the commit before's, medians of the
// per-pass ratios of BenchmarkDenseCuts run alternately from the two
// commits' bench binaries:
//
//	H478 (measured by hand): dense float Min and Max (float64, float32) n=16 and 20 on avx2 and avx512: time <= 0.85x; n=8, 12, 24 and 32: <= 1.02x
//	H479 (measured by hand): dense float MinMax and Summarize n=12 on avx2 and avx512: time <= 0.85x; n=8 and 16: <= 1.02x
//	H480 (measured by hand): dense integer Min and Max (int64, int32 on avx2 and avx512; int16 and uint8 on avx512) n=16 to 28: time <= 0.85x; n=8, 12 and 32: <= 1.02x
//	H481 (measured by hand): dense integer MinMax and Summarize (the same types) n=12 to 20: time <= 0.80x; n=8 and 24: <= 1.02x
//	H482 (measured by hand): float64 and float32 Min, Max, MinMax and Summarize whose extreme is a zero (BenchmarkShortFloatZeros' inputs) at the lengths that move to the kernels (Min, Max 16; all four 12): time <= 1.10x
//	H483 (measured by hand): Sum float32 n=64 on avx512: time <= 0.70x; float64 n=32 on avx512 and float32 n=32 on avx2: <= 0.95x; n=16, 24, 48, 96 and float64 n=16 on avx2: <= 1.02x

import (
	"math"
	"strconv"
	"testing"

	"github.com/quiverlabs/quiver"
)

// BenchmarkDenseCuts times dense Min, Max, MinMax and Summarize around
// the extremes' cuts, with and without a zero extreme, and Sum around one
// block, on the avx2 and avx512 backends, for H478-H483.
func BenchmarkDenseCuts(b *testing.B) {
	forBackends(b, []string{"avx2", "avx512"}, func(b *testing.B, backend string) {
		for _, n := range []int{8, 12, 16, 20, 24, 28, 32} {
			denseCutCases(b, n, rotation[float64](n, 478))
			denseCutCases(b, n, rotation[float32](n, 478))
			denseCutCases(b, n, rotation[int64](n, 480))
			denseCutCases(b, n, rotation[int32](n, 480))
			if backend == "avx512" {
				denseCutCases(b, n, rotation[int16](n, 480))
				denseCutCases(b, n, rotation[uint8](n, 480))
			}
		}
		b.Run("zeros", func(b *testing.B) {
			for _, n := range []int{8, 12, 16} {
				shortZeroCases[float64](b, n)
				shortZeroCases[float32](b, n)
			}
		})
		for _, n := range []int{16, 24, 32, 48, 64, 96} {
			sumCutCase(b, n, rotation[float64](n, 483))
			sumCutCase(b, n, rotation[float32](n, 483))
		}
	})
}

// denseCutCases runs quiver's dense Min, Max, MinMax and Summarize over
// the 16 inputs xs, each iteration the next.
func denseCutCases[T number](b *testing.B, n int, xs [16][]T) {
	for _, c := range []struct {
		name string
		f    func([]T) float64
	}{
		{"Min", func(x []T) float64 { return float64(quiver.Min(x)) }},
		{"Max", func(x []T) float64 { return float64(quiver.Max(x)) }},
		{"MinMax", func(x []T) float64 { lo, hi := quiver.MinMax(x); return float64(lo) + float64(hi) }},
		{"Summary", func(x []T) float64 { s := quiver.Summarize(x); return float64(s.Min) + float64(s.Max) }},
	} {
		b.Run("type="+typeName[T]()+"/n="+strconv.Itoa(n)+"/op="+c.name, func(b *testing.B) {
			var s float64
			k := 0
			for b.Loop() {
				s += c.f(xs[k&15])
				k++
			}
			sink = res{math.Float64bits(s)}
		})
	}
}

// sumCutCase runs quiver's dense Sum over the 16 inputs xs.
func sumCutCase[T float32 | float64](b *testing.B, n int, xs [16][]T) {
	b.Run("type="+typeName[T]()+"/n="+strconv.Itoa(n)+"/op=Sum", func(b *testing.B) {
		var s T
		k := 0
		for b.Loop() {
			s += quiver.Sum(xs[k&15])
			k++
		}
		sink = res{uint64(s)}
	})
}

// Dense integer sums below kernel.SmallCut (64) ran the inline loop of
// four wrapping sums (kernel.SumInts). Through the direct function the
// kernels take 8-12 ns at any length below 64 on an AMD EPYC family 26
// model 2 (Zen 5 class); a probe with 16 rotating inputs, the kernel
// route's time over the loop's (medians of 40 interleaved samples, avx2
// and avx512): int64 n=24 1.07-1.10, n=32 0.70-0.72, n=48-63 0.61-0.63;
// int32 n=24 0.82-0.83, n=32 0.68-0.72, 48-63 0.53-0.59; uint8 n=32
// 0.79 (avx2) and 0.93 (avx512), 48-63 0.61-0.98 (the AVX2 byte kernel
// takes whole 32-byte vectors and leaves the rest to Go). The change: on
// AVX2 and AVX-512 a dense SumInt or SumUint runs the kernel from 32
// elements. Ratios as above, BenchmarkDenseIntSums against the commit
// before's binary:
//
//	H484 (measured by hand): dense SumInt int64 and int32, SumUint uint8, n=32, 48 and 63 on avx2 and avx512: time <= 0.85x (uint8 on avx2 at 48 and 63: <= 1.0x)
//	H485 (measured by hand): the same at n=8, 16, 24 and 64: time <= 1.02x

// BenchmarkDenseIntSums times dense SumInt and SumUint around the cut on
// the avx2 and avx512 backends, 16 rotating inputs, for H484-H485.
func BenchmarkDenseIntSums(b *testing.B) {
	forBackends(b, []string{"avx2", "avx512"}, func(b *testing.B, _ string) {
		for _, n := range []int{8, 16, 24, 32, 48, 63, 64} {
			intSumCase(b, n, rotation[int64](n, 484))
			intSumCase(b, n, rotation[int32](n, 484))
			intSumCase(b, n, rotation[uint8](n, 484))
		}
	})
}

// intSumCase runs quiver's dense SumInt (SumUint for uint8) over the 16
// inputs xs.
func intSumCase[T int64 | int32 | uint8](b *testing.B, n int, xs [16][]T) {
	b.Run("type="+typeName[T]()+"/n="+strconv.Itoa(n)+"/op=Sum", func(b *testing.B) {
		var s uint64
		k := 0
		for b.Loop() {
			switch x := any(xs[k&15]).(type) {
			case []int64:
				s += uint64(quiver.SumInt(x))
			case []int32:
				s += uint64(quiver.SumInt(x))
			case []uint8:
				s += quiver.SumUint(x)
			}
			k++
		}
		sink = res{s}
	})
}
