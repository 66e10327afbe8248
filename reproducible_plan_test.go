package quiver

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/kernel"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// TestSumReproducibleThresholds checks SumReproducible against math/big on
// every backend for blocks at the thresholds where the folds are cut short
// (testkit.ReproThresholdInputs), alone and run together into inputs of
// several blocks (each block chooses its folds on its own, and the fold
// kernels fetch the next block ahead), with special values added.
func TestSumReproducibleThresholds(t *testing.T) {
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		t.Run("float64", func(t *testing.T) { reproThresholds[float64](t) })
		t.Run("float32", func(t *testing.T) { reproThresholds[float32](t) })
	})
}

func reproThresholds[T constraints.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(8, 105))
	sizes := []int{2, 3, 31, 64, 65, 1000, 4096}
	if testing.Short() {
		sizes = []int{2, 65, 4096}
	}
	for _, n := range sizes {
		var all []T
		inputs := testkit.ReproThresholdInputs[T](r, n, kernel.ReproSpans())
		for _, name := range slices.Sorted(maps.Keys(inputs)) {
			in := inputs[name]
			what := fmt.Sprintf("%s n=%d", name, n)
			wantSame(t, what, SumReproducible(in.X), exactSum(in.X))
			all = append(all, in.X...)
		}
		if n == 4096 || n == 1000 {
			// Blocks of different tops and plans after one another.
			wantSame(t, fmt.Sprintf("all blocks n=%d", n), SumReproducible(all), exactSum(all))
			for _, s := range []T{posInf[T](), nanWithPayload[T](), negZero[T]()} {
				x := append([]T{}, all...)
				x[r.IntN(len(x))] = s
				wantSame(t, fmt.Sprintf("all blocks n=%d with %v", n, s), SumReproducible(x), exactSum(x))
			}
		}
	}
}
