// The grouped kernels (this file and the other group*.go files): loops
// that add each participating row of a column to the accumulator of its
// group. They are self-contained (they use no other name of this package,
// whose documentation lives with its other files) and assume validated
// input: every id below the length of the tables, len(ids) == len(x), the
// bitmap span covering the rows from bit off, and every selection index
// below len(x).

package kernel

import (
	"unsafe"

	"golang.org/x/exp/constraints"
)

// groupBit reports whether bit off+i of bits is set; a nil bits means
// every row is valid.
func groupBit(bits []byte, off, i int) bool {
	if bits == nil {
		return true
	}
	p := off + i
	return bits[p>>3]>>(p&7)&1 != 0
}

// GroupSumFloat adds the participating rows of x to acc[ids[i]], one at a
// time in visiting order: per group, the strict left fold continued from
// the accumulator's value (the grouped float sum's order, ADR-106). The
// order within a group is fixed, so the loop is the same on every
// backend; it only avoids the bounds checks of the plain loop.
func GroupSumFloat[T constraints.Float](acc, x []T, ids []uint32, bits []byte, off int, sel []uint32, hasSel bool) {
	switch {
	case hasSel:
		for _, i := range sel {
			if groupBit(bits, off, int(i)) {
				acc[ids[i]] += x[i]
			}
		}
	case bits != nil:
		ids = ids[:len(x)]
		for i, v := range x {
			if groupBit(bits, off, i) {
				acc[ids[i]] += v
			}
		}
	default:
		ids = ids[:len(x)]
		i := 0
		for ; i+4 <= len(x); i += 4 {
			acc[ids[i]] += x[i]
			acc[ids[i+1]] += x[i+1]
			acc[ids[i+2]] += x[i+2]
			acc[ids[i+3]] += x[i+3]
		}
		for ; i < len(x); i++ {
			acc[ids[i]] += x[i]
		}
	}
}

// GroupSumFloatDense is GroupSumFloat for a dense batch whose ids are not
// yet checked: it checks each id against len(acc) as it adds and stops at
// the first one out of range, returning the number of rows added
// (len(x) when every id is in range). The explicit check takes the place
// of the bounds check, so the loop costs what the checked loop does.
func GroupSumFloatDense[T constraints.Float](acc, x []T, ids []uint32) int {
	ids = ids[:len(x)]
	i := 0
	for ; i < len(x)-3; i += 4 {
		_ = ids[i+3] // one bounds check for the four (none, with the loop's)
		g0, g1, g2, g3 := ids[i], ids[i+1], ids[i+2], ids[i+3]
		if n := uint(len(acc)); uint(g0) >= n || uint(g1) >= n || uint(g2) >= n || uint(g3) >= n {
			break
		}
		v := (*[4]T)(x[i:])
		acc[g0] += v[0]
		acc[g1] += v[1]
		acc[g2] += v[2]
		acc[g3] += v[3]
	}
	for ; i < len(x); i++ {
		g := ids[i]
		if uint(g) >= uint(len(acc)) {
			return i
		}
		acc[g] += x[i]
	}
	return len(x)
}

// GroupMaxRows bounds the rows added to split tables between flushes:
// with fewer than 2^31 rows the split halves cannot wrap; 2^30 keeps the
// constant an int on 32-bit platforms.
const GroupMaxRows = 1 << 30

// groupWide reports whether T holds values at or above 2^63 (uint64,
// uint, uintptr on 64-bit platforms), which int64(v) would turn negative.
func groupWide[T constraints.Integer]() bool {
	var zero T
	return ^zero > 0 && unsafe.Sizeof(zero) == 8
}

// groupNarrow reports whether every value of T is below 2^32 in
// magnitude: then 2^30 rows cannot take an int64 sum past 2^62.
func groupNarrow[T constraints.Integer]() bool {
	var zero T
	return unsafe.Sizeof(zero) <= 4
}

// GroupNarrow reports whether GroupAddInt64 adds elements of type T
// unchecked (at most 32 bits).
func GroupNarrow[T constraints.Integer]() bool { return groupNarrow[T]() }

