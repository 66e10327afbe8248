//go:build arm64 && !purego

package kernel

import (
	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
)

// The dispatch of every kernel family on arm64: one switch on the ISA per
// family, each case a direct call. NEON runs the wrappers of sum_arm64.go,
// summary_arm64.go, count_arm64.go and repro_arm64.go around the
// generated assembly (selections keep the Go loops); Scalar and Generic
// the portable Go of dispatch.go, generic.go and select.go.

// sumFloatOn is the float sum of the valid elements of x in isa's ADR-013
// order.
func sumFloatOn[T constraints.Float](isa ISA, x []T, bits []byte, off int) T {
	if isa == NEON {
		if num.KindOf[T]() == num.Float32 {
			return T(neonSumFloat(num.Cast[float32](x), bits, off))
		}
		return T(neonSumFloat(num.Cast[float64](x), bits, off))
	}
	return portableSumFloat(isa, x, bits, off)
}

// sumIntOn is the wrapping sum of the valid elements of x, in S.
func sumIntOn[T constraints.Integer, S int64 | uint64](isa ISA, x []T, bits []byte, off int) S {
	if isa == NEON {
		return neonSumInt[T, S](x, bits, off)
	}
	return portableSumInt[T, S](isa, x, bits, off)
}

// summaryOn is the min and max of the valid elements under the rules of
// ref.Summary (canonical NaN, first of equal values, identities when
// empty) and their count; with WantMin or WantMax only that extreme is
// meaningful.
func summaryOn[T num.Number](isa ISA, x []T, bits []byte, off int, want Extremes) (lo, hi T, valid int) {
	if isa == NEON {
		switch num.KindOf[T]() {
		case num.Float32:
			l, h, v := neonSummaryFloat(num.Cast[float32](x), bits, off)
			return T(l), T(h), v
		case num.Float64:
			l, h, v := neonSummaryFloat(num.Cast[float64](x), bits, off)
			return T(l), T(h), v
		}
		return neonSummaryInt(x, bits, off)
	}
	return portableSummary(isa, x, bits, off, want)
}

// denseSummaryOn is the min and max of a non-empty dense x under the
// rules of ref.Summary (the NEON kernels compute both extremes whatever
// want asks). NEON's wrappers are called from here, as summaryOn calls
// them: a frame more on the way cost a Min of 64 elements about a tenth on
// amd64 (BenchmarkMinLayers).
func denseSummaryOn[T num.Number](isa ISA, x []T, want Extremes) (lo, hi T) {
	if isa != NEON {
		return denseSummaryGo(isa, x, want)
	}
	switch num.KindOf[T]() {
	case num.Float32:
		l, h, _ := neonSummaryFloat(num.Cast[float32](x), nil, 0)
		return T(l), T(h)
	case num.Float64:
		l, h, _ := neonSummaryFloat(num.Cast[float64](x), nil, 0)
		return T(l), T(h)
	}
	lo, hi, _ = neonSummaryInt(x, nil, 0)
	return lo, hi
}

// CheckedI64 and CheckedU64 are the exact sums of 64-bit elements, in
// 128 bits.
func CheckedI64(isa ISA, x []int64, bits []byte, off int) num.Int128 {
	if isa == NEON {
		return neonCheckedI64(x, bits, off)
	}
	return portableCheckedI64(isa, x, bits, off)
}

func CheckedU64(isa ISA, x []uint64, bits []byte, off int) num.Int128 {
	if isa == NEON {
		return neonCheckedU64(x, bits, off)
	}
	return portableCheckedU64(isa, x, bits, off)
}

// CountValid counts the set bits among bits off..off+n-1.
func CountValid(isa ISA, bits []byte, off, n int) int {
	if isa == NEON {
		return neonCountValid(bits, off, n)
	}
	return portableCountValid(isa, bits, off, n)
}

// sumLanesOn adds x, whose length is a positive multiple of isa's block for
// T, into the unfolded lane accumulators acc in the order of ADR-013
// step 1 (see the API's SumState).
func sumLanesOn[T constraints.Float](isa ISA, acc, x []T, bits []byte, off int) {
	if isa == NEON {
		if num.KindOf[T]() == num.Float32 {
			neonSumLanes(num.Cast[float32](acc), num.Cast[float32](x), bits, off)
			return
		}
		neonSumLanes(num.Cast[float64](acc), num.Cast[float64](x), bits, off)
		return
	}
	acc[0] = AddValid(acc[0], x, bits, off)
}

// reproIDDense names the reproducible-sum kernels that take a dense
// input of n bytes in place of the kernels id: id itself at every size.
func reproIDDense(id reproID, n int) reproID { return id }

// reproIDOf names isa's reproducible-sum kernels.
func reproIDOf(isa ISA) reproID {
	if isa == NEON {
		return reproNEON
	}
	return reproGo
}
