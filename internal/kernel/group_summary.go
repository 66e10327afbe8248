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

// GroupSorted reports whether ids never decrease.
func GroupSorted(ids []uint32) bool {
	for i := 1; i < len(ids); i++ {
		if ids[i] < ids[i-1] {
			return false
		}
	}
	return true
}
