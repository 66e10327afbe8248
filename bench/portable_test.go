package bench

// The exact sums of 64-bit integers on the generic backend (the portable
// Go that amd64 without AVX2 and the architectures without kernels run) from
// kernel.SmallCut up: they ran the reference's element-by-element 128-bit
// additions, where below the cut the short loops' two carry-free chains of
// halves ran. Registered before measuring, on an Intel Xeon (family 6
// model 207, AVX-512), from the generated ledger of 5f51b59 on that CPU:
// SumChecked int64 on generic took 141 ns at n=64 against 51.6 ns for a
// user's math/bits.Add64 loop (0.367x) and 266 ns against 114 ns at 128;
// at n=32, on the short loop, 33 ns against 38 ns. Ratios are the loop's
// time over quiver's, same run, or the commit before's over this one's:
//
//	H243 (measured by hand): SumChecked int64 nulls=0% n=64/128/4096/65536 on generic: >= 1.0x loop
//	H244 (measured by hand): SumChecked int64 nulls=10% n=64/128/4096/65536 on generic: >= 1.0x loop
//	H245 (measured by hand): SumChecked int64 nulls=0% and 10% n=4096 on generic: >= 2x the commit before

// Dense float Min and Max on the generic backend from kernel.SmallCut up
// by the short loops' two chains of the one extreme (FloatExtremes)
// instead of the portable summary, which computes both extremes in four
// chains. Registered before measuring, on the same CPU, from the
// generated ledger of 5f51b59: generic Min float64 took 7.25 µs at
// n=4096 against 2.89 µs for the plain loop (0.40x), and 109 ns at 64
// against 49.5 ns. Ratios are the commit before's time over this one's:
//
//	H246 (measured by hand): Min and Max float64 and float32 nulls=0% n=4096/65536 on generic: >= 1.6x the commit before
//	H247 (measured by hand): Min and Max float64 and float32 nulls=0% n=64 on generic: >= 1.2x the commit before

import (
	"fmt"
	"testing"

	"github.com/quiverlabs/quiver"
)

// BenchmarkGenericChecked times SumChecked on the generic backend and the
// user's 128-bit loop, for H243-H245.
func BenchmarkGenericChecked(b *testing.B) {
	useBackend(b, "generic")
	for _, n := range []int{64, 128, 4096, 65536} {
		for _, nulls := range []int{0, 10} {
			in := newInput[int64](n, nulls)
			b.Run(fmt.Sprintf("type=int64/n=%d/nulls=%d/impl=generic", n, nulls), func(b *testing.B) {
				var s int64
				for b.Loop() {
					s += quiver.SumChecked(in.x, in.masks...).Sum
				}
				sink = res{uint64(s)}
			})
			b.Run(fmt.Sprintf("type=int64/n=%d/nulls=%d/impl=loop", n, nulls), func(b *testing.B) {
				var s int64
				for b.Loop() {
					v, _ := loopSumChecked(in.x, in.bits)
					s += v
				}
				sink = res{uint64(s)}
			})
		}
	}
}

// BenchmarkGenericExtremes times dense Min and Max on the generic backend
// and the plain loops, for H246 and H247.
func BenchmarkGenericExtremes(b *testing.B) {
	useBackend(b, "generic")
	for _, n := range []int{64, 4096, 65536} {
		genericExtremeCases[float64](b, n)
		genericExtremeCases[float32](b, n)
	}
}

func genericExtremeCases[T float32 | float64](b *testing.B, n int) {
	x := newInput[T](n, 0).x
	runFloatImpls(b, n, x, []floatImpl[T]{
		{"Min/impl=generic", func(x []T) T { return quiver.Min(x) }},
		{"Max/impl=generic", func(x []T) T { return quiver.Max(x) }},
		{"Min/impl=loop", func(x []T) T { return loopMin(x, nil, 0) }},
		{"Max/impl=loop", func(x []T) T { return loopMax(x, nil, 0) }},
	})
}
