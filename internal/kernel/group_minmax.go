package kernel

import (
	"math"

	"github.com/quiverlabs/quiver/internal/num"
)

// The grouped minimum and maximum alone: one value of T per group, no
// count and no flag. A group's entry starts at a value that the first
// participating row always replaces, so that it needs no "seen" flag:
//
//   - for integer types, the identity itself (the largest value of T for
//     the minimum, the lowest for the maximum): a group that saw only the
//     identity holds what an empty group holds, and both give the identity;
//   - for float types, the empty mark, a quiet NaN with a payload of its
//     own (GroupEmpty), which no row leaves in a table: a row NaN is
//     stored as the canonical NaN. Every comparison with a NaN is false,
//     so the row's test !(v >= a) takes the rare branch, which replaces
//     the mark with the row; a group's entry is a NaN other than the mark
//     once the group saw a NaN, and stays so (canonical NaN, ADR-103).
//
// The row's test is one compare and one branch, taken for a new extreme,
// a NaN row, the group's first row and a group that saw a NaN: the
// branch of the plain loop (if v < acc[g] { acc[g] = v }). Comparisons
// are strict, so of equal values the first seen stays (+0.0, -0.0).

// Empty marks, quiet NaNs whose payload the canonical NaN does not have.
const (
	groupMark32 uint32 = 0x7FE00000
	groupMark64 uint64 = 0x7FFC000000000000
)

// GroupEmpty is the entry of an empty group in a GroupMin or GroupMax
// table of a float type: the empty mark. For integer types there is no
// mark; the caller uses the identity.
func GroupEmpty[T num.Number]() T {
	if num.KindOf[T]() == num.Float32 {
		return T(math.Float32frombits(groupMark32))
	}
	return T(math.Float64frombits(groupMark64))
}

// GroupIsEmpty reports whether the entry a of a float table is the empty
// mark (always false for an integer type).
func GroupIsEmpty[T num.Number](a T) bool {
	switch num.KindOf[T]() {
	case num.Float32:
		return math.Float32bits(float32(a)) == groupMark32
	case num.Float64:
		return math.Float64bits(float64(a)) == groupMark64
	}
	return false
}

// groupStep is the rare branch of the row's test, for an entry a that the
// row v does not leave alone by the plain comparison (!(v >= a) for the
// minimum): a new extreme, a NaN on either side. A NaN entry other than
// the mark stays; the mark and a non-NaN entry take the row, a NaN row as
// the canonical NaN.
func groupStep[T num.Number](a, v T) T {
	if a != a && !GroupIsEmpty(a) {
		return a
	}
	if v != v {
		return num.NaN[T]()
	}
	return v
}

// groupPut is the rare branch of a row's test inside the loops: groupStep
// for the entry *p and the row v, storing only when the entry changes. It
// is small but over Go's inlining budget (cost 92 of 80 for each shape),
// so the loops call it; they take it for a new extreme, a NaN and a
// group's first row only.
func groupPut[T num.Number](p *T, v T) {
	// The mark is tested on T's own bits: a float32 widened to float64
	// keeps its payload on amd64 and arm64, but RISC-V's FCVT.D.S returns
	// the canonical NaN for every NaN input, so a test of float64(a)
	// never saw the mark there. The canonical float64 NaN narrows to the
	// canonical NaN of T everywhere (num.NaN[T] would cost the inliner
	// more: a kind switch that is not folded in shaped code). For integer
	// types a == a and v == v hold.
	if a := *p; a == a || GroupIsEmpty(a) {
		if v != v {
			v = T(math.Float64frombits(num.CanonicalNaN64))
		}
		*p = v
	}
}

// GroupMin updates the minimum table acc with the participating rows of
// x, in visiting order.
func GroupMin[T num.Number](acc, x []T, ids []uint32, bits []byte, off int, sel []uint32, hasSel bool) {
	switch {
	case hasSel:
		for _, i := range sel {
			if groupBit(bits, off, int(i)) {
				p := &acc[ids[i]]
				if v := x[i]; !(v >= *p) {
					groupPut(p, v)
				}
			}
		}
	case bits != nil:
		ids = ids[:len(x)]
		for i, v := range x {
			if groupBit(bits, off, i) {
				p := &acc[ids[i]]
				if !(v >= *p) {
					groupPut(p, v)
				}
			}
		}
	default:
		GroupMinDense(acc, x, ids)
	}
}

// GroupMax is GroupMin for the maximum table.
func GroupMax[T num.Number](acc, x []T, ids []uint32, bits []byte, off int, sel []uint32, hasSel bool) {
	switch {
	case hasSel:
		for _, i := range sel {
			if groupBit(bits, off, int(i)) {
				p := &acc[ids[i]]
				if v := x[i]; !(v <= *p) {
					groupPut(p, v)
				}
			}
		}
	case bits != nil:
		ids = ids[:len(x)]
		for i, v := range x {
			if groupBit(bits, off, i) {
				p := &acc[ids[i]]
				if !(v <= *p) {
					groupPut(p, v)
				}
			}
		}
	default:
		GroupMaxDense(acc, x, ids)
	}
}

// GroupMinDense is GroupMin for a dense batch whose ids are not yet
// checked: it checks each id against len(acc) as it goes and stops at the
// first one out of range, returning the number of rows taken (len(x) when
// every id is in range). On amd64 the 32- and 64-bit element types take
// the generated scalar kernels (group_amd64.s); the others, and every
// type elsewhere, the Go loops: for integer types with fewer than
// groupStoreBelow rows per group the storing one (groupMinStoreGo), else
// the branching one.
func GroupMinDense[T num.Number](acc, x []T, ids []uint32) int {
	if k, ok := groupMinAsm(acc, x, ids); ok {
		return k
	}
	if !num.IsFloat[T]() && len(x) < groupStoreBelow*len(acc) {
		return groupMinStoreGo(acc, x, ids)
	}
	return groupMinDenseGo(acc, x, ids)
}

