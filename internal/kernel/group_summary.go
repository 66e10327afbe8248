package kernel

import "golang.org/x/exp/constraints"

// GroupCell is one group's summary: the extremes of its non-NaN
// participating rows, their count (NaNs included), the null count and
// whether a NaN took part. The fields of a group share a cache line, so a
// row touches one line instead of one per table. A fresh cell has Lo at
// the largest value of T (+Inf for floats) and Hi at the lowest (-Inf),
// which give the bits of a start from the group's first value: a value
// equal to the start is the start.
type GroupCell[T constraints.Integer | constraints.Float] struct {
	Lo, Hi T
	Count  int
	Nulls  int
	NaN    bool
}

// GroupSummary updates the cells of the groups of the participating rows
// of x, in visiting order. The comparisons are strict, so among equal
// values the first one seen stays (+0.0 and -0.0), and a NaN compares
// false and leaves the extremes alone.
func GroupSummary[T constraints.Integer | constraints.Float](cells []GroupCell[T], x []T, ids []uint32, bits []byte, off int, sel []uint32, hasSel bool) {
	switch {
	case hasSel:
		for _, i := range sel {
			c := &cells[ids[i]]
			if !groupBit(bits, off, int(i)) {
				c.Nulls++
				continue
			}
			groupUpdate(c, x[i])
		}
	case bits != nil:
		ids = ids[:len(x)]
		for i, v := range x {
			c := &cells[ids[i]]
			if !groupBit(bits, off, i) {
				c.Nulls++
				continue
			}
			groupUpdate(c, v)
		}
	default:
		ids = ids[:len(x)]
		for i, v := range x {
			groupUpdate(&cells[ids[i]], v)
		}
	}
}

// groupUpdate adds the participating value v to the cell c.
func groupUpdate[T constraints.Integer | constraints.Float](c *GroupCell[T], v T) {
	c.Count++
	if v < c.Lo {
		c.Lo = v
	}
	if v > c.Hi {
		c.Hi = v
	}
	if v != v {
		c.NaN = true
	}
}

// GroupSorted reports whether ids never decrease. b < a for uint32 a and
// b is the sign of uint64(b) - uint64(a); the signs are or-ed, four
// independent differences a step, with no branch per row.
func GroupSorted(ids []uint32) bool {
	if len(ids) < 2 {
		return true
	}
	a, b := ids[:len(ids)-1], ids[1:]
	b = b[:len(a)]
	var d0, d1, d2, d3 uint64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		d0 |= uint64(b[i]) - uint64(a[i])
		d1 |= uint64(b[i+1]) - uint64(a[i+1])
		d2 |= uint64(b[i+2]) - uint64(a[i+2])
		d3 |= uint64(b[i+3]) - uint64(a[i+3])
	}
	for ; i < len(a); i++ {
		d0 |= uint64(b[i]) - uint64(a[i])
	}
	return (d0|d1|d2|d3)>>63 == 0
}

// GroupRunBounds appends to dst, for sorted ids (checked by the caller)
// all below groups, the first row of each group 0..groups-1 and then
// len(ids): each boundary found by a binary search from the previous
// one, so that long runs cost a logarithm, not a row each.
func GroupRunBounds(dst []int, ids []uint32, groups int) []int {
	lo := 0
	for g := range groups {
		// The first row at or after lo whose id is g or more.
		i, j := lo, len(ids)
		for i < j {
			h := int(uint(i+j) >> 1)
			if ids[h] < uint32(g) {
				i = h + 1
			} else {
				j = h
			}
		}
		dst = append(dst, i)
		lo = i
	}
	return append(dst, len(ids))
}
