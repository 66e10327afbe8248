package quiver

import (
	mbits "math/bits"

	"github.com/quiverlabs/quiver/internal/num"
)

// Summary is the result of [Summarize]: the min and max of the
// participating elements, how many there were, and how many selected
// elements were null.
type Summary[T Number] struct {
	// Min and Max follow the rules of [Min] and [Max]: the canonical NaN
	// if any participating element is NaN, the first of equal values, and
	// the identities (largest and lowest value of T) when Count is 0.
	Min, Max T
	// Count is the number of participating (selected and valid) elements,
	// NaNs included. Zero means Min and Max are the identities.
	Count int
	// Nulls is the number of selected elements that are not valid, once
	// per selection entry.
	Nulls int
}

// Empty reports whether no element participated, in which case Min and Max
// hold the identities rather than values of the input.
func (s Summary[T]) Empty() bool { return s.Count == 0 }

// Summarize computes min, max, the participating count and the null count
// in one pass over x.
//
// It panics, before reading x, if more than one Mask is given, if m's
// bitmap is too short for len(x) elements at its offset (see [Valid]), or
// if a selection index is len(x) or more.
func Summarize[T Number](x []T, m ...Mask) Summary[T] {
	if len(x) < smallCut {
		if len(m) == 0 {
			var s Summary[T]
			switch {
			case len(x) == 0:
				s.Min, s.Max = num.MaxOf[T](), num.LowestOf[T]()
			case num.IsFloat[T]():
				s.Min, s.Max, s.Count = floatExtremes(x, wantBoth)
			default:
				s.Min, s.Max = intMinMax(x)
				s.Count = len(x)
			}
			return s
		}
		if w, ok := shortWord(len(x), m); ok {
			if !num.IsFloat[T]() && w != 0 {
				lo, hi := intMinMaxWord(x, w)
				count := mbits.OnesCount64(w)
				return Summary[T]{Min: lo, Max: hi, Count: count, Nulls: len(x) - count}
			}
			lo, hi, count := summaryWord(x, w, wantBoth)
			return Summary[T]{Min: lo, Max: hi, Count: count, Nulls: len(x) - count}
		}
	}
	lo, hi, count, nulls := summarize(x, m, wantBoth)
	return Summary[T]{Min: lo, Max: hi, Count: count, Nulls: nulls}
}

// summarize is the one path behind Min, Max, MinMax and Summarize: it
// validates m, then runs summarizeOn on the active backend. With wantMin
// or wantMax only that extreme is meaningful.
func summarize[T Number](x []T, m []Mask, want extremes) (lo, hi T, count, nulls int) {
	bits, off, sel, hasSel := maskOfInLoop(len(x), m) // the selection kernels check sel
	return summarizeOn(active.Load(), x, bits, off, sel, hasSel, want)
}

// summarizeOn is summarize on b from validated parts (see maskOf): the
// selection loops or kernels, the short loop below smallCut, or b's
// kernels.
func summarizeOn[T Number](b *backend, x []T, bits []byte, off int, sel []uint32, hasSel bool, want extremes) (lo, hi T, count, nulls int) {
	if hasSel {
		lo, hi, count = selSummaryOf(b, x, bits, off, sel, want)
		return lo, hi, count, len(sel) - count
	}
	var valid int
	if len(x) < smallCut {
		lo, hi, valid = summarySmall(x, bits, off, want)
	} else {
		lo, hi, valid = summaryOf(b, x, bits, off, want)
	}
	return lo, hi, valid, len(x) - valid
}

// extremes says which results of the summary kernels a caller needs.
type extremes uint8

const (
	wantBoth extremes = iota // min and max: the fused summary kernel
	wantMin                  // min only: the backend's min kernel, if it has one
	wantMax                  // max only: the backend's max kernel, if it has one
)

// summaryOf runs b's summary-family kernel for T's machine type: the one
// place that maps T to its kernels for Min, Max, MinMax and Summarize. With
// wantMin or wantMax only that result is meaningful.
func summaryOf[T Number](b *backend, x []T, bits []byte, off int, want extremes) (lo, hi T, valid int) {
	switch num.KindOf[T]() {
	case num.Int8:
		return summaryIn(&b.i8, x, bits, off, want)
	case num.Int16:
		return summaryIn(&b.i16, x, bits, off, want)
	case num.Int32:
		return summaryIn(&b.i32, x, bits, off, want)
	case num.Int64:
		return summaryIn(&b.i64, x, bits, off, want)
	case num.Uint8:
		return summaryIn(&b.u8, x, bits, off, want)
	case num.Uint16:
		return summaryIn(&b.u16, x, bits, off, want)
	case num.Uint32:
		return summaryIn(&b.u32, x, bits, off, want)
	case num.Uint64:
		return summaryIn(&b.u64, x, bits, off, want)
	case num.Float32:
		return summaryIn(&b.f32, x, bits, off, want)
	}
	return summaryIn(&b.f64, x, bits, off, want)
}

// summaryIn runs the kernel of machine type C that computes what want asks
// for on x, whose element type T has C as its underlying type: the
// single-extreme kernel where the backend has one, the fused summary
// otherwise.
func summaryIn[T, C num.Number, S int64 | uint64 | float32 | float64](k *kernelSet[C, S], x []T, bits []byte, off int, want extremes) (lo, hi T, valid int) {
	c := num.Cast[C](x)
	switch {
	case want == wantMin && k.min != nil:
		l, v := k.min(c, bits, off)
		return T(l), 0, v
	case want == wantMax && k.max != nil:
		h, v := k.max(c, bits, off)
		return 0, T(h), v
	}
	l, h, v := k.summary(c, bits, off)
	return T(l), T(h), v
}
