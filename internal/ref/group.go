package ref

import (
	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
)

// The grouped reductions (ADR-106). Each is defined group by group as the
// one-call reduction above over the group's rows: the rows i whose id
// ids[i] is g, visited in the order the Mask visits rows (index order, or
// selection order with duplicates), with the Mask's bitmap. A group that
// no visited row belongs to gets the one-call result over nothing.

// GroupMasks returns, for each of groups groups, the Mask that visits
// exactly the group's rows among n rows with ids, in m's visiting order:
// a selection of those rows under m's bitmap.
func GroupMasks(n int, ids []uint32, groups int, m Mask) []Mask {
	out := make([]Mask, groups)
	for g := range out {
		out[g] = Mask{Bits: m.Bits, Off: m.Off, Sel: []uint32{}, HasSel: true}
	}
	for k := range m.Len(n) {
		i := m.Index(k)
		g := ids[i]
		out[g].Sel = append(out[g].Sel, uint32(i))
	}
	return out
}

// GroupSumFloat is SumFloat per group: the strict left fold from +0.0 of
// the group's participating rows in visiting order.
func GroupSumFloat[T constraints.Float](x []T, ids []uint32, groups int, m Mask) []T {
	out := make([]T, groups)
	for g, gm := range GroupMasks(len(x), ids, groups, m) {
		out[g] = SumFloat(x, gm)
	}
	return out
}

// GroupSumInt is SumInt per group: the wrapping sum in S.
func GroupSumInt[T num.Number, S int64 | uint64](x []T, ids []uint32, groups int, m Mask) []S {
	out := make([]S, groups)
	for g, gm := range GroupMasks(len(x), ids, groups, m) {
		out[g] = SumInt[T, S](x, gm)
	}
	return out
}

// GroupSumExact is SumExact per group: the exact sum in 128 bits.
func GroupSumExact[T num.Number](x []T, ids []uint32, groups int, m Mask) []num.Int128 {
	out := make([]num.Int128, groups)
	for g, gm := range GroupMasks(len(x), ids, groups, m) {
		out[g] = SumExact(x, gm)
	}
	return out
}

// GroupSummaryOf is one group's Summary.
type GroupSummaryOf[T num.Number] struct {
	Lo, Hi       T
	Count, Nulls int
}

// GroupSummary is Summary per group.
func GroupSummary[T num.Number](x []T, ids []uint32, groups int, m Mask) []GroupSummaryOf[T] {
	out := make([]GroupSummaryOf[T], groups)
	for g, gm := range GroupMasks(len(x), ids, groups, m) {
		lo, hi, c, nl := Summary(x, gm)
		out[g] = GroupSummaryOf[T]{lo, hi, c, nl}
	}
	return out
}

// GroupCountValid is CountValid per group: the valid rows of each group
// among n rows.
func GroupCountValid(n int, ids []uint32, groups int, m Mask) []int {
	out := make([]int, groups)
	for g, gm := range GroupMasks(n, ids, groups, m) {
		out[g] = CountValid(n, gm)
	}
	return out
}

// GroupMin is Min per group: the group's minimum by the one-call rules
// (canonical NaN, first of equal values, the largest value of T when the
// group has no participating row).
func GroupMin[T num.Number](x []T, ids []uint32, groups int, m Mask) []T {
	out := make([]T, groups)
	for g, gm := range GroupMasks(len(x), ids, groups, m) {
		out[g], _, _, _ = Summary(x, gm)
	}
	return out
}

// GroupMax is Max per group, as GroupMin.
func GroupMax[T num.Number](x []T, ids []uint32, groups int, m Mask) []T {
	out := make([]T, groups)
	for g, gm := range GroupMasks(len(x), ids, groups, m) {
		_, out[g], _, _ = Summary(x, gm)
	}
	return out
}
