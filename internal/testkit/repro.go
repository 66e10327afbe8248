package testkit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

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
		"drift":   make([]T, n),
	}
	// "drift": every value the largest of one binade and of one sign, the
	// float64 ones with the bits below 2^-46 of their size set to just
	// under a half: each fold accumulator moves by about the most a part
	// can move it, always the same way (fold A by nearly 2^47 units, fold
	// B by nearly 2^47 units of its grid), so a kernel whose accumulators
	// take more parts than their grids allow leaves their binade.
	driftExp, driftNeg := r.IntN(40)-20, r.IntN(2) == 0
	drift := func() T {
		var v T
		if f32 {
			v = T(math.Float32frombits(uint32(127+driftExp)<<23 | (1<<23 - 1)))
		} else {
			v = T(math.Float64frombits(uint64(1023+driftExp)<<52 | (1<<52-1)&^0x3F | 0x1F))
		}
		if driftNeg {
			v = -v
		}
		return v
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
		in["drift"][i] = drift()
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

// ReproProbe is one block of ReproThresholdInputs: the block, and whether
// its probe value lies one binade below a fold's threshold (Over: the
// next cheaper way to fold the block would lose the probe's last bit).
type ReproProbe[T constraints.Float] struct {
	X    []T
	Over bool
}

// ReproThresholdInputs returns blocks of n values (n >= 2) that sit at the
// thresholds where ADR-105's folds can be cut short, for the folds' spans
// (b, c) in float64 exponent fields (kernel.ReproSpans). With top the
// largest exponent field of a block (in T's format), a block whose values
// other than zero all have an exponent field of at least top-b (float32:
// top-b-29, its significand being 29 bits shorter) is on fold B's grid,
// so that fold B is a plain addition and fold C is not needed; at least
// top-c (float32: top-c-29), on fold C's grid.
// Each block holds one value at top, one probe with an odd significand
// (its last bit counts) at a threshold or one binade below it, or a
// subnormal, values between the threshold and top with random odd
// significands (none with a bit as low as the probe's), and, in the
// "zeros" variants, zeros of both signs; in the "cancel" variants every
// value but the probe comes with its negation, so that the sum is the
// probe and a lost last bit shows in the rounded result. The tops include fields where
// the grids are clamped at the smallest subnormal and fields next to the
// largest the folds take.
func ReproThresholdInputs[T constraints.Float](r *rand.Rand, n int, spans [2]int) map[string]ReproProbe[T] {
	spanB, spanC := spans[0], spans[1]
	f32 := num.KindOf[T]() == num.Float32
	mantBits, maxTop := 52, 2031
	tops := []int{1023, 1500, 2000, 2031, 100, 40, 10, 1}
	if f32 {
		mantBits, maxTop = 23, 254
		spanB, spanC = spanB+29, spanC+29
		tops = []int{127, 200, 254, 100, 60, 30, 10, 1}
	}
	// Where the thresholds' grids are clamped at the smallest subnormal.
	for _, t := range []int{spanB + 1, spanB + 2, spanC + 1, spanC + 2} {
		if t <= maxTop && !slices.Contains(tops, t) {
			tops = append(tops, t)
		}
	}
	mk := func(field int, mant uint64, neg bool) T {
		var v T
		if f32 {
			v = T(math.Float32frombits(uint32(field)<<23 | uint32(mant)))
		} else {
			v = T(math.Float64frombits(uint64(field)<<52 | mant))
		}
		if neg {
			v = -v
		}
		return v
	}
	randMant := func() uint64 { return r.Uint64() & (1<<mantBits - 1) }
	out := map[string]ReproProbe[T]{}
	for _, top := range tops {
		// A probe at field (0: a subnormal) among values at fill or
		// above, so that no other value has a bit as low as the probe's.
		type probe struct {
			name        string
			field, fill int
			over        bool
		}
		var probes []probe
		tB, tC := max(top-spanB, 1), max(top-spanC, 1)
		for _, p := range []struct {
			name string
			t    int
		}{{"B", tB}, {"C", tC}} {
			probes = append(probes, probe{p.name, p.t, p.t, false})
			if p.t >= 2 {
				probes = append(probes, probe{p.name + "-1", p.t - 1, p.t, true})
			}
		}
		// A subnormal whose high word is zero: it drops below every
		// threshold above 1.
		probes = append(probes, probe{"subnormal", 0, tB, tB > 1})
		for _, p := range probes {
			for _, variant := range []string{"", " zeros", " cancel"} {
				if variant == " cancel" && n < 3 {
					continue
				}
				x := make([]T, n)
				for i := range x {
					// Odd significands: no power of two, whose field the
					// range pass reads one binade low.
					x[i] = mk(p.fill+r.IntN(top-p.fill+1), randMant()|1, r.IntN(2) == 0)
					if variant == " zeros" && r.IntN(3) == 0 {
						x[i] = mk(0, 0, r.IntN(2) == 0)
					}
				}
				var pr T
				if p.field == 0 {
					pr = mk(0, 1+2*(r.Uint64()&0xFFFF), r.IntN(2) == 0) // odd, high word zero
				} else {
					pr = mk(p.field, randMant()|1, r.IntN(2) == 0)
				}
				if variant == " cancel" {
					// Every value but the probe next to its negation: the
					// sum is the probe, whose last bit is the result's.
					x[0] = mk(top, randMant()|1, r.IntN(2) == 0)
					for i := 1; i+1 < n; i += 2 {
						x[i] = -x[i-1]
					}
					x[n-1] = pr
					if n%2 == 0 {
						x[n-2] = 0
					}
					r.Shuffle(n, func(i, j int) { x[i], x[j] = x[j], x[i] })
				} else {
					it := r.IntN(n)
					x[it] = mk(top, randMant()|1, r.IntN(2) == 0)
					x[(it+1+r.IntN(n-1))%n] = pr // the probe, anywhere else
				}
				name := fmt.Sprintf("top=%d probe=%s%s", top, p.name, variant)
				out[name] = ReproProbe[T]{x, p.over}
			}
		}
	}
	return out
}
