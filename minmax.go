package quiver

import (
	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/ref"
)

// Min returns the smallest participating element of x.
//
// Unlike Go's builtin min and slices.Min: any participating NaN gives the
// canonical quiet NaN whatever its position or payload; between +0.0 and
// -0.0 the first encountered wins; and with no participating element
// (empty, all null, or nothing selected) the result is the largest value of
// T (math.MaxFloat64 for float64) instead of a panic. Use [Summarize] to
// tell an identity from a real minimum.
func Min[T Number](x []T, m ...Mask) T {
	mk := maskOf(len(x), m)
	if mk.HasSel {
		lo, _, _, _ := ref.Summary(x, mk)
		return lo
	}
	return minOf(active.Load(), x, mk.Bits, mk.Off)
}

// Max returns the largest participating element of x, with the rules of
// [Min]: canonical NaN, first of equal values, and the lowest value of T
// (-math.MaxFloat64 for float64) when nothing participates.
func Max[T Number](x []T, m ...Mask) T {
	mk := maskOf(len(x), m)
	if mk.HasSel {
		_, hi, _, _ := ref.Summary(x, mk)
		return hi
	}
	return maxOf(active.Load(), x, mk.Bits, mk.Off)
}

// MinMax returns the smallest and largest participating elements of x in
// one pass, with the rules of [Min] and [Max].
func MinMax[T Number](x []T, m ...Mask) (lo, hi T) {
	s := Summarize(x, m...)
	return s.Min, s.Max
}

// minOf runs b's min kernel for T's machine type, or its summary kernel
// where the backend has no min kernel.
func minOf[T Number](b *backend, x []T, bits []byte, off int) T {
	return extremeOf(b, x, bits, off, true)
}

// maxOf is minOf for the max.
func maxOf[T Number](b *backend, x []T, bits []byte, off int) T {
	return extremeOf(b, x, bits, off, false)
}

// extremeOf returns the min (isMin) or the max of x on b.
func extremeOf[T Number](b *backend, x []T, bits []byte, off int, isMin bool) T {
	switch num.KindOf[T]() {
	case num.Int8:
		return extremeIn(b.i8, x, bits, off, isMin)
	case num.Int16:
		return extremeIn(b.i16, x, bits, off, isMin)
	case num.Int32:
		return extremeIn(b.i32, x, bits, off, isMin)
	case num.Int64:
		return extremeIn(b.i64, x, bits, off, isMin)
	case num.Uint8:
		return extremeIn(b.u8, x, bits, off, isMin)
	case num.Uint16:
		return extremeIn(b.u16, x, bits, off, isMin)
	case num.Uint32:
		return extremeIn(b.u32, x, bits, off, isMin)
	case num.Uint64:
		return extremeIn(b.u64, x, bits, off, isMin)
	case num.Float32:
		return extremeIn(b.f32, x, bits, off, isMin)
	}
	return extremeIn(b.f64, x, bits, off, isMin)
}

// extremeIn runs k's min or max kernel of machine type C on x, whose
// element type T has C as its underlying type, falling back to the summary
// kernel when k has none.
func extremeIn[T, C num.Number, S int64 | uint64 | float32 | float64](k kernelSet[C, S], x []T, bits []byte, off int, isMin bool) T {
	c := num.Cast[C](x)
	switch {
	case isMin && k.min != nil:
		v, _ := k.min(c, bits, off)
		return T(v)
	case !isMin && k.max != nil:
		v, _ := k.max(c, bits, off)
		return T(v)
	}
	lo, hi, _ := k.summary(c, bits, off)
	if isMin {
		return T(lo)
	}
	return T(hi)
}
