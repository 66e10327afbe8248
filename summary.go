package quiver

import (
	"github.com/quiverlabs/quiver/internal/kernel"
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
	b := active.Load()
	if len(m) == 0 {
		s := Summary[T]{Count: len(x)}
		switch {
		case len(x) == 0:
			s.Min, s.Max = num.MaxOf[T](), num.LowestOf[T]()
		case len(x) >= denseCut[T](b, true):
			s.Min, s.Max = kernel.DenseSummary(b.isa, x, kernel.WantBoth)
		case !num.IsFloat[T]():
			s.Min, s.Max = kernel.IntMinMax(x)
		case len(x) < kernel.ChainCut:
			// The builtin min's chains; a NaN or a zero is settled out
			// of line (see kernel.ChainMin).
			if s.Min, s.Max = kernel.ChainMinMax(x); s.Min != s.Min || s.Min == 0 || s.Max == 0 {
				s.Min, s.Max = kernel.SettleChains(x, s.Min, s.Max)
			}
		default:
			s.Min, s.Max, _ = kernel.FloatExtremes(x, kernel.WantBoth)
		}
		return s
	}
	if len(x) < maskedCut[T](b, true) {
		if w, ok := shortWord(len(x), m); ok {
			if !num.IsFloat[T]() && w != 0 {
				lo, hi := kernel.IntMinMaxWord(x, w)
				count := mbits.OnesCount64(w)
				return Summary[T]{Min: lo, Max: hi, Count: count, Nulls: len(x) - count}
			}
			lo, hi, count := kernel.SummaryWord(x, w, kernel.WantBoth)
			return Summary[T]{Min: lo, Max: hi, Count: count, Nulls: len(x) - count}
		}
	} else if bits, off, ok := bitmapSpan(len(x), m); ok {
		lo, hi, count := kernel.Summary(b.isa, x, bits, off, kernel.WantBoth)
		return Summary[T]{Min: lo, Max: hi, Count: count, Nulls: len(x) - count}
	}
	lo, hi, count, nulls := summarize(b, x, m, kernel.WantBoth)
	return Summary[T]{Min: lo, Max: hi, Count: count, Nulls: nulls}
}

// summarize is the one path behind Min, Max, MinMax and Summarize: it
// validates m, then runs summarizeOn on b (the active backend, which the
// caller loaded once for its cut too). With kernel.WantMin or
// kernel.WantMax only that extreme is meaningful.
func summarize[T Number](b *backend, x []T, m []Mask, want kernel.Extremes) (lo, hi T, count, nulls int) {
	bits, off, sel, hasSel := maskOfInLoop(len(x), m) // the selection kernels check sel
	return summarizeOn(b, x, bits, off, sel, hasSel, want)
}

// summarizeOn is summarize on b from validated parts (see maskOf): the
// selection loops or kernels, the short loops (below maskedCut with a
// bitmap, below denseCut without), or b's kernels.
func summarizeOn[T Number](b *backend, x []T, bits []byte, off int, sel []uint32, hasSel bool, want kernel.Extremes) (lo, hi T, count, nulls int) {
	if hasSel {
		lo, hi, count = kernel.SelSummary(b.isa, x, bits, off, sel, want)
		return lo, hi, count, len(sel) - count
	}
	var valid int
	if bits != nil && len(x) < maskedCut[T](b, want == kernel.WantBoth) ||
		bits == nil && len(x) < denseCut[T](b, want == kernel.WantBoth) {
		lo, hi, valid = kernel.SummarySmall(x, bits, off, want)
	} else {
		lo, hi, valid = kernel.Summary(b.isa, x, bits, off, want)
	}
	return lo, hi, valid, len(x) - valid
}
