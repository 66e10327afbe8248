// The grouped kernels (this file and the other group*.go files): loops
// that add each participating row of a column to the accumulator of its
// group. They are self-contained (they use no other name of this package,
// whose documentation lives with its other files) and assume validated
// input: every id below the length of the tables, len(ids) == len(x), the
// bitmap span covering the rows from bit off, and every selection index
// below len(x).

package kernel

import "golang.org/x/exp/constraints"

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

// GroupMaxRows bounds the rows added to split tables between flushes:
// with fewer than 2^31 rows the split halves cannot wrap; 2^30 keeps the
// constant an int on 32-bit platforms.
const GroupMaxRows = 1 << 30

// GroupSumInt64 adds the participating rows of x to acc[ids[i]] as int64
// values, wrapping (acc holds the two's complement bits): the plain
// grouped loop, exact as long as no group's sum leaves int64, which the
// caller guarantees from a bound on the magnitudes of x.
func GroupSumInt64[T constraints.Integer](acc []uint64, x []T, ids []uint32, bits []byte, off int, sel []uint32, hasSel bool) {
	switch {
	case hasSel:
		for _, i := range sel {
			if groupBit(bits, off, int(i)) {
				acc[ids[i]] += uint64(int64(x[i]))
			}
		}
	case bits != nil:
		ids = ids[:len(x)]
		for i, v := range x {
			if groupBit(bits, off, i) {
				acc[ids[i]] += uint64(int64(v))
			}
		}
	default:
		ids = ids[:len(x)]
		i := 0
		for ; i+4 <= len(x); i += 4 {
			acc[ids[i]] += uint64(int64(x[i]))
			acc[ids[i+1]] += uint64(int64(x[i+1]))
			acc[ids[i+2]] += uint64(int64(x[i+2]))
			acc[ids[i+3]] += uint64(int64(x[i+3]))
		}
		for ; i < len(x); i++ {
			acc[ids[i]] += uint64(int64(x[i]))
		}
	}
}

// GroupSumSplit adds the participating rows of x exactly, in two tables:
// hi[g] += v >> 32 (arithmetic for signed T, so the high half keeps the
// sign) and lo[g] += v & (2^32-1), so that the exact sum of group g is
// hi[g]·2^32 + lo[g] as long as fewer than 2^31 rows were added since
// the tables were zero. It makes no assumption on the magnitudes.
func GroupSumSplit[T constraints.Integer](hi []int64, lo []uint64, x []T, ids []uint32, bits []byte, off int, sel []uint32, hasSel bool) {
	sh := uint(32)
	switch {
	case hasSel:
		for _, i := range sel {
			if groupBit(bits, off, int(i)) {
				g := ids[i]
				hi[g] += int64(x[i] >> sh)
				lo[g] += uint64(x[i]) & 0xFFFFFFFF
			}
		}
	case bits != nil:
		ids = ids[:len(x)]
		for i, v := range x {
			if groupBit(bits, off, i) {
				g := ids[i]
				hi[g] += int64(v >> sh)
				lo[g] += uint64(v) & 0xFFFFFFFF
			}
		}
	default:
		ids = ids[:len(x)]
		for i, v := range x {
			g := ids[i]
			hi[g] += int64(v >> sh)
			lo[g] += uint64(v) & 0xFFFFFFFF
		}
	}
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
