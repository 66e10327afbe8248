package quiver

import (
	"golang.org/x/exp/constraints"
)

// groupReproChunk is how many rows a GroupSumReproducibleState sorts by
// group at a time before it hands each group's values to its exact
// accumulator in one call.
const groupReproChunk = 4096

// GroupSumReproducibleState is the grouped form of [SumReproducible]:
// per group, the exact sum of the group's participating values rounded
// once to T, with SumReproducible's rules for NaN, infinities and zeros.
// The result of a group is a function of the multiset of its values
// alone: the same bits on every backend and platform, for any order, cut
// into batches, merge order or worker count.
//
// Each group keeps a [SumReproducibleState] (about 460 bytes): Add sorts
// the rows of each chunk of 4096 by group into a buffer the state owns
// and feeds each group's values to its accumulator with one Add, so the
// dense exact kernels do the work. Memory is therefore about 460 bytes per
// group plus 48 KiB, allocated by Grow.
type GroupSumReproducibleState[T constraints.Float] struct {
	acc     []SumReproducibleState[T]
	pos     []int32  // per group: rows of the chunk, then their end in buf
	touched []uint32 // groups of the chunk in order of first row
	buf     []T      // the chunk's values sorted by group
}

// Grow raises the group count to groups, as [GroupSumState.Grow] does.
func (s *GroupSumReproducibleState[T]) Grow(groups int) {
	groupCount("GroupSumReproducibleState.Grow", groups)
	s.acc = groupGrow(s.acc, groups, SumReproducibleState[T]{})
	s.pos = groupGrow(s.pos, groups, 0)
	if s.buf == nil {
		s.buf = make([]T, groupReproChunk)
		s.touched = make([]uint32, 0, groupReproChunk)
	}
}

// Groups returns the group count.
func (s *GroupSumReproducibleState[T]) Groups() int { return len(s.acc) }

// Add adds the participating rows of x to the sums of their groups. It
// panics as described at [GroupSumState], before changing the state.
func (s *GroupSumReproducibleState[T]) Add(x []T, ids []uint32, m ...Mask) {
	bits, off, sel, hasSel := maskOf(len(x), m)
	groupIDs("GroupSumReproducibleState.Add", len(x), ids, len(s.acc))
	s.addValidated(x, ids, bits, off, sel, hasSel)
}

// addValidated is Add after validation.
func (s *GroupSumReproducibleState[T]) addValidated(x []T, ids []uint32, bits []byte, off int, sel []uint32, hasSel bool) {
	n := len(x)
	if hasSel {
		n = len(sel)
	}
	for lo := 0; lo < n; lo += groupReproChunk {
		hi := min(n, lo+groupReproChunk)
		if hasSel {
			s.chunk(x, ids, bits, off, sel[lo:hi], true, 0, 0)
		} else {
			s.chunk(x, ids, bits, off, nil, false, lo, hi)
		}
	}
}

// chunk sorts the participating rows of one chunk (the selection sel, or
// rows lo..hi-1) by group and adds each group's values.
func (s *GroupSumReproducibleState[T]) chunk(x []T, ids []uint32, bits []byte, off int, sel []uint32, hasSel bool, lo, hi int) {
	visit := func(f func(i int)) {
		if hasSel {
			for _, i := range sel {
				if bitAtSpan(bits, off, int(i)) {
					f(int(i))
				}
			}
			return
		}
		for i := lo; i < hi; i++ {
			if bitAtSpan(bits, off, i) {
				f(i)
			}
		}
	}
	s.touched = s.touched[:0]
	visit(func(i int) {
		g := ids[i]
		if s.pos[g] == 0 {
			s.touched = append(s.touched, g)
		}
		s.pos[g]++
	})
	end := int32(0)
	for _, g := range s.touched {
		end += s.pos[g]
		s.pos[g] = end - s.pos[g] // the group's start
	}
	visit(func(i int) {
		g := ids[i]
		s.buf[s.pos[g]] = x[i]
		s.pos[g]++ // ends at the group's end
	})
	start := int32(0)
	for _, g := range s.touched {
		e := s.pos[g]
		s.acc[g].Add(s.buf[start:e])
		s.pos[g] = 0
		start = e
	}
}

// bitAtSpan reports whether row i is valid in a validated bitmap span (nil:
// every row).
func bitAtSpan(bits []byte, off, i int) bool {
	if bits == nil {
		return true
	}
	p := off + i
	return bits[p>>3]>>(p&7)&1 != 0
}

// Merge adds other's values to s's, group by group; exact, so in any
// order. other is not modified.
func (s *GroupSumReproducibleState[T]) Merge(other *GroupSumReproducibleState[T]) {
	s.Grow(other.Groups())
	for g := range other.acc {
		s.acc[g].Merge(&other.acc[g])
	}
}

// Sum returns the correctly rounded sum of group g, as [SumReproducible]
// over the group's rows.
func (s *GroupSumReproducibleState[T]) Sum(g int) T {
	groupIndex("GroupSumReproducibleState.Sum", g, len(s.acc))
	return s.acc[g].Sum()
}

// Sums appends the sums of all groups to dst.
func (s *GroupSumReproducibleState[T]) Sums(dst []T) []T {
	for g := range s.acc {
		dst = append(dst, s.acc[g].Sum())
	}
	return dst
}

// Reset empties every group; the group count and the tables stay.
func (s *GroupSumReproducibleState[T]) Reset() {
	for g := range s.acc {
		s.acc[g].Reset()
	}
}
