package bench

// Dense float Min and Max by a shorter path: the API calls
// kernel.DenseExtreme, whose typed entry runs the single-extreme kernel's
// wrapper directly, instead of kernel.Summary and summaryOn with their
// bitmap, count and second-extreme plumbing. Registered before measuring,
// on an Intel Xeon (family 6 model 207, AVX-512), from the earlier
// profile on an AMD EPYC Zen 4: a direct stub call took 161-166 ns
// against 188-194 ns through kernel.Summary for a float64 Min of 4096 on
// avx2. Ratios are the commit before's time over this one's, same run,
// medians of interleaved passes of BenchmarkMinPath.
//
//	H235 (measured by hand): Min and Max float64 nulls=0% n=4096 on avx2 and avx512: time <= 0.95x the commit before's
//	H236 (measured by hand): Min and Max float32 nulls=0% n=4096 on avx2 and avx512: time <= 0.95x the commit before's
//	H237 (measured by hand): Min float64 nulls=0% n=64 on avx2: executed instructions (bench/callcount.sh) <= 0.9x the commit before's
//	H238 (measured by hand): Min and Max float64 nulls=0% n=65536 (memory and loop bound, same kernel): time <= 1.0x the commit before's

import (
	"fmt"
	"math"
	"testing"

	"github.com/viterin/vek"
	"github.com/viterin/vek/vek32"

	"github.com/quiverlabs/quiver"
)

// BenchmarkMinPath times dense Min and Max on the avx2 and avx512
// backends, with vek beside them (vek ignores NaN and ±0 ties), for
// H235-H238.
func BenchmarkMinPath(b *testing.B) {
	forBackends(b, []string{"avx2", "avx512"}, func(b *testing.B, _ string) {
		for _, n := range []int{64, 4096, 65536} {
			minPathCases(b, n, newInput[float64](n, 0).x, vek.Min, vek.Max)
			minPathCases(b, n, newInput[float32](n, 0).x, vek32.Min, vek32.Max)
		}
	})
}

func minPathCases[T float32 | float64](b *testing.B, n int, x []T, vmin, vmax func([]T) T) {
	runFloatImpls(b, n, x, []floatImpl[T]{
		{"Min/impl=quiver", func(x []T) T { return quiver.Min(x) }},
		{"Max/impl=quiver", func(x []T) T { return quiver.Max(x) }},
		{"Min/impl=vek", vmin},
		{"Max/impl=vek", vmax},
	})
}

// Dense float Min, Max, MinMax and Summarize below kernel.SmallCut (64)
// on the kernels instead of the inline Go loops, from a backend's
// ExtremeCut. Registered before measuring, on an Intel Xeon (family 6
// model 207, AVX-512), from the generated ledger of 5f51b59 on that CPU:
// a dense float64 Min of 32 took 32.0 ns in the Go loop and one of 64 took
// 26.7 ns on the kernel (avx512); Summarize 51.8 ns at 32 against 35.9
// ns at 64; MinMax 60.9 against 47.9 ns. Ratios are the commit before's
// time over this one's (BenchmarkShortExtremes, the same binary built
// from each commit), or the plain loop's time over quiver's, same run:
//
//	H239 (measured by hand): Min, Max, MinMax and Summarize float64 and float32 nulls=0% n=32/48/63 on avx512 and avx2: >= 1.2x the commit before
//	H240 (measured by hand): the same at n=16 and 24: >= 1.0x the commit before (the cut is no slower where it starts)
//	H241 (measured by hand): Min and Max float64 nulls=0% n=32 on avx512: >= 1.0x loop (H51 missed at 0.961x on this CPU)
//	H242 (measured by hand): Summarize float64 nulls=0% n=32 on avx512: >= 1.0x loop (H55 missed at 0.864x on this CPU)

// The fused summaries' settle step (NaN, identities, the first zero) taken
// only when one of its cases holds, instead of a call in every float
// MinMax and Summarize on AVX2 and AVX-512. Registered before measuring;
// counted with cachegrind (valgrind runs the avx2 kernels) on a float64
// column of 64 distinct values without a zero, the calls' instructions
// less those of the loop around them:
//
//	H248 (measured by hand): MinMax and Summarize float64 nulls=0% n=64 on avx2: executed instructions <= 0.95x the commit before's
//
// Dense MinMax and Summarize by the path of dense Min and Max
// (kernel.DenseSummary: the typed entry, then the kernel switch, with
// the rescues out of line) instead of summarize, summarizeOn,
// kernel.Summary, summaryOn, run and dense. Registered before measuring,
// from the same count: 441 and 435 instructions a call at n=64, of which
// 113 in the kernel. Time ratios are BenchmarkShortExtremes, the commit
// before's time over this one's:
//
//	H249 (measured by hand): MinMax and Summarize float64 nulls=0% n=64 on avx2: executed instructions <= 0.8x the commit before's
//	H250 (measured by hand): MinMax and Summarize float64 and float32 nulls=0% n=24/32/48/63 on avx2 and avx512: >= 1.1x the commit before

// BenchmarkShortExtremes times dense float Min, Max, MinMax and Summarize
// at lengths below kernel.SmallCut on the avx2 and avx512 backends, and
// the plain loops beside them, for H239-H242.
func BenchmarkShortExtremes(b *testing.B) {
	forBackends(b, []string{"avx2", "avx512"}, func(b *testing.B, _ string) {
		for _, n := range []int{8, 12, 16, 24, 32, 48, 63} {
			shortExtremeCases[float64](b, n)
			shortExtremeCases[float32](b, n)
		}
	})
}

func shortExtremeCases[T float32 | float64](b *testing.B, n int) {
	x := newInput[T](n, 0).x
	top, bottom := T(math.Inf(1)), T(math.Inf(-1))
	runFloatImpls(b, n, x, []floatImpl[T]{
		{"Min/impl=quiver", func(x []T) T { return quiver.Min(x) }},
		{"Max/impl=quiver", func(x []T) T { return quiver.Max(x) }},
		{"MinMax/impl=quiver", func(x []T) T { lo, hi := quiver.MinMax(x); return lo + hi }},
		{"Summary/impl=quiver", func(x []T) T { s := quiver.Summarize(x); return s.Min + s.Max + T(s.Count) }},
		{"Min/impl=loop", func(x []T) T { return loopMin(x, nil, top) }},
		{"Max/impl=loop", func(x []T) T { return loopMax(x, nil, bottom) }},
		{"Summary/impl=loop", func(x []T) T { lo, hi, c := loopSummary(x, nil, top, bottom); return lo + hi + T(c) }},
	})
}

// floatImpl is one implementation of a float reduction in a benchmark.
type floatImpl[T float32 | float64] struct {
	name string
	f    func([]T) T
}

// runFloatImpls runs each implementation over x as a sub-benchmark named
// type=T/n=n/op=name.
func runFloatImpls[T float32 | float64](b *testing.B, n int, x []T, impls []floatImpl[T]) {
	for _, im := range impls {
		b.Run(fmt.Sprintf("type=%s/n=%d/op=%s", typeName[T](), n, im.name), func(b *testing.B) {
			var s T
			for b.Loop() {
				s += im.f(x)
			}
			sink = res{uint64(s)}
		})
	}
}
