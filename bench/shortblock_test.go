package bench

// Dense float sums of one ADR-013 block up to two (block <= n < 2*block:
// float64 n = 16..31 and float32 n = 32..63 on AVX2), which run
// kernel.BlockSum in Go instead of the assembly kernel on AVX2 (see
// kernel.ISA.BlockSumsInGo). Registered before measuring, on an AMD EPYC
// (Zen 3, family 25 model 1, AVX2 only), with the kernel path measured
// first: float64 n = 16 took 18-20 ns against 7.4-11 ns for the plain
// loop. Ratios are the loop's time over quiver's, same run.
//
//	H220 (measured by hand): Sum float64 nulls=0% n=16/20/24/31 on avx2: >= 1.0x loop (was 0.5-0.6x at n=16)
//	H221 (measured by hand): Sum float32 nulls=0% n=32/40/48/63 on avx2: >= 1.0x loop
//	H222 (measured by hand): Sum float64 n=16/24/31 and float32 n=32/48/63 on avx2: BlockSum's time <= 0.7x the kernel path's (the commit before it), same run
//
// The same for the avx512 backend (float64 n = 32..63, float32 n =
// 64..127), registered on an AMD EPYC (Zen 4, family 25 model 17) before
// BlockSum served it there: the generated ledger's H43 had the kernel
// path at 0.605x the loop at float64 n=32 on that CPU (1.20x on the
// Zen 5-class EPYC, 0.94x on Ice Lake).
//
//	H223 (measured by hand): Sum float64 nulls=0% n=32/40/48/63 on avx512: >= 1.0x loop
//	H224 (measured by hand): Sum float32 nulls=0% n=64/80/96/127 on avx512: >= 1.0x loop
//	H225 (measured by hand): Sum float64 n=32/48/63 and float32 n=64/96/127 on avx512: BlockSum's time <= 0.7x the kernel path's (the commit before it), same run

import (
	"fmt"
	"testing"

	"github.com/quiverlabs/quiver"
)

// BenchmarkShortBlock times quiver.Sum on the avx2 backend and the plain
// loop at the lengths of H220 and H221.
func BenchmarkShortBlock(b *testing.B) {
	useBackend(b, "avx2")
	shortBlockCases[float64](b, "avx2", []int{16, 20, 24, 31})
	shortBlockCases[float32](b, "avx2", []int{32, 40, 48, 63})
}

// BenchmarkShortBlock512 is BenchmarkShortBlock on the avx512 backend at
// the lengths of H223 and H224.
func BenchmarkShortBlock512(b *testing.B) {
	useBackend(b, "avx512")
	shortBlockCases[float64](b, "avx512", []int{32, 40, 48, 63})
	shortBlockCases[float32](b, "avx512", []int{64, 80, 96, 127})
}

func shortBlockCases[T float32 | float64](b *testing.B, backend string, ns []int) {
	for _, n := range ns {
		x := newInput[T](n, 0).x
		b.Run(fmt.Sprintf("type=%s/n=%d/impl=%s", typeName[T](), n, backend), func(b *testing.B) {
			var s T
			for b.Loop() {
				s += quiver.Sum(x)
			}
			sink = res{uint64(s)}
		})
		b.Run(fmt.Sprintf("type=%s/n=%d/impl=loop", typeName[T](), n), func(b *testing.B) {
			var s T
			for b.Loop() {
				s += loopSumFloat(x)
			}
			sink = res{uint64(s)}
		})
	}
}

// backendAvailable says whether the backend called name runs on this CPU.
func backendAvailable(name string) bool {
	for _, b := range quiver.Backends() {
		if b.Name == name {
			return b.Available
		}
	}
	return false
}

// useBackend makes the backend called name the active one until b ends,
// and skips b where this CPU does not run it.
func useBackend(b *testing.B, name string) {
	b.Helper()
	if !backendAvailable(name) {
		b.Skipf("no %s backend on this CPU", name)
	}
	prev := quiver.ActiveBackend().Name
	b.Cleanup(func() { quiver.SetBackend(prev) })
	if err := quiver.SetBackend(name); err != nil {
		b.Fatal(err)
	}
}

// forBackends runs f as the sub-benchmark backend=<name> with each named
// backend in use (skipped where the CPU lacks it).
func forBackends(b *testing.B, names []string, f func(b *testing.B, backend string)) {
	for _, backend := range names {
		b.Run("backend="+backend, func(b *testing.B) {
			useBackend(b, backend)
			f(b, backend)
		})
	}
}