// GroupAddInt64 adds the participating rows of x to acc[ids[i]] as int64
// values, wrapping, and reports in ovf whether the running value of an
// entry may have left int64 on the way (or, for an unsigned T, a value
// was 2^63 or more): when ovf is false every entry holds its exact sum,
// and done is the whole batch (len(x) rows, or len(sel) entries with a
// selection). When ovf is true, the first done rows (entries of sel) were
// added, and [GroupSubInt64] over them restores acc exactly.
//
// For element types of at most 32 bits no addition is checked: the caller
// adds at most 2^30 rows to a table between flushes, whose entries then
// stay within 2^62 of where they started. The dense int64 loop is the
// assembly kernel on amd64 and arm64 (the overflow flag of each add); the
// masked Go loops check with the sign bits of (a^s)&(v^s), or-ed over the
// rows and tested once, from any entries. The dense Go loop (every dense
// batch where [GroupDenseChecksIDs], the other element types elsewhere)
// needs every entry non-negative and keeps them so when ovf is false
// (see groupAddDenseGo; the masked loops do not keep them so). Where GroupDenseChecksIDs, a dense batch's ids need not be
// checked: the loop stops before an id not below len(acc) with done <
// len(x) (which then means that, not an overflow; ovf covers the first
// done rows), and [GroupSubInt64] over the first done rows takes them
// back.
func GroupAddInt64[T constraints.Integer](acc []int64, x []T, ids []uint32, bits []byte, off int, sel []uint32, hasSel bool) (done int, ovf bool) {
	if !hasSel && bits == nil {
		return groupAddDense(acc, x, ids)
	}
	if groupNarrow[T]() {
		groupAddNarrow(acc, x, ids, bits, off, sel, hasSel)
		return groupRows(x, sel, hasSel), false
	}
	var o int64
	if groupWide[T]() {
		o = groupWideBits(x, bits, off, sel, hasSel)
	}
	switch {
	case hasSel:
		for _, i := range sel {
			if groupBit(bits, off, int(i)) {
				p := &acc[ids[i]]
				a, v := *p, int64(x[i])
				s := a + v
				o |= (a ^ s) & (v ^ s)
				*p = s
			}
		}
	default:
		ids = ids[:len(x)]
		for i, w := range x {
			if groupBit(bits, off, i) {
				p := &acc[ids[i]]
				a, v := *p, int64(w)
				s := a + v
				o |= (a ^ s) & (v ^ s)
				*p = s
			}
		}
	}
	return groupRows(x, sel, hasSel), o < 0
}

// groupRows is the number of rows of a batch: len(x), or len(sel).
func groupRows[T any](x []T, sel []uint32, hasSel bool) int {
	if hasSel {
		return len(sel)
	}
	return len(x)
}

// groupAddDenseGo is the Go loop of GroupAddInt64 for a dense batch. It
// checks the ids as it adds, four rows at a time (a comparison each, which
// also takes the place of the bounds checks), and stops before the first
// group of four rows (or, in the last three rows, before the first
// row) with an id not below len(acc): done is len(x) when every id is in
// range, and ovf covers the first done rows.
//
// The overflow test costs one operation a row for a signed T and two for
// an unsigned one instead of the four of the exact test (a^s)&(v^s),
// because it needs every entry of acc non-negative on entry, and keeps
// them so: from a in [0, 2^63), a+v wraps to a negative s exactly when
// the sum leaves [0, 2^63) (below 0 without wrapping, or past 2^63-1
// with); for an unsigned T, a value of 2^63 or more is negative as int64
// and tested too. ovf is then set by the first sum that leaves the range,
// overflow or not, and the caller takes the rows back and flushes, as
// for an overflow (the caller biases its entries by 2^62 to give signed
// sums room on both sides). Element types of at most 32 bits are added
// unchecked (GroupAddInt64).
func groupAddDenseGo[T constraints.Integer](acc []int64, x []T, ids []uint32) (done int, ovf bool) {
	var zero T
	signed := ^zero < 0
	narrow := groupNarrow[T]()
	var o uint64
	ids = ids[:len(x)]
	i := 0
	for ; i < len(x)-3; i += 4 {
		_ = ids[i+3] // one bounds check for the four (none, with the loop's)
		g0, g1, g2, g3 := ids[i], ids[i+1], ids[i+2], ids[i+3]
		if n := uint(len(acc)); uint(g0) >= n || uint(g1) >= n || uint(g2) >= n || uint(g3) >= n {
			break
		}
		xs := (*[4]T)(x[i:])
		switch {
		case narrow:
			acc[g0] += int64(xs[0])
			acc[g1] += int64(xs[1])
			acc[g2] += int64(xs[2])
			acc[g3] += int64(xs[3])
		case signed:
			s := acc[g0] + int64(xs[0])
			acc[g0] = s
			o |= uint64(s)
			s = acc[g1] + int64(xs[1])
			acc[g1] = s
			o |= uint64(s)
			s = acc[g2] + int64(xs[2])
			acc[g2] = s
			o |= uint64(s)
			s = acc[g3] + int64(xs[3])
			acc[g3] = s
			o |= uint64(s)
		default:
			v := int64(xs[0])
			s := acc[g0] + v
			acc[g0] = s
			o |= uint64(s | v)
			v = int64(xs[1])
			s = acc[g1] + v
			acc[g1] = s
			o |= uint64(s | v)
			v = int64(xs[2])
			s = acc[g2] + v
			acc[g2] = s
			o |= uint64(s | v)
			v = int64(xs[3])
			s = acc[g3] + v
			acc[g3] = s
			o |= uint64(s | v)
		}
	}
	for ; i < len(x); i++ {
		g := ids[i]
		if uint(g) >= uint(len(acc)) {
			break
		}
		s := acc[g] + int64(x[i])
		acc[g] = s
		switch {
		case narrow:
		case signed:
			o |= uint64(s)
		default:
			o |= uint64(s) | uint64(x[i])
		}
	}
	return i, int64(o) < 0
}

