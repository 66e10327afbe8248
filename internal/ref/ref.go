// Package ref is quiver's scalar reference: the specification of every
// reduction, written as plainly as possible and without intrinsics. Every
// backend must match it bit for bit, except float sums, whose SIMD
// backends follow the blocked order of ADR-013 (see package oracle); with
// the policy A=1, W=1 that order is exactly the strict left fold below.
//
// The reference assumes its inputs were validated by the public API: the
// bitmap covers every element, selection indices are in range.
package ref

import (
	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
)

// Mask is the participation filter: an Arrow validity bitmap (nil means
// all valid) starting at bit Off, and an optional selection vector. With
// HasSel the elements visited are x[Sel[0]], x[Sel[1]], ... in that order,
// duplicates included; without it every element in index order.
type Mask struct {
	Bits   []byte
	Off    int
	Sel    []uint32
	HasSel bool
}

// Valid reports whether element i is valid: bit Off+i of Bits, LSB first
// within each byte. A nil bitmap makes every element valid.
func Valid(bits []byte, off, i int) bool {
	if bits == nil {
		return true
	}
	p := off + i
	return bits[p>>3]>>(p&7)&1 != 0
}

// Len is the number of elements visited over n elements: the selection's
// length, or n.
func (m Mask) Len(n int) int {
	if m.HasSel {
		return len(m.Sel)
	}
	return n
}

// Index is the element visited k-th: Sel[k], or k. Together with Len it is
// the single definition of "participation order" for the whole reference.
func (m Mask) Index(k int) int {
	if m.HasSel {
		return int(m.Sel[k])
	}
	return k
}

// SumFloat is the strict left fold from +0.0 over the participating
// elements, in visiting order (A=1).
func SumFloat[T constraints.Float](x []T, m Mask) T {
	s := T(0)
	for k := range m.Len(len(x)) {
		if i := m.Index(k); Valid(m.Bits, m.Off, i) {
			s += x[i]
		}
	}
	return s
}

// SumInt is the wrapping sum in the 64-bit sum type S: int64 for signed
// elements, uint64 for unsigned ones. Each element is widened first, so
// only the 64-bit accumulator wraps.
func SumInt[T num.Number, S int64 | uint64](x []T, m Mask) S {
	var s S
	for k := range m.Len(len(x)) {
		if i := m.Index(k); Valid(m.Bits, m.Off, i) {
			s += S(x[i])
		}
	}
	return s
}

// SumExact is the exact sum of the participating elements in 128 bits,
// each element taken at its value (sign-extended for signed types). 2^63
// elements of magnitude at most 2^64 cannot overflow it.
func SumExact[T num.Number](x []T, m Mask) num.Int128 {
	var sum num.Int128
	for k := range m.Len(len(x)) {
		if i := m.Index(k); Valid(m.Bits, m.Off, i) {
			if v := x[i]; v < 0 {
				sum = sum.AddInt64(int64(v))
			} else {
				sum = sum.AddUint64(uint64(v))
			}
		}
	}
	return sum
}

// SumCheckedSigned sums exactly in 128 bits and reports whether the
// mathematical sum lies outside int64. The returned value is the wrapped
// sum. 2^63 elements of magnitude at most 2^63 cannot overflow 128 bits.
func SumCheckedSigned[T num.Number](x []T, m Mask) (int64, bool) {
	var sum num.Int128
	for k := range m.Len(len(x)) {
		if i := m.Index(k); Valid(m.Bits, m.Off, i) {
			sum = sum.AddInt64(int64(x[i]))
		}
	}
	return int64(sum.Lo), !sum.FitsInt64()
}

// SumCheckedUnsigned sums exactly in 128 bits and reports whether the
// mathematical sum exceeds uint64. The returned value is the wrapped sum.
func SumCheckedUnsigned[T num.Number](x []T, m Mask) (uint64, bool) {
	var sum num.Int128
	for k := range m.Len(len(x)) {
		if i := m.Index(k); Valid(m.Bits, m.Off, i) {
			sum = sum.AddUint64(uint64(x[i]))
		}
	}
	return sum.Lo, !sum.FitsUint64()
}

// Summary is the one-pass min, max, participating count and null count.
//
//   - Participation is selected and valid; Nulls counts selected elements
//     that are not valid (once per selection entry).
//   - Comparisons are strict (<, >), so among equal values the first
//     encountered is kept; +0.0 and -0.0 are the only visible case.
//   - Min and Max start from the first participating non-NaN value, not from
//     the identities (an identity start would lose a lone +Inf).
//   - Any participating NaN makes both Min and Max the canonical quiet NaN.
//   - With no participating value Min is MaxOf[T] and Max is LowestOf[T].
func Summary[T num.Number](x []T, m Mask) (lo, hi T, count, nulls int) {
	have, sawNaN := false, false
	for k := range m.Len(len(x)) {
		i := m.Index(k)
		if !Valid(m.Bits, m.Off, i) {
			nulls++
			continue
		}
		count++
		v := x[i]
		switch {
		case v != v:
			sawNaN = true
		case !have:
			lo, hi, have = v, v, true
		default:
			if v < lo {
				lo = v
			}
			if v > hi {
				hi = v
			}
		}
	}
	switch {
	case sawNaN:
		lo, hi = num.NaN[T](), num.NaN[T]()
	case !have:
		lo, hi = num.MaxOf[T](), num.LowestOf[T]()
	}
	return lo, hi, count, nulls
}

// CountValid counts the valid bits among n elements, or among the selected
// ones (once per selection entry).
func CountValid(n int, m Mask) int {
	c := 0
	for k := range m.Len(n) {
		if Valid(m.Bits, m.Off, m.Index(k)) {
			c++
		}
	}
	return c
}
