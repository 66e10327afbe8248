package bench

import (
	"math"
	"testing"
)

// Dense float Min, Max, MinMax and Summarize below the kernels' cut, by
// the builtin min in two chains per extreme instead of the reference's
// compare-and-branch loops. On amd64 Go compiles min(a, b) of floats to
// two MINSD and a POR, without a branch: the NaN propagates and -0 is
// below +0, so the result is NaN exactly when an element is, and a zero
// result is settled to the first zero in index order as before (other
// equal values have equal bits). Max runs the same chains on the negated
// elements. Registered on 2026-12-06 on an AMD EPYC (family 26 model 2,
// Zen 5 class, AVX-512), from a probe of the kernel package (16 rotating
// inputs of random float64, ns a call): one extreme 4.3 against 7.0 at
// n=8, 8.8 against 10.5 at 16, 13.3 against 14.5 at 24, level at 32;
// both extremes 6.9 against 9.2 at 8, 12.7 against 14.5 at 16, 19.9
// against 20.6 at 24, 27 against 26 at 32. The chains' latency (two MINSD
// and a POR, 7 cycles an element) loses to the predicted branches of long
// inputs: 3.5 against 1.4 us at 4096. So the chains run below 32 elements
// and the branches from there (the generic backend runs these loops at
// every length). On AVX2 and AVX-512, Min and Max run the loops up to 24
// elements (the kernels from 24, 16 before) and MinMax and Summarize up
// to 16, as before. Baseline on the same CPU (BenchmarkShortFloatExtremes,
// avx512, float64): Min 7.2, 9.2, 10.6, 13.2 ns at n=4, 8, 12, 16 against
// the plain loop's 3.4, 6.2, 8.4, 10.6; MinMax 7.6, 11.3, 14.5 at 4, 8, 12.
//
// Ratios are this change's time over the commit before's, medians of
// BenchmarkShortFloatExtremes (and BenchmarkGenericExtremes) run
// alternately from the two commits' bench binaries (8 passes), or the
// plain loop's time over quiver's in the same run:
//
//	H396 (measured by hand): Min and Max float64 and float32 n=2/4/8/12 on avx512 and avx2: <= 0.80x
//	H397 (measured by hand): MinMax and Summary float64 and float32 n=4/8/12 on avx512 and avx2: <= 0.85x
//	H398 (measured by hand): Min and Max float64 and float32 n=16 on avx512 and avx2 (kernels before, loops after): <= 0.85x; every op at n=24/32/48: <= 1.03x
//	H399 (measured by hand): every op float64 and float32 n=2 to 24 on generic: <= 0.85x; n=32 and 48: <= 1.03x
//	H400 (measured by hand): Min float64 n=8 and 16 on avx512 after the change: >= 0.9x the plain loop's speed (the ledger's H49 and H50 ask 0.8x)
//	H401 (measured by hand): BenchmarkGenericExtremes (n=64, 4096, 65536): <= 1.03x
//
// kernel.ChainMinMax was over the inliner's budget (cost 95), so MinMax
// and Summarize kept a call to it. Its second chains now start from the
// last element and its loop may take an element twice (min is
// idempotent), so it has no tail; registered before that change, same
// method, 2f8079a's (or the commit before's) bench binary against the
// change's:
//
//	H402 (measured by hand): MinMax and Summary float64 and float32 n=4/8/12 on avx512 and generic: <= 0.92x

// BenchmarkShortFloatExtremes times dense float Min, Max, MinMax and
// Summarize at short lengths on the avx2, avx512 and generic backends, and
// the plain loops beside them. Each iteration takes the next of 16 inputs
// of random values, so that no branch predictor learns one.
func BenchmarkShortFloatExtremes(b *testing.B) {
	forShortBackends(b, []int{2, 4, 8, 12, 16, 24, 32, 48}, func(b *testing.B, n int) {
		shortRotatedCases(b, n, rotation[float64](n, 396), math.Inf(1), math.Inf(-1))
		shortRotatedCases(b, n, rotation[float32](n, 396), float32(math.Inf(1)), float32(math.Inf(-1)))
	})
}