// GroupAddBounded adds the rows of a dense batch to acc[ids[i]] as int64
// values, wrapping, with no overflow test, and returns the or of the
// values as int64 bits: when it is non-negative every value is below
// 2^bits.Len64(or), from which the caller bounds what each entry moved,
// and otherwise takes the rows back with [GroupSubInt64]. It checks the
// ids as groupAddDenseGo does (done < len(x) at an id not below len(acc)).
// The loop is the plain grouped loop (one read-modify-write a row) and an
// or: the way for values known to be small.
func GroupAddBounded[T constraints.Integer](acc []int64, x []T, ids []uint32) (done int, or uint64) {
	var o uint64
	ids = ids[:len(x)]
	i := 0
	for ; i < len(x)-3; i += 4 {
		_ = ids[i+3] // one bounds check for the four (none, with the loop's)
		g0, g1, g2, g3 := ids[i], ids[i+1], ids[i+2], ids[i+3]
		if n := uint(len(acc)); uint(g0) >= n || uint(g1) >= n || uint(g2) >= n || uint(g3) >= n {
			break
		}
		xs := (*[4]T)(x[i:])
		v0, v1, v2, v3 := int64(xs[0]), int64(xs[1]), int64(xs[2]), int64(xs[3])
		acc[g0] += v0
		acc[g1] += v1
		acc[g2] += v2
		acc[g3] += v3
		o |= uint64(v0 | v1 | v2 | v3)
	}
	for ; i < len(x); i++ {
		g := ids[i]
		if uint(g) >= uint(len(acc)) {
			break
		}
		acc[g] += int64(x[i])
		o |= uint64(x[i])
	}
	return i, o
}

// groupAddNarrow adds the participating rows of x to acc[ids[i]] with no
// check: the plain grouped loop.
func groupAddNarrow[T constraints.Integer](acc []int64, x []T, ids []uint32, bits []byte, off int, sel []uint32, hasSel bool) {
	switch {
	case hasSel:
		for _, i := range sel {
			if groupBit(bits, off, int(i)) {
				acc[ids[i]] += int64(x[i])
			}
		}
	case bits != nil:
		ids = ids[:len(x)]
		for i, w := range x {
			if groupBit(bits, off, i) {
				acc[ids[i]] += int64(w)
			}
		}
	default:
		ids = ids[:len(x)]
		i := 0
		for ; i+4 <= len(x); i += 4 {
			acc[ids[i]] += int64(x[i])
			acc[ids[i+1]] += int64(x[i+1])
			acc[ids[i+2]] += int64(x[i+2])
			acc[ids[i+3]] += int64(x[i+3])
		}
		for ; i < len(x); i++ {
			acc[ids[i]] += int64(x[i])
		}
	}
}

