package bench

// Dense integer Min, Max, MinMax and Summarize below kernel.SmallCut (64)
// and just above it. Registered before measuring, on an AMD EPYC (family
// 26 model 2, Zen 5 class, AVX-512), from a probe of the kernel package
// (one call a loop iteration, 16 rotating inputs of random values):
//
//   - below 64 elements a dense integer MinMax and Summarize ran
//     kernel.IntMinMax, one chain of a compare and a conditional move per
//     extreme, two cycles an element: int64 n=32 25.2 ns, n=63 51.1 ns;
//     the same loop in two chains took 19.6 and 35.1 ns;
//   - the kernels took 17-19 ns at every length from 8 to 63 through
//     kernel.DenseSummary, whose integer path went denseSummaryGo,
//     summaryOn, summaryAsm.run and its dense method before the kernel
//     switch; called from denseSummaryOn as the float kernels are, 11-13
//     ns;
//   - a dense integer Min (kernel.IntMin, two chains already) took 13.6
//     ns at n=32 and 26.3 ns at 63 (int64), against 12.8 and 13.4 ns on
//     the kernels by that shorter path.
//
// The change: integer MinMax and Summarize run two chains below their cut,
// the integer kernels are called from denseSummaryOn directly, and the
// AVX2 and AVX-512 backends run them from 16 elements (MinMax,
// Summarize) and 32 (Min, Max). The AVX2 kernels of 8- and 16-bit
// elements take whole 32-byte vectors and fold the rest in Go, so there
// those keep the loops below 64.
//
// Ratios are this change's time over the commit before's, medians of
// BenchmarkShortIntExtremes run alternately from the two commits' bench
// binaries (8 passes), or the plain loop's time over quiver's in the same
// run:
//
//	H377 (measured by hand): MinMax and Summary int64 and int32 n=24/32/48/63 on avx512 and avx2: <= 0.75x the commit before
//	H378 (measured by hand): MinMax and Summary uint8 n=24/32/48/63: <= 0.75x on avx512; <= 0.85x on avx2 (two chains)
//	H379 (measured by hand): Min and Max int64, int32, uint8 n=32/48/63 on avx512, and int64, int32 on avx2: <= 0.90x the commit before
//	H380 (measured by hand): all four ops int64 n=64 and 128 on avx512 and avx2 (the kernels by a shorter path): <= 0.90x; n=4096: <= 1.00x
//	H381 (measured by hand): all four ops n=8 and 16, and Min and Max at 24, every type and backend: <= 1.03x the commit before (no loss where the loops stay)
//	H382 (measured by hand): MinMax and Summary int64 n=32 and 63 on generic (two chains): <= 0.85x the commit before
//	H383 (measured by hand): MinMax and Summary int64 n=32 on avx512: >= 1.4x the plain loop's speed (the ledger's short run had Summary at 0.97x)
//
// The generic backend's dense integer extremes from 64 elements, by the
// short loops (kernel.IntMin, IntMax, IntMinMax: two chains per extreme,
// narrow elements compared in int32) instead of the portable summary's
// four min/max pairs. Registered before measuring, from the run above
// (26b6faa) on the same CPU: at n=4096 the portable summary took 2.47 us
// for int64 and int32 (0.6 ns an element: its eight accumulators leave
// the loop index in memory, a store and a load an iteration, and every
// element is bounds-checked) and 6.0 us for uint8 (its byte min and max
// are branches), against the plain loop's 3.5 us (int64 Summary) and 1.8-
// 3.6 us (uint8). Ratios as above, the commit before's binary against
// this one's:
//
//	H384 (measured by hand): Min, Max, MinMax and Summary int64 and int32 n=4096 on generic: <= 0.60x the commit before
//	H385 (measured by hand): the same for uint8: <= 0.40x the commit before
//	H386 (measured by hand): all four ops, int64, int32 and uint8, n=4096 on generic: >= 1.0x the plain loop's speed (Min and Max against loopMin and loopMax, MinMax and Summary against loopSummary)
//	H387 (measured by hand): all four ops, every type, n=64 and 128 on generic: <= 0.80x the commit before

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver"
)

// BenchmarkShortIntExtremes times dense integer Min, Max, MinMax and
// Summarize around kernel.SmallCut on the avx2, avx512 and generic
// backends, and the plain loops beside them, for H377-H387. Each
// iteration takes the next of 16 inputs of random values.
func BenchmarkShortIntExtremes(b *testing.B) {
	forShortBackends(b, []int{8, 16, 24, 32, 48, 63, 64, 128, 4096}, func(b *testing.B, n int) {
		shortIntCases[int64](b, n)
		shortIntCases[int32](b, n)
		shortIntCases[uint8](b, n)
	})
}

// forShortBackends runs cases for each length of ns on the avx2, avx512
// and generic backends in turn, as sub-benchmarks backend=<name>.
func forShortBackends(b *testing.B, ns []int, cases func(b *testing.B, n int)) {
	forBackends(b, []string{"avx2", "avx512", "generic"}, func(b *testing.B, _ string) {
		for _, n := range ns {
			cases(b, n)
		}
	})
}

// rotation is 16 dense inputs of n random values of T (drawValues'),
// drawn from a generator seeded with n and seed.
func rotation[T number](n int, seed uint64) [16][]T {
	r := rand.New(rand.NewPCG(uint64(n), seed))
	var xs [16][]T
	for k := range xs {
		xs[k] = make([]T, n)
		drawValues(r, xs[k])
	}
	return xs
}

func shortIntCases[T int64 | int32 | uint8](b *testing.B, n int) {
	shortRotatedCases(b, n, rotation[T](n, 377), 0, 0)
}

// shortRotatedCases runs quiver's dense Min, Max, MinMax and Summarize
// and the plain loops (which start from top and bottom) over the 16
// inputs xs, each iteration the next.
func shortRotatedCases[T number](b *testing.B, n int, xs [16][]T, top, bottom T) {
	for _, im := range []struct {
		name string
		f    func([]T) T
	}{
		{"Min/impl=quiver", func(x []T) T { return quiver.Min(x) }},
		{"Max/impl=quiver", func(x []T) T { return quiver.Max(x) }},
		{"MinMax/impl=quiver", func(x []T) T { lo, hi := quiver.MinMax(x); return lo + hi }},
		{"Summary/impl=quiver", func(x []T) T { s := quiver.Summarize(x); return s.Min + s.Max + T(s.Count) }},
		{"Min/impl=loop", func(x []T) T { return loopMin(x, nil, top) }},
		{"Max/impl=loop", func(x []T) T { return loopMax(x, nil, bottom) }},
		{"Summary/impl=loop", func(x []T) T { lo, hi, c := loopSummary(x, nil, top, bottom); return lo + hi + T(c) }},
	} {
		rotatedCell(b, fmt.Sprintf("type=%s/n=%d/op=%s", typeName[T](), n, im.name), &xs, im.f)
	}
}

// rotatedCell runs f as the sub-benchmark name over the 16 inputs ins,
// each iteration the next, its results summed into the sink.
func rotatedCell[T number, I any](b *testing.B, name string, ins *[16]I, f func(I) T) {
	b.Run(name, func(b *testing.B) {
		var s T
		k := 0
		for b.Loop() {
			s += f(ins[k&15])
			k++
		}
		sink = res{uint64(s)}
	})
}
