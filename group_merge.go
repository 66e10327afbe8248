package quiver

import (
	"fmt"

	"github.com/quiverlabs/quiver/internal/kernel"
)

// Merging the grouped states of partitions whose group ids differ: each
// partition numbered its groups itself (a key index per partition, as
// quiverarrow.Keys builds), so group j of one is group remap[j] of the
// other. MergeMapped is Merge through such a remapping; Merge is
// MergeMapped with the identity.

// groupRemap checks remap, the groups of a state of from groups in a state
// of to groups, before a MergeMapped changes anything.
func groupRemap(op string, remap []uint32, from, to int) {
	if len(remap) != from {
		panic(fmt.Sprintf("quiver: %s: a remapping of %d groups for a state of %d groups", op, len(remap), from))
	}
	if len(remap) == 0 || uint64(Max(remap)) < uint64(to) {
		return
	}
	for j, g := range remap {
		if uint64(g) >= uint64(to) {
			panic(fmt.Sprintf("quiver: %s: group %d maps to group %d, out of range for %d groups", op, j, g, to))
		}
	}
}

// MergeMapped adds the sum of other's group j to s's group remap[j], for
// each j in order (the left fold of the partitions' sums, as Merge). s
// must have room for every remap[j]: it panics, before changing s, if
// len(remap) is not other's group count or a remap[j] is not below s's.
func (s *GroupSumState[T]) MergeMapped(other *GroupSumState[T], remap []uint32) {
	groupRemap("GroupSumState.MergeMapped", remap, len(other.sums), len(s.sums))
	for j, v := range other.sums {
		s.sums[remap[j]] += v
	}
}

// MergeMapped adds the exact sum of other's group j to s's group
// remap[j], as [GroupSumState.MergeMapped] (and with its panics).
func (s *GroupIntSumState[T]) MergeMapped(other *GroupIntSumState[T], remap []uint32) {
	groupRemap("GroupIntSumState.MergeMapped", remap, len(other.e.ex), len(s.e.ex))
	s.e.mergeMapped(&other.e, remap)
}

// MergeMapped adds the exact sum of other's group j to s's group
// remap[j], as [GroupSumState.MergeMapped] (and with its panics).
func (s *GroupUintSumState[T]) MergeMapped(other *GroupUintSumState[T], remap []uint32) {
	groupRemap("GroupUintSumState.MergeMapped", remap, len(other.e.ex), len(s.e.ex))
	s.e.mergeMapped(&other.e, remap)
}

func (e *groupExact) mergeMapped(o *groupExact, remap []uint32) {
	e.exSet = true
	for j, g := range remap {
		e.ex[g] = e.ex[g].Add128(o.at(j))
	}
}

// MergeMapped merges the summary of other's group j, the piece of input
// that follows s's, into s's group remap[j], as [GroupSumState.MergeMapped]
// (and with its panics).
func (s *GroupSummaryState[T]) MergeMapped(other *GroupSummaryState[T], remap []uint32) {
	groupRemap("GroupSummaryState.MergeMapped", remap, len(other.cells), len(s.cells))
	for j, g := range remap {
		groupMergeCell(&s.cells[g], &other.cells[j])
	}
}

// MergeMapped adds the count of other's group j to s's group remap[j], as
// [GroupSumState.MergeMapped] (and with its panics).
func (s *GroupCountState) MergeMapped(other *GroupCountState, remap []uint32) {
	groupRemap("GroupCountState.MergeMapped", remap, len(other.count), len(s.count))
	for j, c := range other.count {
		s.count[remap[j]] += c
	}
}

// MergeMapped adds the exact sum of other's group j to s's group
// remap[j], as [GroupSumState.MergeMapped] (and with its panics).
func (s *GroupSumReproducibleState[T]) MergeMapped(other *GroupSumReproducibleState[T], remap []uint32) {
	groupRemap("GroupSumReproducibleState.MergeMapped", remap, len(other.acc), len(s.acc))
	for j, g := range remap {
		s.acc[g].Merge(&other.acc[j])
	}
}

// MergeMapped merges the minimum of other's group j, the piece of input
// that follows s's, into s's group remap[j], as
// [GroupSumState.MergeMapped] (and with its panics).
func (s *GroupMinState[T]) MergeMapped(other *GroupMinState[T], remap []uint32) {
	groupRemap("GroupMinState.MergeMapped", remap, len(other.acc), len(s.acc))
	for j, g := range remap {
		s.acc[g] = kernel.GroupMergeMin(s.acc[g], other.acc[j])
	}
}

// MergeMapped merges the maximum of other's group j, the piece of input
// that follows s's, into s's group remap[j], as
// [GroupSumState.MergeMapped] (and with its panics).
func (s *GroupMaxState[T]) MergeMapped(other *GroupMaxState[T], remap []uint32) {
	groupRemap("GroupMaxState.MergeMapped", remap, len(other.acc), len(s.acc))
	for j, g := range remap {
		s.acc[g] = kernel.GroupMergeMax(s.acc[g], other.acc[j])
	}
}