// groupWideBits is the or of the participating rows of x as int64 bits:
// negative when one of them is 2^63 or more.
func groupWideBits[T constraints.Integer](x []T, bits []byte, off int, sel []uint32, hasSel bool) int64 {
	var o int64
	switch {
	case hasSel:
		for _, i := range sel {
			if groupBit(bits, off, int(i)) {
				o |= int64(x[i])
			}
		}
	default:
		for i, w := range x {
			if groupBit(bits, off, i) {
				o |= int64(w)
			}
		}
	}
	return o
}

// GroupSubInt64 subtracts what [GroupAddInt64] added for the same rows,
// wrapping, which restores acc exactly.
func GroupSubInt64[T constraints.Integer](acc []int64, x []T, ids []uint32, bits []byte, off int, sel []uint32, hasSel bool) {
	switch {
	case hasSel:
		for _, i := range sel {
			if groupBit(bits, off, int(i)) {
				acc[ids[i]] -= int64(x[i])
			}
		}
	default:
		ids = ids[:len(x)]
		for i, w := range x {
			if groupBit(bits, off, i) {
				acc[ids[i]] -= int64(w)
			}
		}
	}
}

// GroupSumSplit adds the participating rows of x exactly, in two tables:
// hi[g] += v >> 32 (arithmetic for signed T, so the high half keeps the
// sign) and lo[g] += v & (2^32-1), so that the exact sum of group g is
// hi[g]·2^32 + lo[g] as long as fewer than 2^31 rows were added since
// the tables were zero. It makes no assumption on the magnitudes.
func GroupSumSplit[T constraints.Integer](hi, lo []int64, x []T, ids []uint32, bits []byte, off int, sel []uint32, hasSel bool) {
	sh := uint(32)
	switch {
	case hasSel:
		for _, i := range sel {
			if groupBit(bits, off, int(i)) {
				g := ids[i]
				hi[g] += int64(x[i] >> sh)
				lo[g] += int64(uint64(x[i]) & 0xFFFFFFFF)
			}
		}
	case bits != nil:
		ids = ids[:len(x)]
		for i, v := range x {
			if groupBit(bits, off, i) {
				g := ids[i]
				hi[g] += int64(v >> sh)
				lo[g] += int64(uint64(v) & 0xFFFFFFFF)
			}
		}
	default:
		ids = ids[:len(x)]
		for i, v := range x {
			g := ids[i]
			hi[g] += int64(v >> sh)
			lo[g] += int64(uint64(v) & 0xFFFFFFFF)
		}
	}
}

// groupCountGo is GroupCountDense in Go: four rows at a time, their ids
// checked first (the comparisons also take the place of the bounds
// checks), then row by row from the first group of four with an id out
// of range.
func groupCountGo(count []int, ids []uint32) int {
	i := 0
	for ; i < len(ids)-3; i += 4 {
		_ = ids[i+3] // one bounds check for the four (none, with the loop's)
		g0, g1, g2, g3 := ids[i], ids[i+1], ids[i+2], ids[i+3]
		if n := uint(len(count)); uint(g0) >= n || uint(g1) >= n || uint(g2) >= n || uint(g3) >= n {
			break
		}
		count[g0]++
		count[g1]++
		count[g2]++
		count[g3]++
	}
	for ; i < len(ids); i++ {
		g := ids[i]
		if uint(g) >= uint(len(count)) {
			return i
		}
		count[g]++
	}
	return len(ids)
}

// GroupCount adds, per group, the selected rows that are valid to
// count[g] and those that are not to nulls[g] (nulls may be nil).
func GroupCount(count, nulls []int, n int, ids []uint32, bits []byte, off int, sel []uint32, hasSel bool) {
	switch {
	case hasSel:
		for _, i := range sel {
			if groupBit(bits, off, int(i)) {
				count[ids[i]]++
			} else if nulls != nil {
				nulls[ids[i]]++
			}
		}
	case bits != nil:
		ids = ids[:n]
		for i, g := range ids {
			if groupBit(bits, off, i) {
				count[g]++
			} else if nulls != nil {
				nulls[g]++
			}
		}
	default:
		for _, g := range ids[:n] {
			count[g]++
		}
	}
}
