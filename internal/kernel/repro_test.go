package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// TestSumReproducibleKernels compares every backend's kernels with the
// portable ones on blocks of every length up to 200 and around the block
// size: maxExp bit for bit; fold by whether a residual is left (which does
// not depend on the lane layout: it is whether a value is off fold B's
// grid) and, when none is, by the exact value of its two sums (a tie on
// fold A's grid may round differently in another lane layout, moving a
// unit between the folds but never changing their sum).
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
				want := participating(x, bits, off, nil, false)
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
		for name, x := range reproInputs[T](r, n) {
			what := fmt.Sprintf("%s n=%d", name, n)
			e := k.maxExp(x)
			if ge := g.maxExp(x); e != ge {
				t.Fatalf("%s: maxExp %d, portable %d", what, e, ge)
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
			got.deposit(a)
			got.deposit(b)
			got.deposit(c)
			want.deposit(ga)
			want.deposit(gb)
			want.deposit(gc)
			got.normalize()
			want.normalize()
			if got.digits != want.digits {
				t.Fatalf("%s: fold sums %v + %v + %v, portable %v + %v + %v", what, a, b, c, ga, gb, gc)
			}
		}
	}
}

// participating lists the values a Mask lets through, in visiting order.
func participating[T any](x []T, bits []byte, off int, sel []uint32, hasSel bool) []T {
	var out []T
	visit := func(i int) {
		if bits == nil || bits[(off+i)>>3]>>((off+i)&7)&1 != 0 {
			out = append(out, x[i])
		}
	}
	if hasSel {
		for _, i := range sel {
			visit(int(i))
		}
		return out
	}
	for i := range x {
		visit(i)
	}
	return out
}

// reproInputs returns named inputs that stress the exact sum: moderate
// values, heavy cancellation, the whole exponent range, subnormals, ties
// of the final rounding, blocks that need the residual path, and the
// contract's special values.
func reproInputs[T constraints.Float](r *rand.Rand, n int) map[string][]T {
	f32 := num.KindOf[T]() == num.Float32
	randomBits := func() T {
		for {
			var v T
			if f32 {
				v = T(math.Float32frombits(r.Uint32()))
			} else {
				v = T(math.Float64frombits(r.Uint64()))
			}
			if !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) {
				return v
			}
		}
	}
	maxT := num.MaxOf[T]()
	in := map[string][]T{
		"plain":   testkit.Values[T](r, n, testkit.Plain),
		"mixed":   testkit.Values[T](r, n, testkit.Mixed),
		"zeros":   testkit.Values[T](r, n, testkit.Zeros),
		"uniform": make([]T, n),
		"cancel":  make([]T, 0, n),
		"range":   make([]T, n),
		"subnorm": make([]T, n),
		"ties":    make([]T, n),
		"spread":  make([]T, n),
		"huge":    make([]T, n),
	}
	for i := range n {
		in["uniform"][i] = T(r.Float64())
		in["range"][i] = randomBits()
		if f32 {
			in["subnorm"][i] = T(math.Float32frombits(r.Uint32() & 0x807FFFFF))
		} else {
			in["subnorm"][i] = T(math.Float64frombits(r.Uint64() & 0x800FFFFFFFFFFFFF))
		}
		// Values 1 and 2^-p (p the precision): sums land on and next to
		// the rounding ties.
		p := 53
		if f32 {
			p = 24
		}
		in["ties"][i] = T(math.Ldexp(1, -p*r.IntN(3)))
		// A block's values more than 2^63 apart: the residual path.
		in["spread"][i] = T(math.Ldexp(r.Float64()*2-1, r.IntN(200)-100))
		// Near the top of the range: overflow and the per-value path.
		in["huge"][i] = maxT * T(r.Float64()*2-1)
	}
	for len(in["cancel"])+2 <= n {
		v := randomBits()
		in["cancel"] = append(in["cancel"], v, -v)
		if r.IntN(4) == 0 && len(in["cancel"]) < n {
			in["cancel"] = append(in["cancel"], T(math.Ldexp(r.Float64(), -r.IntN(60))))
		}
	}
	r.Shuffle(len(in["cancel"]), func(i, j int) { in["cancel"][i], in["cancel"][j] = in["cancel"][j], in["cancel"][i] })
	return in
}
