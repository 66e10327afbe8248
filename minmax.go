package quiver

import (
	"github.com/quiverlabs/quiver/internal/num"

	"github.com/quiverlabs/quiver/internal/kernel"
)

// Min returns the smallest participating element of x.
//
// Unlike Go's builtin min and slices.Min: any participating NaN gives the
// canonical quiet NaN whatever its position or payload; between +0.0 and
// -0.0 the first encountered wins; and with no participating element
// (empty, all null, or nothing selected) the result is the largest value of
// T (math.MaxFloat64 for float64) instead of a panic. Use [Summarize] to
// tell an identity from a real minimum.
//
// It panics, before reading x, if more than one Mask is given, if m's
// bitmap is too short for len(x) elements at its offset (see [Valid]), or
// if a selection index is len(x) or more.
func Min[T Number](x []T, m ...Mask) T {
	b := active.Load() // once: each load is a call's few instructions
	if len(m) == 0 {
		switch {
		case len(x) == 0:
			return num.MaxOf[T]()
		case len(x) >= denseCut[T](b, false):
			lo, _ := kernel.DenseSummary(b.isa, x, kernel.WantMin)
			return lo
		case !num.IsFloat[T]():
			return kernel.ChainMin(x)
		case len(x) < kernel.ChainCut:
			// The builtin min's chains, inlined here; a NaN or a zero
			// is settled out of line (see kernel.ChainMin).
			lo := kernel.ChainMin(x)
			if lo != lo || lo == 0 {
				lo, _ = kernel.SettleChains(x, lo, lo)
			}
			return lo
		}
		// The dense loops directly: a call less for the shortest inputs
		// (summarizeOn makes this choice too).
		lo, _, _ := kernel.FloatExtremes(x, kernel.WantMin)
		return lo
	}
	if len(x) < maskedCut[T](b, false) {
		if w, ok := shortWord(len(x), m); ok {
			if w != 0 && len(x) < 16 {
				if !num.IsFloat[T]() {
					return kernel.IntMinWord(x, w)
				}
				if e, nan := kernel.FloatMinWord(x, w); !nan {
					return e
				}
				return num.NaN[T]()
			}
			lo, _, _ := kernel.SummaryWord(x, w, kernel.WantMin)
			return lo
		}
	} else if bits, off, ok := bitmapSpan(len(x), m); ok {
		// A bitmap alone: b's kernels with no frame between (see
		// bitmapSpan).
		lo, _, _ := kernel.Summary(b.isa, x, bits, off, kernel.WantMin)
		return lo
	}
	lo, _, _, _ := summarize(b, x, m, kernel.WantMin)
	return lo
}

// Max returns the largest participating element of x, with the rules of
// [Min]: canonical NaN, first of equal values, and the lowest value of T
// (-math.MaxFloat64 for float64) when nothing participates.
//
// It panics, before reading x, if more than one Mask is given, if m's
// bitmap is too short for len(x) elements at its offset (see [Valid]), or
// if a selection index is len(x) or more.
func Max[T Number](x []T, m ...Mask) T {
	b := active.Load() // once: each load is a call's few instructions
	if len(m) == 0 {
		switch {
		case len(x) == 0:
			return num.LowestOf[T]()
		case len(x) >= denseCut[T](b, false):
			_, hi := kernel.DenseSummary(b.isa, x, kernel.WantMax)
			return hi
		case !num.IsFloat[T]():
			return kernel.IntMax(x)
		case len(x) < kernel.ChainCut:
			hi := kernel.ChainMax(x)
			if hi != hi || hi == 0 {
				_, hi = kernel.SettleChains(x, hi, hi)
			}
			return hi
		}
		_, hi, _ := kernel.FloatExtremes(x, kernel.WantMax)
		return hi
	}
	if len(x) < maskedCut[T](b, false) {
		if w, ok := shortWord(len(x), m); ok {
			if w != 0 && len(x) < 16 {
				if !num.IsFloat[T]() {
					return kernel.IntMaxWord(x, w)
				}
				if e, nan := kernel.FloatMaxWord(x, w); !nan {
					return e
				}
				return num.NaN[T]()
			}
			_, hi, _ := kernel.SummaryWord(x, w, kernel.WantMax)
			return hi
		}
	} else if bits, off, ok := bitmapSpan(len(x), m); ok {
		_, hi, _ := kernel.Summary(b.isa, x, bits, off, kernel.WantMax)
		return hi
	}
	_, hi, _, _ := summarize(b, x, m, kernel.WantMax)
	return hi
}

// MinMax returns the smallest and largest participating elements of x in
// one pass, with the rules of [Min] and [Max].
//
// It panics, before reading x, if more than one Mask is given, if m's
// bitmap is too short for len(x) elements at its offset (see [Valid]), or
// if a selection index is len(x) or more.
func MinMax[T Number](x []T, m ...Mask) (lo, hi T) {
	b := active.Load() // once: each load is a call's few instructions
	if len(m) == 0 {
		switch {
		case len(x) == 0:
			return num.MaxOf[T](), num.LowestOf[T]()
		case len(x) >= denseCut[T](b, true):
			return kernel.DenseSummary(b.isa, x, kernel.WantBoth)
		case !num.IsFloat[T]():
			return kernel.IntMinMax(x)
		case len(x) < kernel.ChainCut:
			if lo, hi = kernel.ChainMinMax(x); lo != lo || lo == 0 || hi == 0 {
				return kernel.SettleChains(x, lo, hi)
			}
			return lo, hi
		}
		lo, hi, _ = kernel.FloatExtremes(x, kernel.WantBoth)
		return lo, hi
	}
	if len(x) < maskedCut[T](b, true) {
		if w, ok := shortWord(len(x), m); ok {
			if !num.IsFloat[T]() && w != 0 {
				return kernel.IntMinMaxWord(x, w)
			}
			lo, hi, _ = kernel.SummaryWord(x, w, kernel.WantBoth)
			return lo, hi
		}
	} else if bits, off, ok := bitmapSpan(len(x), m); ok {
		lo, hi, _ = kernel.Summary(b.isa, x, bits, off, kernel.WantBoth)
		return lo, hi
	}
	lo, hi, _, _ = summarize(b, x, m, kernel.WantBoth)
	return lo, hi
}
