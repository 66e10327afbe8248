//go:build amd64 && !purego

package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/ref"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// TestSummaryDenseOffsets runs the dense Min, Max and fused summary on
// AVX2 and AVX-512 over columns that start 0 to 9 elements past a 64-byte
// boundary, so that the AVX2 kernels' overlapping first and last steps
// (alignOverlap, tailOverlap) and the AVX-512 masked head cover every
// split of a column: its extreme, a NaN (floats) or a zero of the other
// sign (the ±0 rule: the first zero wins) at each position of short
// columns and of the ends of long ones. Every result must match the
// reference bit for bit; a step that skipped or misplaced its elements
// misses the extreme or the NaN placed there. With -short (the emulated
// CPUs' runs) the offsets 0, 1, 2, 5 and 9.
func TestSummaryDenseOffsets(t *testing.T) {
	t.Run("float64", func(t *testing.T) { offsetsDiff[float64](t) })
	t.Run("float32", func(t *testing.T) { offsetsDiff[float32](t) })
	t.Run("int64", func(t *testing.T) { offsetsDiff[int64](t) })
	t.Run("uint64", func(t *testing.T) { offsetsDiff[uint64](t) })
	t.Run("int32", func(t *testing.T) { offsetsDiff[int32](t) })
	t.Run("uint16", func(t *testing.T) { offsetsDiff[uint16](t) })
	t.Run("int8", func(t *testing.T) { offsetsDiff[int8](t) })
}

func offsetsDiff[T num.Number](t *testing.T) {
	r := rand.New(rand.NewPCG(11, uint64(sizeOf[T]())))
	lens := []int{}
	for n := 1; n <= 80; n++ {
		lens = append(lens, n)
	}
	lens = append(lens, 127, 128, 129, 255, 256, 257, 1000, 1029)
	for _, isa := range []ISA{AVX2, AVX512} {
		if !hasISA(isa) {
			continue
		}
		for _, off := range sweepOffsets() {
			for _, n := range lens {
				x := testkit.AlignedAt[T](n, off)
				for i := range x {
					x[i] = offsetValue[T](r)
				}
				check := func(what string) {
					t.Helper()
					lo, hi, _, _ := ref.Summary(x, ref.Mask{})
					for _, want := range []Extremes{WantMin, WantMax, WantBoth} {
						glo, ghi := DenseSummary(isa, x, want)
						if want != WantMax && !sameNumber(glo, lo) {
							t.Fatalf("%s off=%d n=%d %s want=%d: min %v, reference %v", isa, off, n, what, want, glo, lo)
						}
						if want != WantMin && !sameNumber(ghi, hi) {
							t.Fatalf("%s off=%d n=%d %s want=%d: max %v, reference %v", isa, off, n, what, want, ghi, hi)
						}
					}
				}
				check("random")
				// Positions: all of a short column, the first and last
				// 40 of a long one (both overlapping steps and the loops'
				// first and last vectors).
				for p := range n {
					if n > 80 && p >= 40 && p < n-40 {
						continue
					}
					saved := x[p]
					x[p] = num.MaxOf[T]()
					check(fmt.Sprintf("max at %d", p))
					x[p] = num.LowestOf[T]()
					check(fmt.Sprintf("min at %d", p))
					if num.IsFloat[T]() {
						x[p] = num.NaN[T]()
						check(fmt.Sprintf("NaN at %d", p))
					}
					x[p] = saved
				}
				if num.IsFloat[T]() && n >= 2 {
					// ±0 extremes: every value zero but one sign; the
					// first zero decides.
					z := append([]T(nil), x...)
					for i := range x {
						x[i] = 0
					}
					for p := range n {
						if n > 80 && p >= 40 && p < n-40 {
							continue
						}
						x[p] = T(math.Copysign(0, -1))
						check(fmt.Sprintf("-0 at %d", p))
						x[p] = 0
					}
					copy(x, z)
				}
			}
		}
	}
}

// offsetValue draws a value away from the type's limits, so that the
// limits placed by the test are the extremes.
func offsetValue[T num.Number](r *rand.Rand) T {
	if num.IsFloat[T]() {
		return T(r.NormFloat64())
	}
	return T(r.IntN(100) + 1)
}

// sameNumber compares floats by their bits (NaN, ±0) and integers by value.
func sameNumber[T num.Number](a, b T) bool {
	switch num.KindOf[T]() {
	case num.Float64:
		return math.Float64bits(float64(a)) == math.Float64bits(float64(b))
	case num.Float32:
		return math.Float32bits(float32(a)) == math.Float32bits(float32(b))
	}
	return a == b
}

// sweepOffsets are the offsets 0 to 9 that the dense and seeded summary
// sweeps run, or with -short (which the emulated CPUs' runs pass, where
// these sweeps took most of the package's time) 0, 1, 2, 5 and 9.
func sweepOffsets() []int {
	if testing.Short() {
		return []int{0, 1, 2, 5, 9}
	}
	return []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
}
