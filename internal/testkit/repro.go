package testkit

import (
	"math"
	"math/rand/v2"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
)

// Inputs of the reproducible sum's tests, shared by the API's tests and
// the kernel layer's.

// Participating lists the values a Mask lets through, in visiting order.
func Participating[T any](x []T, bits []byte, off int, sel []uint32, hasSel bool) []T {
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

// ReproInputs returns named inputs that stress the exact sum: moderate
// values, heavy cancellation, the whole exponent range, subnormals, ties
// of the final rounding, blocks that need the residual path, and the
// contract's special values.
func ReproInputs[T constraints.Float](r *rand.Rand, n int) map[string][]T {
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
		"plain":   Values[T](r, n, Plain),
		"mixed":   Values[T](r, n, Mixed),
		"zeros":   Values[T](r, n, Zeros),
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
