package bench

// Pre-registered hypotheses for SumReproducible (ADR-105), written before
// any number was measured; targets from the project's issue. "loop" is the
// plain strict Go loop (loopSumFloat, Sum's baseline too); "sum-<backend>"
// is quiver.Sum on that backend in the same run, so the ratio prices
// exactness against the fastest order-dependent sum. The AVX2 targets
// assume a core with two vector add ports (Skylake and later, Zen): the
// folds are bound by their six adds per vector.
//
//	H105: SumReproducible float64 n=4096 nulls=0%: avx512 >= 3x loop              exponent pass + two folds, 8 lanes, vs the strict fold
//	H106: SumReproducible float64 n=4096 nulls=0%: avx2 >= 3x loop                4 lanes
//	H107: SumReproducible float64 n=4096 nulls=0%: avx512 >= 5x loop              the aim
//	H108: SumReproducible float64 n=1048576 nulls=0%: avx512 >= 0.5x sum-avx512   one pass from memory, the folds' second read from cache
//	H109: SumReproducible float64 n=1048576 nulls=0%: avx2 >= 0.5x sum-avx2
//	H110: SumReproducible float64 n=4096 nulls=0%: generic >= 0.4x loop           portable Go: at most 2.5x the loop's time
//	H111: SumReproducible float32 n=4096 nulls=0%: avx512 >= 3x loop              widened to float64 lanes in the fold
//	H112: SumReproducible float64 n=4096 nulls=10%: avx512 >= 0.15x loop         masked input runs portable Go on every backend (registered after a first sanity run)
//
// Registered on 2026-11-30 after a development run of the AVX-512
// compress kernel (the valid values packed a vector at a time before the
// folds), before the ledger run that measures it:
//
//	H121: SumReproducible float64 n=4096 nulls=10%: avx512 >= 1.2x loop         compress kernel instead of a Go copy loop
//	H122: SumReproducible float32 n=4096 nulls=10%: avx512 >= 1.2x loop
//	H123: SumReproducible float64 n=1048576 nulls=10%: avx512 >= 2x loop
//
// Registered on 2026-11-30 after a development run of the AVX2 compress
// kernel (a table of VPERMPS permutations), before the ledger run that
// measures it:
//
//	H130: SumReproducible float64 n=4096 nulls=10%: avx2 >= 1.2x loop           VPERMPS from a table instead of a Go copy loop
//	H131: SumReproducible float32 n=4096 nulls=10%: avx2 >= 1.2x loop

import (
	"math"
	"testing"

	"github.com/quiverlabs/quiver"
)

func BenchmarkSumReproducible(b *testing.B) { runSuites(b, reproSuites) }

var reproSuites = []suite{
	newSuiteOver("SumReproducible", reproMatrix, reproImpls[float64], closeSum[float64]),
	newSuiteOver("SumReproducible", reproMatrix, reproImpls[float32], closeSum[float32]),
}

// reproMatrix is the hypotheses' sizes, dense and with 10% nulls (the
// masked path is portable Go on every backend).
func reproMatrix(m mode) []shape {
	if m == full {
		return grid([]int{4096, 1 << 20}, []int{0, 10}, []string{""})
	}
	return grid([]int{4096}, []int{0, 10}, []string{""})
}

// reproImpls returns SumReproducible on in and its baselines: the plain
// loop and, dense, quiver.Sum on every backend this CPU runs, each as an
// implementation named sum-<backend>.
func reproImpls[T ~float32 | ~float64](in *input[T]) (func() res, []impl) {
	x, ms, bm := in.x, in.masks, in.bits
	q := func() res { return res{bitsOf(quiver.SumReproducible(x, ms...))} }
	var alts []impl
	if bm == nil {
		alts = append(alts, impl{name: "loop", run: func() res { return res{bitsOf(loopSumFloat(x))} }})
		for _, b := range quiver.Backends() {
			if b.Available {
				alts = append(alts, impl{name: "sum-" + b.Name, backend: b.Name,
					run: func() res { return res{bitsOf(quiver.Sum(x))} }})
			}
		}
	} else {
		alts = append(alts, impl{name: "loop", run: func() res { return res{bitsOf(loopSumFloatMasked(x, bm))} }})
	}
	return q, alts
}

// TestReproducibleImplsAgree checks every implementation of the
// SumReproducible matrix against the strict reference, as TestImplsAgree
// does for the rest, and that every backend gives SumReproducible's bits
// exactly.
func TestReproducibleImplsAgree(t *testing.T) {
	m := full
	if testing.Short() {
		m = testShort
	}
	for _, s := range reproSuites {
		for _, sh := range s.shapes(m) {
			s.verify(t, sh)
		}
	}
	in := newInput[float64](70000, 0)
	want := math.Float64bits(withBackendFloat(t, "scalar", func() float64 { return quiver.SumReproducible(in.x) }))
	for _, b := range quiver.Backends() {
		if !b.Available {
			continue
		}
		if got := math.Float64bits(withBackendFloat(t, b.Name, func() float64 { return quiver.SumReproducible(in.x) })); got != want {
			t.Errorf("%s: SumReproducible %#x, scalar %#x", b.Name, got, want)
		}
	}
}

func withBackendFloat(tb testing.TB, name string, f func() float64) float64 {
	return math.Float64frombits(withBackend(tb, name, func() res { return res{math.Float64bits(f())} })[0])
}
