package quiver

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/kernel"
	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// TestSumReproducibleThresholds checks SumReproducible against math/big on
// every backend for blocks at the thresholds where the folds are cut short
// (testkit.ReproThresholdInputs), alone and run together into inputs of
// several blocks (each block chooses its folds on its own, and the fold
// kernels fetch the next block ahead), with special values added. The
// inputs and their exact sums are made once for all backends: math/big
// took most of the test's time when each backend summed them again.
func TestSumReproducibleThresholds(t *testing.T) {
	t.Run("float64", func(t *testing.T) { reproThresholds[float64](t) })
	t.Run("float32", func(t *testing.T) { reproThresholds[float32](t) })
}

// reproCase is an input and its sum by math/big (exactSum).
type reproCase[T constraints.Float] struct {
	what string
	x    []T
	want T
}

func reproThresholds[T constraints.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(8, 105))
	sizes := []int{2, 3, 31, 64, 65, 1000, 4096}
	if testing.Short() {
		sizes = []int{2, 65, 4096}
	}
	var cases []reproCase[T]
	add := func(what string, x []T) { cases = append(cases, reproCase[T]{what, x, exactSum(x)}) }
	for _, n := range sizes {
		var all []T
		inputs := testkit.ReproThresholdInputs[T](r, n, kernel.ReproSpans())
		for _, name := range slices.Sorted(maps.Keys(inputs)) {
			in := inputs[name]
			add(fmt.Sprintf("%s n=%d", name, n), in.X)
			all = append(all, in.X...)
		}
		if n == 4096 || n == 1000 {
			// Blocks of different tops and plans after one another.
			add(fmt.Sprintf("all blocks n=%d", n), all)
			for _, s := range []T{posInf[T](), nanWithPayload[T](), negZero[T]()} {
				x := append([]T{}, all...)
				x[r.IntN(len(x))] = s
				add(fmt.Sprintf("all blocks n=%d with %v", n, s), x)
			}
		}
	}
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		for _, c := range cases {
			wantSame(t, c.what, SumReproducible(c.x), c.want)
		}
	})
}

// TestSumReproducibleStreamBlocks checks one Add of 64 MB and more, where
// the AVX-512 backend streams (the fold kernel of each block runs the
// range pass of the next, so a wrong range there gives the next block a
// wrong plan), made of blocks of every kind one after another in random
// order: the plans' thresholds (testkit.ReproThresholdInputs), spreads
// that need the checked folds or the per-value path, zeros, subnormals,
// huge values, and a NaN and infinities. The exact sum must be the one
// math/big finds from the pool blocks' sums, and the scalar backend in
// 256K-element batches (compared in the state's canonical encoding), both
// before rounding: a lost last bit of any block shows there even where the
// rounded result hides it.
// The input is also fed from 7 elements in, so that the blocks of the
// Add straddle those of the pool.
func TestSumReproducibleStreamBlocks(t *testing.T) {
	if testing.Short() {
		t.Skip("inputs of 64 MB")
	}
	t.Run("float64", func(t *testing.T) { reproStreamBlocks[float64](t) })
	t.Run("float32", func(t *testing.T) { reproStreamBlocks[float32](t) })
}

func reproStreamBlocks[T constraints.Float](t *testing.T) {
	const block = 4096
	r := rand.New(rand.NewPCG(21, 105))
	var pool [][]T
	thresholds := testkit.ReproThresholdInputs[T](r, block, kernel.ReproSpans())
	for _, name := range slices.Sorted(maps.Keys(thresholds)) {
		pool = append(pool, thresholds[name].X)
	}
	others := testkit.ReproInputs[T](r, block)
	for _, name := range slices.Sorted(maps.Keys(others)) {
		pool = append(pool, others[name])
	}
	// 64 MB and three blocks and a few elements more. exact follows the
	// exact sum of x's finite values from the pool blocks' sums.
	sums := make([]*big.Float, len(pool))
	for k, b := range pool {
		sums[k] = finiteSum(b)
	}
	exact := new(big.Float).SetPrec(2400)
	size := 8
	if num.KindOf[T]() == num.Float32 {
		size = 4
	}
	n := 64<<20/size + 3*block + 5
	x := make([]T, 0, n+block)
	for len(x) < n {
		k := r.IntN(len(pool))
		x = append(x, pool[k]...)
		exact.Add(exact, sums[k])
	}
	exact.Sub(exact, finiteSum(x[n:]))
	x = x[:n]
	for _, s := range []T{nanWithPayload[T](), posInf[T](), T(math.Inf(-1))} {
		i := r.IntN(n/block)*block + block - 1 // the last element of a block
		exact.Sub(exact, finiteSum(x[i:i+1]))
		x[i] = s
	}
	encode := func(s *SumReproducibleState[T]) []byte {
		b, err := s.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	prev := ActiveBackend().Name
	t.Cleanup(func() {
		if err := SetBackend(prev); err != nil {
			t.Fatal(err)
		}
	})
	for _, from := range []int{0, 7} {
		in := x[from:]
		exact.Sub(exact, finiteSum(x[:from]))
		if err := SetBackend("scalar"); err != nil {
			t.Fatal(err)
		}
		var batched SumReproducibleState[T]
		for i := 0; i < len(in); i += 1 << 18 {
			batched.Add(in[i:min(i+1<<18, len(in))])
		}
		want := encode(&batched)
		forEachBackend(t, func(t *testing.T, b BackendInfo) {
			var s SumReproducibleState[T]
			s.Add(in)
			if got := canonValue(s.acc.Canon()); got.Cmp(exact) != 0 {
				t.Errorf("from %d: the state of one Add of %d elements is off the exact sum by %s", from, len(in), new(big.Float).Sub(got, exact).Text('g', 10))
			}
			if got := encode(&s); !bytes.Equal(got, want) {
				t.Errorf("from %d: one Add of %d elements encodes as %x..., in batches on scalar %x... (%d and %d bytes)",
					from, len(in), got[:min(len(got), 24)], want[:min(len(want), 24)], len(got), len(want))
			}
		})
	}
}
