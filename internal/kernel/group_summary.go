package kernel

import "golang.org/x/exp/constraints"

// GroupSummary updates, per group, the extremes lo[g] and hi[g], the
// participating count count[g], the null count nulls[g] and, for floats,
// nan[g] (a participating NaN) with the participating rows of x, in
// visiting order. The tables start at lo = the largest value of T (+Inf
// for floats), hi = the lowest (-Inf), zero counts and no NaN; the
// comparisons are strict, so among equal values the first one seen stays
// (+0.0 and -0.0), and a NaN compares false and leaves the extremes
// alone. Starting from the identities gives the bits of a start from the
// group's first value: a value equal to the start is the start.
func GroupSummary[T constraints.Integer | constraints.Float](lo, hi []T, count, nulls []int, nan []bool, x []T, ids []uint32, bits []byte, off int, sel []uint32, hasSel bool) {
	switch {
	case hasSel:
		for _, i := range sel {
			g := ids[i]
			if !groupBit(bits, off, int(i)) {
				nulls[g]++
				continue
			}
			groupUpdate(lo, hi, count, nan, g, x[i])
		}
	case bits != nil:
		ids = ids[:len(x)]
		for i, v := range x {
			g := ids[i]
			if !groupBit(bits, off, i) {
				nulls[g]++
				continue
			}
			groupUpdate(lo, hi, count, nan, g, v)
		}
	default:
		ids = ids[:len(x)]
		for i, v := range x {
			groupUpdate(lo, hi, count, nan, ids[i], v)
		}
	}
}

// groupUpdate adds the participating value v to group g.
func groupUpdate[T constraints.Integer | constraints.Float](lo, hi []T, count []int, nan []bool, g uint32, v T) {
	count[g]++
	if v != v {
		nan[g] = true
		return
	}
	if v < lo[g] {
		lo[g] = v
	}
	if v > hi[g] {
		hi[g] = v
	}
}

// GroupMaxID returns the largest id of ids, and 0 for none; the API uses
// it to check ids against the group count before any state changes.
func GroupMaxID(ids []uint32) uint32 {
	var m0, m1, m2, m3 uint32
	i := 0
	for ; i+4 <= len(ids); i += 4 {
		m0 = max(m0, ids[i])
		m1 = max(m1, ids[i+1])
		m2 = max(m2, ids[i+2])
		m3 = max(m3, ids[i+3])
	}
	for ; i < len(ids); i++ {
		m0 = max(m0, ids[i])
	}
	return max(m0, m1, m2, m3)
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