// GroupMaxDense is GroupMinDense for the maximum table.
func GroupMaxDense[T num.Number](acc, x []T, ids []uint32) int {
	if k, ok := groupMaxAsm(acc, x, ids); ok {
		return k
	}
	if !num.IsFloat[T]() && len(x) < groupStoreBelow*len(acc) {
		return groupMaxStoreGo(acc, x, ids)
	}
	return groupMaxDenseGo(acc, x, ids)
}

// groupStoreBelow is the rows per group under which a dense batch takes
// the loops that store every row (on amd64 the generated groupMinStore<E>
// and groupMaxStore<E>; elsewhere, for integer types, groupMinStoreGo and
// groupMaxStoreGo) rather than those that branch on a new extreme: with
// random values a group's k-th row is a new extreme with probability 1/k,
// so with few rows per group the branch mispredicts often (about one row
// in five at 16 rows per group), and with many the stores' chains through
// the entries of few groups cost more (measured at 16, 256 and 4096
// groups of 65536 rows, bench/group2_test.go).
const groupStoreBelow = 64

// groupMinStoreGo is GroupMinDense for an integer type with no branch on
// the comparison: each row's entry is stored back, the smaller of it and
// the row, chosen by a conditional move (CMOV, CSEL). Float types keep the
// branching loop: Go selects integers without a branch but not floats, and
// a select on the floats' bits after a float compare, with the unordered
// pairs (the empty mark, NaNs) sent to a rare branch, measured slower than
// the branching loop at 16, 256 and 4096 groups (ADR-106).
func groupMinStoreGo[T num.Number](acc, x []T, ids []uint32) int {
	ids = ids[:len(x)]
	for i, v := range x {
		g := ids[i]
		if uint(g) >= uint(len(acc)) {
			return i
		}
		a := acc[g]
		if v < a {
			a = v
		}
		acc[g] = a
	}
	return len(x)
}

// groupMaxStoreGo is groupMinStoreGo for the maximum table.
func groupMaxStoreGo[T num.Number](acc, x []T, ids []uint32) int {
	ids = ids[:len(x)]
	for i, v := range x {
		g := ids[i]
		if uint(g) >= uint(len(acc)) {
			return i
		}
		a := acc[g]
		if v > a {
			a = v
		}
		acc[g] = a
	}
	return len(x)
}

// groupMinDenseGo is the Go loop of GroupMinDense: the check of four ids
// at once takes the place of the bounds checks.
func groupMinDenseGo[T num.Number](acc, x []T, ids []uint32) int {
	ids = ids[:len(x)]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		q := ids[i : i+4 : i+4]
		v := x[i : i+4 : i+4]
		g0, g1, g2, g3 := q[0], q[1], q[2], q[3]
		if uint(max(g0, g1, g2, g3)) >= uint(len(acc)) {
			break
		}
		if p := &acc[g0]; !(v[0] >= *p) {
			groupPut(p, v[0])
		}
		if p := &acc[g1]; !(v[1] >= *p) {
			groupPut(p, v[1])
		}
		if p := &acc[g2]; !(v[2] >= *p) {
			groupPut(p, v[2])
		}
		if p := &acc[g3]; !(v[3] >= *p) {
			groupPut(p, v[3])
		}
	}
	for ; i < len(x); i++ {
		g := ids[i]
		if uint(g) >= uint(len(acc)) {
			return i
		}
		if p := &acc[g]; !(x[i] >= *p) {
			groupPut(p, x[i])
		}
	}
	return len(x)
}

// groupMaxDenseGo is groupMinDenseGo for the maximum table.
func groupMaxDenseGo[T num.Number](acc, x []T, ids []uint32) int {
	ids = ids[:len(x)]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		q := ids[i : i+4 : i+4]
		v := x[i : i+4 : i+4]
		g0, g1, g2, g3 := q[0], q[1], q[2], q[3]
		if uint(max(g0, g1, g2, g3)) >= uint(len(acc)) {
			break
		}
		if p := &acc[g0]; !(v[0] <= *p) {
			groupPut(p, v[0])
		}
		if p := &acc[g1]; !(v[1] <= *p) {
			groupPut(p, v[1])
		}
		if p := &acc[g2]; !(v[2] <= *p) {
			groupPut(p, v[2])
		}
		if p := &acc[g3]; !(v[3] <= *p) {
			groupPut(p, v[3])
		}
	}
	for ; i < len(x); i++ {
		g := ids[i]
		if uint(g) >= uint(len(acc)) {
			return i
		}
		if p := &acc[g]; !(x[i] <= *p) {
			groupPut(p, x[i])
		}
	}
	return len(x)
}

// GroupMergeMin merges the entry n of a group over the piece of input that
// follows a's into a: the result of the rows of a's piece and then n's.
func GroupMergeMin[T num.Number](a, n T) T {
	if !(n >= a) && !GroupIsEmpty(n) {
		return groupStep(a, n)
	}
	return a
}

// GroupMergeMax is GroupMergeMin for the maximum.
func GroupMergeMax[T num.Number](a, n T) T {
	if !(n <= a) && !GroupIsEmpty(n) {
		return groupStep(a, n)
	}
	return a
}
