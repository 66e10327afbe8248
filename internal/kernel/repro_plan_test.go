package kernel

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/quiverlabs/quiver/internal/testkit"
)

// TestReproPlans checks the range pass and the plans that cut the folds
// short (reproX3, reproX2) on every backend's kernels: rangeExp against
// the portable pass and against the fields it bounds, and the fold sums of
// the chosen plan, and of every plan that checks more, against the exact
// sum of the block value by value. On the threshold blocks whose probe
// lies one binade below a threshold, the next cheaper plan than the chosen
// one must lose the probe's last bit: a guard that let it through would
// give a wrong sum. Each block is also folded by foldNext, followed by
// another input of its length, whose range must come out as rangeExp's.
// The ISAs without kernels of their own (generic and scalar) share the
// portable ones, which run once.
func TestReproPlans(t *testing.T) {
	seen := map[reproID]bool{}
	forEachISA(t, func(t *testing.T, isa ISA) {
		id := reproIDOf(isa)
		if seen[id] {
			t.Skipf("the kernels of %s ran above", isa)
		}
		seen[id] = true
		t.Run("float64", func(t *testing.T) { reproPlanDiff(t, reproKernels[float64]{id}) })
		t.Run("float32", func(t *testing.T) { reproPlanDiff(t, reproKernels[float32]{id}) })
	})
}

func reproPlanDiff[T float32 | float64](t *testing.T, k reproKernels[T]) {
	r := rand.New(rand.NewPCG(7, 105))
	var lengths []int
	for n := 2; n <= 130; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 255, 256, 257, 1000, 4095, 4096)
	plans := map[reproPlan]string{reproC3: "C3", reproX3: "X3", reproX2: "X2"}
	for _, n := range lengths {
		inputs := map[string]testkit.ReproProbe[T]{}
		for name, x := range testkit.ReproInputs[T](r, n) {
			inputs[name] = testkit.ReproProbe[T]{X: x}
		}
		for name, in := range testkit.ReproThresholdInputs[T](r, n, ReproSpans()) {
			inputs[name] = in
		}
		names := slices.Sorted(maps.Keys(inputs))
		for i, name := range names {
			in := inputs[name]
			x := in.X
			nx := x // the next input of x's length after x, if any
			for j := 1; j < len(names); j++ {
				if y := inputs[names[(i+j)%len(names)]].X; len(y) == len(x) {
					nx = y
					break
				}
			}
			what := fmt.Sprintf("%s n=%d", name, n)
			hi, lo := reproRangeGo(x)
			if h, l := k.rangeExp(x); h != hi || l != lo {
				t.Fatalf("%s: rangeExp %d, %d; portable %d, %d", what, h, l, hi, lo)
			}
			wantHi, wantLo := reproFields(x)
			if hi != wantHi || lo > wantLo || lo < wantLo-1 {
				t.Fatalf("%s: range pass %d, %d; fields %d, %d (the low one may read one less)", what, hi, lo, wantHi, wantLo)
			}
			e, p := k.plan(x)
			if e == 0 {
				continue
			}
			// exact reports whether the fold sums of plan q (and the
			// residuals it leaves, deposited one by one) less the values
			// of x, one by one, are zero. The values are deposited once,
			// into negX, which each check copies.
			var negX ReproAcc
			for _, v := range x {
				negX.deposit(-float64(v))
			}
			exact := func(q reproPlan, next []T, withNext bool) bool {
				d := negX
				mA, mB, mC := reproMagic(e)
				var a, b, c int64
				var res uint64
				if withNext {
					var h, l int
					a, b, c, res, h, l = k.foldNext(x, next, q, mA, mB, mC)
					if wh, wl := reproRangeGo(next); h != wh || l != wl {
						t.Fatalf("%s: foldNext's range of the next block %d, %d; portable %d, %d", what, h, l, wh, wl)
					}
				} else {
					a, b, c, res = k.foldPlan(x, next, q, mA, mB, mC)
				}
				if res != 0 {
					a, b, c = reproFoldDeposit(&d, x, mA, mB, mC)
				}
				d.depositUnits(a, mA)
				d.depositUnits(b, mB)
				d.depositUnits(c, mC)
				d.normalize()
				return d.digits == [reproDigits]int64{}
			}
			for q := reproC3; q <= p; q++ {
				if !exact(q, nil, false) || !exact(q, x, false) || !exact(q, nx, true) {
					t.Fatalf("%s: plan %s (chosen %s) does not give the exact sum", what, plans[q], plans[p])
				}
			}
			if in.Over {
				if p == reproX2 {
					t.Fatalf("%s: the probe below a threshold left the plan at %s", what, plans[p])
				}
				if exact(p+1, nil, false) {
					t.Fatalf("%s: plan %s (one cheaper than the chosen %s) gives the exact sum: the input does not probe the threshold", what, plans[p+1], plans[p])
				}
			}
		}
	}
}

// reproFields returns the largest exponent field of x and the smallest
// among the values other than zero (0xFFF for float64, 0x1FF for float32
// when there is none), read from the bits one value at a time.
func reproFields[T float32 | float64](x []T) (hi, lo int) {
	lo = 0xFFF
	for _, v := range x {
		var f int
		var zero bool
		switch v := any(v).(type) {
		case float32:
			f, zero = int(math.Float32bits(v)>>23&0xFF), v == 0
			lo = min(lo, 0x1FF)
		case float64:
			f, zero = int(math.Float64bits(v)>>52&0x7FF), v == 0
		}
		hi = max(hi, f)
		if !zero {
			lo = min(lo, f)
		}
	}
	return hi, lo
}
