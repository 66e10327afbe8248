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

// groupUpdate adds the participating value v to the cell c. The NaN test
// shares the minimum's branch: !(v >= Lo) holds for a new minimum and for
// a NaN (Lo is never NaN), both rare, so a row takes two compares and two
// branches that are not taken.
func groupUpdate[T constraints.Integer | constraints.Float](c *GroupCell[T], v T) {
	c.Count++
	if !(v >= c.Lo) {
		if v < c.Lo {
			c.Lo = v
		} else {
			c.NaN = true
		}
	}
	if v > c.Hi {
		c.Hi = v
	}
}

// GroupMaxID is the largest of ids (0 for none), by the Go loop the
// portable backends check ids with: four independent maxima, no branch
// per id.
func GroupMaxID(ids []uint32) uint32 {
	var m0, m1, m2, m3 uint32
	i := 0
	for ; i+4 <= len(ids); i += 4 {
		q := ids[i : i+4 : i+4]
		m0 = max(m0, q[0])
		m1 = max(m1, q[1])
		m2 = max(m2, q[2])
		m3 = max(m3, q[3])
	}
	for ; i < len(ids); i++ {
		m0 = max(m0, ids[i])
	}
	return max(m0, m1, m2, m3)
}

// GroupRunBounds appends to dst, for ids all below groups and in
// non-decreasing order, the first row of each group 0..groups-1 and then
// len(ids), and reports true; it reports false (dst then holds part of the
// boundaries) when an id is below the one before it or not below groups.
// One pass over the ids checks them eight at a time against the id of the
// current run (an exclusive or each, one branch per eight rows), and steps
// row by row only where a run ends.
func GroupRunBounds(dst []int, ids []uint32, groups int) ([]int, bool) {
	if groups <= 0 {
		return append(dst, len(ids)), len(ids) == 0
	}
	dst = append(dst, 0)
	cur := uint32(0)
	i := 0
	for i < len(ids) {
		if i+8 <= len(ids) {
			q := ids[i : i+8 : i+8]
			if (q[0]^cur)|(q[1]^cur)|(q[2]^cur)|(q[3]^cur)|(q[4]^cur)|(q[5]^cur)|(q[6]^cur)|(q[7]^cur) == 0 {
				i += 8
				continue
			}
		}
		id := ids[i]
		if id != cur {
			if id < cur || uint64(id) >= uint64(groups) {
				return dst, false
			}
			for range id - cur {
				dst = append(dst, i)
			}
			cur = id
		}
		i++
	}
	for range uint64(groups) - 1 - uint64(cur) {
		dst = append(dst, len(ids))
	}
	return append(dst, len(ids)), true
}
