package kernel

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver/internal/testkit"
)

// TestSumReproducibleKernels compares every backend's kernels with the
// portable ones on blocks of every length up to 200 and around the block
// size: rangeExp bit for bit; fold by whether a residual is left (which
// does not depend on the lane layout: it is whether a value is off fold
// C's grid) and, when none is, by the exact value of its sums (a tie on a
// fold's grid may round differently in another lane layout, moving a unit
// between the folds but never changing their sum).
func TestSumReproducibleKernels(t *testing.T) {
	forEachISA(t, func(t *testing.T, isa ISA) {
		id := reproIDOf(isa)
		t.Run("float64", func(t *testing.T) { reproKernelDiff(t, reproKernels[float64]{id}, reproGoKernels[float64]()) })
		t.Run("float32", func(t *testing.T) { reproKernelDiff(t, reproKernels[float32]{id}, reproGoKernels[float32]()) })
		t.Run("compress float64", func(t *testing.T) { reproCompressDiff(t, reproKernels[float64]{id}) })
		t.Run("compress float32", func(t *testing.T) { reproCompressDiff(t, reproKernels[float32]{id}) })
	})
}

// reproCompressDiff checks k.compress against a plain filter: the valid
// elements, bit for bit and in order, for every length up to 200 and
// around the chunk, bit offsets 0 to 9, bitmaps of the minimal length
// (shorter than 8 bytes for short inputs) at densities from none to all.
func reproCompressDiff[T float32 | float64](t *testing.T, k reproKernels[T]) {
	r := rand.New(rand.NewPCG(6, 105))
	var lengths []int
	for n := 0; n <= 200; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 255, 256, 257, ReproChunk-1, ReproChunk)
	for _, n := range lengths {
		x := testkit.Values[T](r, n, testkit.Plain)
		for i := range x {
			if r.IntN(4) == 0 {
				x[i] = nanWithPayload[T]()
			}
		}
		for off := range 10 {
			for _, frac := range []float64{0, 0.1, 0.5, 0.9, 1} {
				bits := testkit.Bitmap(r, n, off, frac)
				want := testkit.Participating(x, bits, off, nil, false)
				dst := make([]T, n)
				got := dst[:k.compress(dst, x, bits, off)]
				what := fmt.Sprintf("n=%d off=%d valid=%v", n, off, frac)
				if len(got) != len(want) {
					t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
				}
				for i := range got {
					if testkit.Bits(got[i]) != testkit.Bits(want[i]) {
						t.Fatalf("%s: value %d is %#x, want %#x", what, i, testkit.Bits(got[i]), testkit.Bits(want[i]))
					}
				}
			}
		}
	}
}

func reproKernelDiff[T float32 | float64](t *testing.T, k, g reproKernels[T]) {
	r := rand.New(rand.NewPCG(5, 105))
	var lengths []int
	for n := 0; n <= 200; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 255, 256, 257, 1000, 4095, 4096)
	for _, n := range lengths {
		for name, x := range testkit.ReproInputs[T](r, n) {
			what := fmt.Sprintf("%s n=%d", name, n)
			e, lo := k.rangeExp(x)
			if ge, glo := g.rangeExp(x); e != ge || lo != glo {
				t.Fatalf("%s: rangeExp %d, %d; portable %d, %d", what, e, lo, ge, glo)
			}
			e64 := reproExp64[T](e)
			if e64 == 0 {
				continue
			}
			mA, mB, mC := reproMagic(e64)
			a, b, c, res := k.fold(x, mA, mB, mC)
			ga, gb, gc, gres := g.fold(x, mA, mB, mC)
			if (res == 0) != (gres == 0) {
				t.Fatalf("%s: residual %#x, portable %#x", what, res, gres)
			}
			if res != 0 {
				// Not all values are on fold B's grid: a value halfway
				// between two grid points may round either way, so the
				// sums are not comparable; Add redoes such a block.
				continue
			}
			var got, want ReproAcc
			got.depositUnits(a, mA)
			got.depositUnits(b, mB)
			got.depositUnits(c, mC)
			want.depositUnits(ga, mA)
			want.depositUnits(gb, mB)
			want.depositUnits(gc, mC)
			got.normalize()
			want.normalize()
			if got.digits != want.digits {
				t.Fatalf("%s: fold sums %v + %v + %v, portable %v + %v + %v", what, a, b, c, ga, gb, gc)
			}
		}
	}
}
