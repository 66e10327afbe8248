package bench

// Dense float sums on the avx512 backend with YMM loads: the ADR-013
// block of A = 4 accumulators of W = 8 (float64) or 16 (float32) lanes
// added as eight 256-bit chains, each accumulator's low and high halves,
// lane for lane the same additions as four 512-bit chains. Registered on
// an AMD EPYC Zen 4 (family 25 model 17) before the kernel used them,
// after a loop-only test in which 512-bit loads from DRAM (16M float64)
// took 1.12-1.15x the time of 256-bit loads, and the same at L1 to L3
// sizes. Ratios are the ZMM-load kernel's time (the commit before) over
// the YMM-load kernel's, medians of interleaved passes of
// BenchmarkSumLoads.
//
//	H229 (measured by hand): Sum float64 and float32 nulls=0% n=16777216 on avx512: >= 1.08x the ZMM-load kernel
//	H230 (measured by hand): Sum float64 and float32 nulls=0% n=4096/65536/1048576 on avx512: >= 0.98x the ZMM-load kernel (no slower)
//
// The same for the order-free dense kernels (min, max, summaries, wrapping
// integer sums): from 2 MB of input the avx512 backend calls their AVX2
// kernels, whose results are the same by contract. Registered on the same
// CPU before the change, after a loop-only test in which 512-bit min loops
// from DRAM (16M float64) took 1.10-1.17x the time of 256-bit ones.
// Ratios: the commit before over this one, medians of interleaved passes
// of BenchmarkDRAMOps.
//
//	H231 (measured by hand): Min, Max, MinMax, Summarize float64 and SumInt int64 nulls=0% n=16777216 on avx512: >= 1.05x the 512-bit kernels
//	H232 (measured by hand): the same at n=65536 (below the cut, same code): >= 0.97x
//
// The three DRAM cuts were measured on Zen 4, whose 512-bit operations
// take two passes through 256-bit units. Registered on an AMD EPYC
// family 26 model 2 (Zen 5 class, full-width 512-bit units) before
// measuring them there: the commit's binary against one built with the
// three cuts moved out of reach (dramBytes, halvesFrom, reproDRAMBytes),
// so that the avx512 backend runs its 512-bit kernels at every size.
// Ratio: the cuts' time over the 512-bit kernels' time, medians of
// interleaved passes of BenchmarkReproVsSum, BenchmarkDRAMOps and
// BenchmarkSumLoads at n=16777216. A ratio below 1 keeps a cut on this CPU.
//
//	H251 (measured by hand): SumReproducible float64 n=16777216 on avx512, Zen 5: the AVX-512 kernels >= 1.10x the AVX2 ones (the 64 MB cut)
//	H252 (measured by hand): Sum float64 and float32 n=16777216 on avx512, Zen 5: the 512-bit loop >= 1.03x the 256-bit halves (the 2 MB cut)
//	H253 (measured by hand): Min, Max, MinMax, Summarize float64 and SumInt int64 n=16777216 on avx512, Zen 5: the 512-bit kernels >= 1.03x the AVX2 ones

import (
	"fmt"
	"testing"

	"github.com/quiverlabs/quiver"
)

// BenchmarkSumLoads times dense float Sum on the avx512 and avx2 backends
// from L1 to DRAM sizes.
func BenchmarkSumLoads(b *testing.B) {
	for _, n := range []int{4096, 65536, 1 << 20, 1 << 24} {
		x64 := reproSpeedData(n)
		x32 := make([]float32, n)
		for i, v := range x64 {
			x32[i] = float32(v)
		}
		for _, be := range []string{"avx512", "avx2"} {
			if !backendAvailable(be) {
				continue
			}
			b.Run(fmt.Sprintf("n=%d/backend=%s", n, be), func(b *testing.B) {
				useBackend(b, be)
				b.Run("type=float64", func(b *testing.B) {
					b.SetBytes(int64(8 * n))
					for b.Loop() {
						sinkFloat = quiver.Sum(x64)
					}
				})
				b.Run("type=float32", func(b *testing.B) {
					b.SetBytes(int64(4 * n))
					var s float32
					for b.Loop() {
						s += quiver.Sum(x32)
					}
					sinkFloat = float64(s)
				})
			})
		}
	}
}

// BenchmarkDRAMOps times the order-free dense kernels on the avx512
// backend below and above the 2 MB cut (H231, H232).
func BenchmarkDRAMOps(b *testing.B) {
	useBackend(b, "avx512")
	for _, n := range []int{65536, 1 << 24} {
		x := reproSpeedData(n)
		xi := make([]int64, n)
		for i, v := range x {
			xi[i] = int64(v * 1e6)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.Run("op=Min", func(b *testing.B) {
				for b.Loop() {
					sinkFloat = quiver.Min(x)
				}
			})
			b.Run("op=Max", func(b *testing.B) {
				for b.Loop() {
					sinkFloat = quiver.Max(x)
				}
			})
			b.Run("op=MinMax", func(b *testing.B) {
				for b.Loop() {
					lo, hi := quiver.MinMax(x)
					sinkFloat = lo + hi
				}
			})
			b.Run("op=Summarize", func(b *testing.B) {
				for b.Loop() {
					sinkFloat = quiver.Summarize(x).Max
				}
			})
			b.Run("op=SumInt", func(b *testing.B) {
				for b.Loop() {
					sinkFloat = float64(quiver.SumInt(xi))
				}
			})
		})
	}
}
