package quiver

import (
	"github.com/quiverlabs/quiver/internal/kernel"
	"github.com/quiverlabs/quiver/internal/num"
)

// GroupMinState is the grouped form of [Min] alone: one value of T per
// group, where [GroupSummaryState] keeps the minimum, the maximum and two
// counts. Per group the one-call rules of [Min] hold: the canonical NaN
// when a participating NaN was seen, the first seen of equal values (+0.0
// and -0.0), the largest value of T (+MaxFloat for floats, not +Inf) for
// a group that saw no participating row, and a lone +Inf is the minimum
// of its group. It keeps no count: an empty group and a group of nulls
// look alike, as they do to [Min] (use [GroupCountState] to tell them
// apart).
//
// Merging the states of consecutive pieces in input order gives the state
// of their concatenation; in any other order only the sign of a zero
// minimum can differ. Add panics as described at [GroupSumState], before
// changing the state.
type GroupMinState[T Number] struct {
	acc  []T
	undo []T // the entries before a batch whose ids are checked as it is added
}

// GroupMaxState is [GroupMinState] for [Max]: per group the maximum, the
// lowest value of T (-MaxFloat for floats) for an empty group.
type GroupMaxState[T Number] struct {
	acc  []T
	undo []T
}

// groupMinFresh is the entry of an empty group of a GroupMinState: the
// empty mark for floats (ADR-106), the identity for integers.
func groupMinFresh[T Number]() T {
	if num.IsFloat[T]() {
		return kernel.GroupEmpty[T]()
	}
	return num.MaxOf[T]()
}

// groupMaxFresh is groupMinFresh for a GroupMaxState.
func groupMaxFresh[T Number]() T {
	if num.IsFloat[T]() {
		return kernel.GroupEmpty[T]()
	}
	return num.LowestOf[T]()
}

// groupExtreme is the result of a group's entry a: the identity id for
// the empty mark, the canonical NaN for a NaN, a itself otherwise.
func groupExtreme[T Number](a, id T) T {
	if a != a {
		if kernel.GroupIsEmpty(a) {
			return id
		}
		return num.NaN[T]()
	}
	return a
}

// groupCheckCopy is how many rows per group a dense batch of a
// GroupMinState or GroupMaxState needs for its ids to be checked in the
// updating loop, with a copy of the table to restore when one is out of
// range, rather than in a pass of their own: the copy reads and writes a
// table entry (at most 8 bytes) per group, the pass reads 4 bytes per row.
const groupCheckCopy = 4

// groupExtremeAdd is Add of a GroupMinState (isMax false) or a
// GroupMaxState. The kernels are called directly, not through function
// values, so that the slices of the caller do not escape.
func groupExtremeAdd[T Number](op string, isMax bool, acc []T, undo *[]T, x []T, ids []uint32, m []Mask) {
	bits, off, sel, hasSel := maskOf(len(x), m)
	if bits == nil && !hasSel && len(ids) == len(x) && len(x) >= groupCheckCopy*len(acc) && len(x) > 0 {
		// The ids are checked as the rows are taken (no pass of their
		// own); the table is copied first, to be restored before the
		// panic.
		*undo = append((*undo)[:0], acc...)
		var k int
		if isMax {
			k = kernel.GroupMaxDense(acc, x, ids)
		} else {
			k = kernel.GroupMinDense(acc, x, ids)
		}
		if k < len(x) {
			copy(acc, *undo)
			groupIDs(op, len(x), ids, len(acc))
		}
		return
	}
	groupIDs(op, len(x), ids, len(acc))
	if isMax {
		kernel.GroupMax(acc, x, ids, bits, off, sel, hasSel)
	} else {
		kernel.GroupMin(acc, x, ids, bits, off, sel, hasSel)
	}
}

// Grow raises the group count to groups, as [GroupSumState.Grow] does.
func (s *GroupMinState[T]) Grow(groups int) {
	groupCount("GroupMinState.Grow", groups)
	s.acc = groupGrow(s.acc, groups, groupMinFresh[T]())
}

// Groups returns the group count.
func (s *GroupMinState[T]) Groups() int { return len(s.acc) }

// Add takes each participating row x[i] into the minimum of group ids[i].
// It panics as described at [GroupSumState], before changing the state.
func (s *GroupMinState[T]) Add(x []T, ids []uint32, m ...Mask) {
	groupExtremeAdd("GroupMinState.Add", false, s.acc, &s.undo, x, ids, m)
}

// Merge adds to s the state next of the piece of input that follows s's,
// group by group (s grows to next's group count first). next is not
// modified.
func (s *GroupMinState[T]) Merge(next *GroupMinState[T]) {
	s.Grow(next.Groups())
	for g, v := range next.acc {
		s.acc[g] = kernel.GroupMergeMin(s.acc[g], v)
	}
}

// Min returns the minimum of group g, as [Min] over the group's rows; it
// panics if g is not below the group count.
func (s *GroupMinState[T]) Min(g int) T {
	groupIndex("GroupMinState.Min", g, len(s.acc))
	return groupExtreme(s.acc[g], num.MaxOf[T]())
}

// Mins appends the minimum of every group, in group order, to dst.
func (s *GroupMinState[T]) Mins(dst []T) []T {
	id := num.MaxOf[T]()
	for _, a := range s.acc {
		dst = append(dst, groupExtreme(a, id))
	}
	return dst
}

// Reset empties every group; the group count and the tables stay.
func (s *GroupMinState[T]) Reset() {
	f := groupMinFresh[T]()
	for g := range s.acc {
		s.acc[g] = f
	}
}

// Grow raises the group count to groups, as [GroupSumState.Grow] does.
func (s *GroupMaxState[T]) Grow(groups int) {
	groupCount("GroupMaxState.Grow", groups)
	s.acc = groupGrow(s.acc, groups, groupMaxFresh[T]())
}

// Groups returns the group count.
func (s *GroupMaxState[T]) Groups() int { return len(s.acc) }

// Add takes each participating row x[i] into the maximum of group ids[i].
// It panics as described at [GroupSumState], before changing the state.
func (s *GroupMaxState[T]) Add(x []T, ids []uint32, m ...Mask) {
	groupExtremeAdd("GroupMaxState.Add", true, s.acc, &s.undo, x, ids, m)
}

// Merge adds to s the state next of the piece of input that follows s's,
// group by group (s grows to next's group count first). next is not
// modified.
func (s *GroupMaxState[T]) Merge(next *GroupMaxState[T]) {
	s.Grow(next.Groups())
	for g, v := range next.acc {
		s.acc[g] = kernel.GroupMergeMax(s.acc[g], v)
	}
}

// Max returns the maximum of group g, as [Max] over the group's rows; it
// panics if g is not below the group count.
func (s *GroupMaxState[T]) Max(g int) T {
	groupIndex("GroupMaxState.Max", g, len(s.acc))
	return groupExtreme(s.acc[g], num.LowestOf[T]())
}

// Maxs appends the maximum of every group, in group order, to dst.
func (s *GroupMaxState[T]) Maxs(dst []T) []T {
	id := num.LowestOf[T]()
	for _, a := range s.acc {
		dst = append(dst, groupExtreme(a, id))
	}
	return dst
}

// Reset empties every group; the group count and the tables stay.
func (s *GroupMaxState[T]) Reset() {
	f := groupMaxFresh[T]()
	for g := range s.acc {
		s.acc[g] = f
	}
}
