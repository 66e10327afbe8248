package kernel

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver/internal/num"
)

// TestReproDenseBlockPlans sums dense inputs of several blocks whose
// neighbours need different plans (each block's plan must come from its
// own range pass, whichever kernel runs it, and the fold kernel of one
// block prefetches the next): blocks within 20 and 40 binades and
// blocks with a value beyond (a subnormal, a value far below
// the rest, a value at 2^1009 or more), with infinities, NaNs, zeros
// only, and the value that defeats the cheaper plan at the first, a
// middle and the last element of the block, then a ragged tail. Every
// backend's result must be the exact sum of the values added one by one.
func TestReproDenseBlockPlans(t *testing.T) {
	forEachISA(t, func(t *testing.T, isa ISA) {
		id := reproIDOf(isa)
		t.Run("float64", func(t *testing.T) { reproDenseBlockPlans(t, reproKernels[float64]{id}) })
		t.Run("float32", func(t *testing.T) { reproDenseBlockPlans(t, reproKernels[float32]{id}) })
	})
}

func reproDenseBlockPlans[T float32 | float64](t *testing.T, k reproKernels[T]) {
	r := rand.New(rand.NewPCG(9, 105))
	f32 := num.KindOf[T]() == num.Float32
	// narrow: 20 binades (reproX2); wide: 40 and a uniform factor, whose
	// small values reach further (float64 reproX3; float32 reproX2);
	// vast: 60 binades (float64 reproX3, beyond the 63 of the grids
	// before the flushes); the probes lie beyond each plan's reach.
	narrow := func(i int) T { return T(math.Ldexp(1+r.Float64(), r.IntN(20)-10) * float64(1-2*(i&1))) }
	wide := func(int) T { return T(math.Ldexp(r.Float64()*2-1, r.IntN(40)-20)) }
	vast := func(i int) T { return T(math.Ldexp(1+r.Float64(), r.IntN(60)-30) * float64(1-2*(i&1))) }
	probes := []T{
		// Binades below the largest of a narrow, wide and vast block
		// (about 2^10, 2^20, 2^30): 50, 60, 70; off fold B's grid, and
		// in a vast block beyond the 63 binades of the grids before the
		// flushes but on fold C's grid.
		T(math.Ldexp(1, -40)),
		T(math.Ldexp(3, -100)), // 108 to 128 below: off fold C's grid of a float64 block
		T(math.Ldexp(1, -149)), // the smallest float32 subnormal
		T(math.SmallestNonzeroFloat64),
		-T(math.Ldexp(1, -1074+3)),
		T(math.Ldexp(1, 1009)), // beyond the folds (float64)
		T(math.Inf(1)),
		T(math.NaN()),
		0,
	}
	if f32 {
		probes = probes[:3]
		probes = append(probes, T(math.Inf(-1)), T(math.NaN()), T(math.MaxFloat32))
	}
	const blk = reproBlock
	for _, probe := range probes {
		for _, at := range []int{0, 1, 17, blk / 2, blk - 16, blk - 1} {
			for _, fill := range []func(int) T{narrow, wide, vast} {
				// Blocks: plain, the probe's block, plain, zeros, plain,
				// a ragged tail.
				n := 5*blk + 100 + r.IntN(50)
				x := make([]T, n)
				for i := range x {
					x[i] = fill(i)
				}
				x[blk+at] = probe
				for i := 3 * blk; i < 4*blk; i++ {
					x[i] = 0
				}
				x[n-1-at%50] = probe
				var got, want ReproAcc
				reproAddDense(&got, k, x)
				for _, v := range x {
					want.addOne(float64(v))
				}
				want.settle()
				if got.Canon() != want.Canon() {
					t.Fatalf("probe %v at %d: sum differs from the value-by-value sum", probe, at)
				}
			}
		}
	}
}
