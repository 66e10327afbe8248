package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver"
)

// The wrapping 64-bit integer sums over an ascending selection without a
// bitmap gathered the selected elements on AVX2 and AVX-512 (VPGATHERDQ,
// 4 or 8 lanes a gather, two gathers a step). On the AMD EPYC family 26
// model 2 (Zen 5) of the generated ledger that lost to the plain loop
// (H60: 0.718x the loop's speed), and so it did on the Ice Lake Xeon
// (0.59x), whose microcode slows every gather (the Gather Data Sampling
// mitigation). A probe of the kernels on the Zen 5 (int64, sorted
// selections of 1, 5, 10 and 20% of n, 4 passes) timed both gathers
// against the Go loop of select.go with four accumulators, which checks
// each index as it reads it: at n=65536 the AVX-512 gather took 1.22-1.30x
// the Go loop's time and the AVX2 one 1.33-1.40x; at n=1M (8 MB, in L3)
// 0.98-1.27x and 0.98-1.31x. The change: every wrapping integer sum
// over a selection is the Go loop, on every backend. Registered on
// 2026-12-06 on the AMD EPYC family 26 model 2 after that probe and
// before the change was measured; the bench binaries of the commit
// before and after run alternately, ratio time after over time before:
//
//	H369 (measured by hand): BenchmarkSelSumInt64 n=65536, every density, impl=avx512 and avx2 on Zen 5: time <= 0.85x before by the medians
//	H370 (measured by hand): BenchmarkSelSumInt64 n=1048576, every density, impl=avx512 and avx2 on Zen 5: time <= 1.02x before by the medians
//	H371 (measured by hand): BenchmarkSum type=int64 n=65536 nulls=0 sel=sorted10 impl=avx512 (the ledger's H60) on Zen 5: time <= 0.85x before by the medians
//
// Gathers paid on the Zen 4 (family 25 model 17: H60 1.31x the plain
// loop) and the Sapphire Rapids Xeon (family 6 model 207: 1.13x), where
// the Go loop with four accumulators was never timed beside them.

// BenchmarkSelSumInt64 times quiver.Sum over int64 with an ascending
// selection of 1, 5, 10 and 20% of the rows, without a bitmap, on each
// backend of this CPU:
//
//	go test -run '^$' -bench SelSumInt64 -count 6 .
func BenchmarkSelSumInt64(b *testing.B) {
	for _, n := range []int{65536, 1 << 20} {
		x := make([]int64, n)
		r := rand.New(rand.NewPCG(21, uint64(n)))
		for i := range x {
			x[i] = r.Int64N(1 << 40)
		}
		for _, pct := range []int{1, 5, 10, 20} {
			sel := newSelection(n, fmt.Sprintf("sorted%d", pct))
			want := selSumSigned(x, sel, nil)
			for _, be := range quiver.Backends() {
				if !be.Available {
					continue
				}
				b.Run(fmt.Sprintf("n=%d/sel=sorted%d/impl=%s", n, pct, be.Name), func(b *testing.B) {
					onBackend(b, be.Name, func(b *testing.B) {
						m := quiver.Select(sel)
						if got := quiver.SumInt(x, m); got != want {
							b.Fatalf("Sum = %d, the loop %d", got, want)
						}
						var s int64
						for b.Loop() {
							s += quiver.SumInt(x, m)
						}
						sinkInt = s
					})
				})
			}
		}
	}
}
