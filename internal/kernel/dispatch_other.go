//go:build purego || !(amd64 || arm64)

package kernel

import (
	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
)

// The dispatch of every kernel family where no ISA has assembly (purego,
// or an architecture without kernels): Scalar and Generic, portable Go.

// sumFloatOn is the float sum of the valid elements of x: the strict fold.
func sumFloatOn[T constraints.Float](isa ISA, x []T, bits []byte, off int) T {
	return portableSumFloat(isa, x, bits, off)
}

// sumIntOn is the wrapping sum of the valid elements of x, in S.
func sumIntOn[T constraints.Integer, S int64 | uint64](isa ISA, x []T, bits []byte, off int) S {
	return portableSumInt[T, S](isa, x, bits, off)
}

// summaryOn is the min and max of the valid elements under the rules of
// ref.Summary and their count.
func summaryOn[T num.Number](isa ISA, x []T, bits []byte, off int, want Extremes) (lo, hi T, valid int) {
	return portableSummary(isa, x, bits, off, want)
}

// denseSummaryOn is the min and max of a non-empty dense x under the
// rules of ref.Summary; with WantMin (WantMax) only that extreme is
// meaningful.
func denseSummaryOn[T num.Number](isa ISA, x []T, want Extremes) (lo, hi T) {
	return denseSummaryGo(isa, x, want)
}

// CheckedI64 and CheckedU64 are the exact sums of 64-bit elements, in
// 128 bits.
func CheckedI64(isa ISA, x []int64, bits []byte, off int) num.Int128 {
	return portableCheckedI64(isa, x, bits, off)
}

func CheckedU64(isa ISA, x []uint64, bits []byte, off int) num.Int128 {
	return portableCheckedU64(isa, x, bits, off)
}

// CountValid counts the set bits among bits off..off+n-1.
func CountValid(isa ISA, bits []byte, off, n int) int {
	return portableCountValid(isa, bits, off, n)
}

// sumLanesOn adds x into the lane accumulators acc: on the strict ISAs one
// accumulator, the strict fold.
func sumLanesOn[T constraints.Float](isa ISA, acc, x []T, bits []byte, off int) {
	acc[0] = AddValid(acc[0], x, bits, off)
}

// reproIDDense names the reproducible-sum kernels that take a dense
// input of n bytes in place of the kernels id: id itself at every size.
func reproIDDense(id reproID, n int) reproID { return id }

// reproIDOf names isa's reproducible-sum kernels: the portable ones.
func reproIDOf(isa ISA) reproID { return reproGo }

func archReproRange[T float32 | float64](id reproID, x []T) (hi, lo uint32) {
	panic("quiver: internal error: no reproducible-sum kernels here")
}

func archReproFold[T float32 | float64](id reproID, p reproPlan, x, pf []T, mA, mB, mC float64) (a, b, c int64, resid uint64) {
	panic("quiver: internal error: no reproducible-sum kernels here")
}

func archReproCompress[T float32 | float64](id reproID, dst, x []T, bits []byte, off int) int {
	panic("quiver: internal error: no compress kernel here")
}

// archReproFoldsRange reports whether the kernels id fold and run the
// next block's range pass in one loop: none do here.
func archReproFoldsRange(id reproID) bool { return false }

func archReproFoldRange[T float32 | float64](id reproID, p reproPlan, x, nx, pf []T, mA, mB, mC float64) (a, b, c int64, resid uint64, hi, lo uint32) {
	panic("quiver: internal error: no fold-and-range kernel here")
}
