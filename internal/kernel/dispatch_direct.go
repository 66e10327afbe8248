//go:build purego || !amd64

package kernel

import (
	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
)

// The direct functions that the exported SumFloat, SumInt, DenseSummary
// and Summary call (typed.go): without the amd64 kernels, the typed
// entries, so that the dispatch and the loops under them are compiled in
// this package. On amd64 they call the kernels themselves
// (dispatch_amd64.go, asmcall_amd64.go).

// sumsDirect says whether the direct functions call kernels themselves:
// never here.
func sumsDirect(isa ISA) bool { return false }

func sumFloatDirect[T constraints.Float](isa ISA, x []T, bits []byte, off int) T {
	return sumFloatEntries(isa, x, bits, off)
}

func sumIntDirect[T constraints.Integer, S int64 | uint64](isa ISA, x []T, bits []byte, off int) S {
	return sumIntEntries[T, S](isa, x, bits, off)
}

func denseSummaryDirect[T num.Number](isa ISA, x []T, want Extremes) (lo, hi T) {
	return denseSummaryEntries(isa, x, want)
}

func sumLanesDirect[T constraints.Float](isa ISA, acc, x []T, bits []byte, off int) {
	sumLanesEntries(isa, acc, x, bits, off)
}

func summaryDirect[T num.Number](isa ISA, x []T, bits []byte, off int, want Extremes) (lo, hi T, valid int) {
	return summaryEntries(isa, x, bits, off, want)
}
