package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// TestReproFoldRange checks, on every backend whose kernels fold a block
// and run the range pass of the next one in the same loop (hasFoldRange),
// that the range it returns for the next block is rangeExp's bit for bit,
// and that its fold sums and residual are those of foldPlan for every
// plan the block allows: for blocks of every multiple of the fold step up
// to 256 and around the block size, each input of ReproInputs and
// ReproThresholdInputs as the next block after each other one.
func TestReproFoldRange(t *testing.T) {
	forEachISA(t, func(t *testing.T, isa ISA) {
		id := reproIDOf(isa)
		t.Run("float64", func(t *testing.T) { reproFoldRangeDiff(t, reproKernels[float64]{id}) })
		t.Run("float32", func(t *testing.T) { reproFoldRangeDiff(t, reproKernels[float32]{id}) })
	})
}

func reproFoldRangeDiff[T float32 | float64](t *testing.T, k reproKernels[T]) {
	if !k.hasFoldRange() {
		t.Skip("no fused range kernel")
	}
	r := rand.New(rand.NewPCG(8, 105))
	_, step := reproSteps[T](k.id)
	var lengths []int
	for n := step; n <= 256; n += step {
		lengths = append(lengths, n)
	}
	if !testing.Short() {
		lengths = append(lengths, 4096-step, 4096)
	}
	for _, n := range lengths {
		inputs := map[string][]T{}
		for name, x := range testkit.ReproInputs[T](r, n) {
			inputs[name] = x
		}
		for name, in := range testkit.ReproThresholdInputs[T](r, n) {
			inputs[name] = in.X
		}
		// The next block may be longer than the kernel's share of x
		// (the rest takes the separate range pass) but not shorter.
		for xname, x := range inputs {
			for nname, next := range inputs {
				what := fmt.Sprintf("n=%d x=%s next=%s", n, xname, nname)
				wantHi, wantLo := k.rangeExp(next)
				if gh, gl := reproRangeGo(next); gh != wantHi || gl != wantLo {
					t.Fatalf("%s: rangeExp %d, %d; portable %d, %d", what, wantHi, wantLo, gh, gl)
				}
				e, p := k.plan(x)
				if e == 0 {
					continue
				}
				mA, mB, mC := reproMagic(e)
				if full := len(x) - len(x)%step; full == 0 || len(next) < full {
					// No kernel share of x, or a next block shorter than
					// it: not fused.
					if _, _, _, _, _, _, ok := k.foldPlanRange(x, next, p, mA, mB, mC); ok {
						t.Fatalf("%s: fused with a next block of %d", what, len(next))
					}
					continue
				}
				for q := p; ; q-- {
					a, b, c, res, hi, lo, ok := k.foldPlanRange(x, next, q, mA, mB, mC)
					if !ok {
						t.Fatalf("%s: the fused kernel did not take the blocks", what)
					}
					if hi != wantHi || lo != wantLo {
						t.Fatalf("%s plan %d: range of the next block %d, %d; want %d, %d", what, q, hi, lo, wantHi, wantLo)
					}
					ga, gb, gc, gres := k.foldPlan(x, nil, q, mA, mB, mC)
					if (res == 0) != (gres == 0) {
						t.Fatalf("%s plan %d: residual %#x, folds alone %#x", what, q, res, gres)
					}
					if res == 0 {
						var got, want ReproAcc
						for _, v := range []float64{a, b, c} {
							got.deposit(v)
						}
						for _, v := range []float64{ga, gb, gc} {
							want.deposit(v)
						}
						got.normalize()
						want.normalize()
						if got.digits != want.digits {
							t.Fatalf("%s plan %d: fold sums %v + %v + %v, folds alone %v + %v + %v", what, q, a, b, c, ga, gb, gc)
						}
					}
					if q == reproC3 {
						break
					}
				}
			}
		}
	}
}

// TestReproDenseBlockPlans sums dense inputs of several blocks whose
// neighbours need different plans, so that a block's plan comes from the
// range pass that ran with the folds of the block before it: blocks
// within 24 binades, within 63, beyond (a subnormal, a value far below
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
	// narrow: 20 binades (reproX2); wide: 40 (float64 reproX3; float32
	// reproX2); the probes lie beyond each plan's reach.
	narrow := func(i int) T { return T(math.Ldexp(1+r.Float64(), r.IntN(20)-10) * float64(1-2*(i&1))) }
	wide := func(int) T { return T(math.Ldexp(r.Float64()*2-1, r.IntN(40)-20)) }
	probes := []T{
		T(math.Ldexp(1, -40)),  // 30 binades below narrow's smallest: off fold B's grid
		T(math.Ldexp(3, -100)), // 80 below: off fold C's grid of a float64 block
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
			for _, fill := range []func(int) T{narrow, wide} {
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
