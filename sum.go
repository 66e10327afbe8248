package quiver

import (
	"github.com/quiverlabs/quiver/internal/kernel"
	"golang.org/x/exp/constraints"
)

// Sum returns the sum of the participating elements of a float slice, in
// the element type. Invalid and unselected elements are skipped, so a NaN
// there does not reach the result; the sum of nothing is +0.0.
//
// The order of the additions is ADR-013's: the strict left fold on the
// scalar backend and for selections (in selection order), the blocked
// accumulator order of [ActiveBackend] otherwise. A NaN among the
// participating elements gives a NaN whose payload is not specified. For
// one answer on every backend and platform, whatever the order, batching
// or core count, use [SumReproducible].
//
// It panics, before reading x, if more than one Mask is given, if m's
// bitmap is too short for len(x) elements at its offset (see [Valid]), or
// if a selection index is len(x) or more.
func Sum[T constraints.Float](x []T, m ...Mask) T {
	b := active.Load()
	if len(x) < floatSmallCut[T](b) {
		// Shorter than the active backend's block: the strict fold is
		// what it computes.
		if len(m) == 0 {
			return kernel.StrictSum(x)
		}
		if w, ok := shortWord(len(x), m); ok {
			return kernel.AddWord(T(0), x, w)
		}
	} else if len(m) == 0 {
		// Dense: one block up to two in Go where that beats the
		// kernel's call (exactly one block of 8 lanes or more runs the
		// kernel: kernel.ISA.BlockSumsInGo), else straight to the
		// kernel, two calls fewer.
		if w := blockLanes[T](b); len(x) < 8*w && (len(x) > 4*w || w < 8) {
			return kernel.BlockSum(x, w)
		}
		return kernel.SumFloat(b.isa, x, nil, 0)
	} else if bits, off, ok := bitmapSpan(len(x), m); ok {
		// A bitmap alone: b's kernel with no frame between (see
		// bitmapSpan).
		return kernel.SumFloat(b.isa, x, bits, off)
	}
	return sumFloat(x, m)
}

// sumFloat is Sum past its short dense prefix.
func sumFloat[T constraints.Float](x []T, m []Mask) T {
	bits, off, sel, hasSel := maskOfInLoop(len(x), m) // the selected fold checks sel
	b := active.Load()
	if hasSel {
		return kernel.SelSumFloat(b.isa, x, bits, off, sel)
	}
	return sumFloatOn(b, x, bits, off)
}

// sumFloatOn is the sum of x on b, with a validated bitmap span and no
// selection.
func sumFloatOn[T constraints.Float](b *backend, x []T, bits []byte, off int) T {
	if len(x) < floatSmallCut[T](b) {
		return kernel.AddValid(T(0), x, bits, off)
	}
	return kernel.SumFloat(b.isa, x, bits, off)
}

// SumInt returns the sum of the participating elements of a signed integer
// slice, widened to int64 and wrapping on overflow (two's complement, as
// Go's own int64 addition). [SumChecked] also reports whether it wrapped.
//
// It panics, before reading x, if more than one Mask is given, if m's
// bitmap is too short for len(x) elements at its offset (see [Valid]), or
// if a selection index is len(x) or more.
func SumInt[T constraints.Signed](x []T, m ...Mask) int64 {
	return sumIntegers[T, int64](x, m)
}

// SumUint returns the sum of the participating elements of an unsigned
// integer slice, widened to uint64 and wrapping on overflow.
// [SumCheckedUint] also reports whether it wrapped.
//
// It panics, before reading x, if more than one Mask is given, if m's
// bitmap is too short for len(x) elements at its offset (see [Valid]), or
// if a selection index is len(x) or more.
func SumUint[T constraints.Unsigned](x []T, m ...Mask) uint64 {
	return sumIntegers[T, uint64](x, m)
}

// sumIntegers is SumInt (S int64) and SumUint (S uint64): the two differ
// only in the type of the wrapped sum, whose bits are the same. The
// exported functions inline into their callers, so a call costs one call,
// as before they shared this.
func sumIntegers[T constraints.Integer, S int64 | uint64](x []T, m []Mask) S {
	if len(x) < kernel.SmallCut {
		if len(m) == 0 {
			// The kernel from the backend's cut: in the loop each
			// element costs more than the kernel's call saves.
			if b := active.Load(); len(x) >= intSumCut[T](b) {
				return kernel.SumInt[T, S](b.isa, x, nil, 0)
			}
			return kernel.SumInts[T, S](x)
		}
		if len(x) < wordCut[T](active.Load()) {
			if w, ok := shortWord(len(x), m); ok {
				if len(x) >= kernel.PackedWordCut[T](false) {
					return kernel.SumPackedWord[T, S](x, w)
				}
				return kernel.SumIntsWord[T, S](x, w)
			}
		}
	} else if len(m) == 0 {
		// Dense: straight to the kernel, two calls fewer.
		return kernel.SumInt[T, S](active.Load().isa, x, nil, 0)
	}
	if bits, off, ok := bitmapSpan(len(x), m); ok {
		// A bitmap alone, wordCut elements or more (a shorter one took
		// the word loop): the kernel with no frame between.
		return kernel.SumInt[T, S](active.Load().isa, x, bits, off)
	}
	return sumIntegersSlow[T, S](x, m)
}

// sumIntegersSlow is sumIntegers past its short prefix: a selection, a
// masked input of wordCut elements or more, which the backend's kernel
// sums, or a dense one of kernel.SmallCut or more (a shorter input with one Mask
// and no selection took the prefix, or panics in maskOfInLoop).
func sumIntegersSlow[T constraints.Integer, S int64 | uint64](x []T, m []Mask) S {
	bits, off, sel, hasSel := maskOfInLoop(len(x), m) // selSumInt and the gathers check sel
	if hasSel {
		return kernel.SelSumInt[T, S](active.Load().isa, x, bits, off, sel)
	}
	return sumOf[T, S](active.Load(), x, bits, off)
}

// sumOf runs b's wrapping sum kernel; S is the sum type the caller
// wants (signed types sum in int64, unsigned ones in uint64, with the
// same bits).
func sumOf[T constraints.Integer, S int64 | uint64](b *backend, x []T, bits []byte, off int) S {
	return kernel.SumInt[T, S](b.isa, x, bits, off)
}
