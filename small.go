package quiver

import (
	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
)

// Short inputs. Below a few dozen elements the fixed cost of a kernel call
// (the backend table, the function values, the assembly call and
// VZEROUPPER) is more than the work, so the public functions run the loops
// below instead, inline. Each computes exactly what every backend computes
// for such an input:
//
//   - integer sums wrap, checked sums are exact and min, max and counts are
//     exact, so the order of a loop does not show;
//   - a float sum of fewer elements than one ADR-013 block (A×W) is, on a
//     SIMD backend, the tail alone added in index order from +0.0, which is
//     the strict fold these loops do; the strict backends fold that way at
//     every length.
//
// smallCut is the crossover in elements; below it the loops run. It was
// measured on AVX-512 and AVX2 (docs/small.md): the kernels win from 32
// elements on for every operation and type, the loops below it. Float sums
// also stop at the active backend's block, where the blocked order starts.
const smallCut = 32

// bitAt reports whether bit p of a validated bitmap is set.
func bitAt(bits []byte, p int) bool { return bits[p>>3]>>(p&7)&1 != 0 }

// floatSmallCut is the length below which a float sum runs the strict
// loop on b: the smaller of smallCut and b's block for T.
func floatSmallCut[T constraints.Float](b *backend) int {
	p := b.policy64
	if num.KindOf[T]() == num.Float32 {
		p = b.policy32
	}
	return min(smallCut, p.A*p.W)
}

// sumSmall is the strict left fold from +0.0 (for integers, the wrapping
// sum) of the valid elements, in index order; bits nil means all valid.
func sumSmall[T num.Number, S ~int64 | ~uint64 | ~float32 | ~float64](x []T, bits []byte, off int) S {
	var s S
	if bits == nil {
		for _, v := range x {
			s += S(v)
		}
		return s
	}
	for i, v := range x {
		if bitAt(bits, off+i) {
			s += S(v)
		}
	}
	return s
}

// checkedSmall is the exact sum of the valid elements of a short input
// (fewer than 2^32, so narrow types cannot leave their 64-bit sum type);
// it reports the wrapped sum and whether it overflowed S.
func checkedSmall[T num.Number, S int64 | uint64](x []T, bits []byte, off int) (S, bool) {
	if num.KindOf[T]() != num.Int64 && num.KindOf[T]() != num.Uint64 {
		return sumSmall[T, S](x, bits, off), false
	}
	var acc num.Int128
	signed := num.KindOf[T]() == num.Int64
	for i, v := range x {
		if bits != nil && !bitAt(bits, off+i) {
			continue
		}
		if signed {
			acc = acc.AddInt64(int64(v))
		} else {
			acc = acc.AddUint64(uint64(v))
		}
	}
	if signed {
		return S(acc.Lo), !acc.FitsInt64()
	}
	return S(acc.Lo), !acc.FitsUint64()
}

// summarySmall is the reference's summary of a short input in one strict
// pass. Strict comparisons keep the first of equal values (the first of
// +0 and -0) and never take a NaN, which is noted instead; starting from
// ±Inf (the identities for integers) loses nothing, because a value equal
// to the start has the start's bits. Only the extremes in want are
// computed, so Min and Max cost one comparison per element: !(v >= lo)
// holds for a new minimum and for a NaN, and only then is v tested again.
func summarySmall[T num.Number](x []T, bits []byte, off int, want extremes) (lo, hi T, valid int) {
	top, bottom := summaryStart[T]()
	lo, hi = top, bottom
	nan := false
	// Nothing in the loops calls a generic helper: those go through the
	// dictionary of T's shape and are not inlined.
	switch {
	case bits != nil:
		for i, v := range x {
			if p := off + i; bits[p>>3]>>(p&7)&1 != 0 {
				valid++
				if v < lo {
					lo = v
				}
				if v > hi {
					hi = v
				}
				nan = nan || v != v
			}
		}
	case want == wantMin:
		for _, v := range x {
			if !(v >= lo) {
				if v == v {
					lo = v
				} else {
					nan = true
				}
			}
		}
		valid = len(x)
	case want == wantMax:
		for _, v := range x {
			if !(v <= hi) {
				if v == v {
					hi = v
				} else {
					nan = true
				}
			}
		}
		valid = len(x)
	default:
		for _, v := range x {
			if v < lo {
				lo = v
			}
			if v > hi {
				hi = v
			}
			nan = nan || v != v
		}
		valid = len(x)
	}
	switch {
	case nan:
		return num.NaN[T](), num.NaN[T](), valid
	case valid == 0:
		return num.MaxOf[T](), num.LowestOf[T](), 0
	}
	return lo, hi, valid
}

// summaryStart is where a strict min and max fold starts: +Inf and -Inf
// for floats, the identities for integers.
func summaryStart[T num.Number]() (top, bottom T) {
	top, bottom = num.MaxOf[T](), num.LowestOf[T]()
	if num.IsFloat[T]() {
		top *= 2 // overflows to +Inf
		bottom *= 2
	}
	return top, bottom
}

// countSmall counts the set bits among bits off..off+n-1.
func countSmall(bits []byte, off, n int) int {
	c := 0
	for p := off; p < off+n; p++ {
		c += int(bits[p>>3] >> (p & 7) & 1)
	}
	return c
}
