//go:build amd64 && !purego

package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/ref"
)

// TestSummarySeeded runs the masked fused summary (min, max and count) of
// every element type on AVX2, and the masked float Min and Max, whose
// kernels start from a valid element that Go finds, the seed, and blend it
// into the invalid lanes (summarySeededAsm). Every invalid element holds a
// value outside the valid ones (the type's limits; for floats also ±Inf
// and NaN), so that an invalid lane that reached either extreme or the NaN
// check, or a seed taken from an invalid element, shows in the result. The
// cases put the first valid element at every position near the ends of the
// kernel's range, leave a single valid element, leave none in the kernel's
// range (valid elements only in the head before the bitmap's first byte
// boundary and in the tail that Go folds), and none at all, at bit offsets
// 0 to 9 (sweepOffsets: five of them with -short) and lengths around the kernels' steps; for floats also a valid
// NaN (as the seed, and past it) and zeros of both signs. Each result must
// match the reference, floats bit for bit. Floats run with the kernels
// whose NaN check is an FMA sentinel and with those whose check is a
// compare; for the sentinel, valid infinities of both signs, zeros and
// values whose products overflow both ways (an alarm without a NaN, which
// the compares' kernel must settle) are among the cases.
func TestSummarySeeded(t *testing.T) {
	if !hasISA(AVX2) {
		t.Skip("no AVX2")
	}
	t.Run("int8", func(t *testing.T) { seededDiff[int8](t) })
	t.Run("uint8", func(t *testing.T) { seededDiff[uint8](t) })
	t.Run("int16", func(t *testing.T) { seededDiff[int16](t) })
	t.Run("uint16", func(t *testing.T) { seededDiff[uint16](t) })
	t.Run("int32", func(t *testing.T) { seededDiff[int32](t) })
	t.Run("uint32", func(t *testing.T) { seededDiff[uint32](t) })
	t.Run("int64", func(t *testing.T) { seededDiff[int64](t) })
	t.Run("uint64", func(t *testing.T) { seededDiff[uint64](t) })
	t.Run("float32", func(t *testing.T) { seededDiff[float32](t) })
	t.Run("float64", func(t *testing.T) { seededDiff[float64](t) })
}

func seededDiff[T num.Number](t *testing.T) {
	saved := hasFMA
	defer func() { hasFMA = saved }()
	for _, fma := range []bool{false, true} {
		if fma && (!saved || !num.IsFloat[T]()) {
			continue
		}
		hasFMA = fma
		t.Run(fmt.Sprintf("fma=%v", fma), func(t *testing.T) { seededCases[T](t) })
	}
}

func seededCases[T num.Number](t *testing.T) {
	r := rand.New(rand.NewPCG(21, uint64(sizeOf[T]())))
	alarms := 0 // calls of the sentinel kernel that alarmed without a NaN
	lens := []int{64, 65, 71, 72, 79, 80, 96, 127, 128, 136, 255, 256, 263, 1000, 1029}
	for _, off := range sweepOffsets() {
		for _, n := range lens {
			x := make([]T, n)
			bits := make([]byte, (off+n+7)/8)
			setValid := func(i int, v bool) {
				p := off + i
				if v {
					bits[p>>3] |= 1 << (p & 7)
					x[i] = offsetValue[T](r)
					return
				}
				bits[p>>3] &^= 1 << (p & 7)
				outside := []T{num.MaxOf[T](), num.LowestOf[T]()}
				if num.IsFloat[T]() {
					outside = append(outside, num.NaN[T](), T(math.Inf(1)), T(math.Inf(-1)))
				}
				x[i] = outside[r.IntN(len(outside))]
			}
			check := func(what string) {
				t.Helper()
				lo, hi, count, _ := ref.Summary(x, ref.Mask{Bits: bits, Off: off})
				glo, ghi, gvalid := Summary(AVX2, x, bits, off, WantBoth)
				if !sameNumber(glo, lo) || !sameNumber(ghi, hi) || gvalid != count {
					t.Fatalf("off=%d n=%d %s: (min %v, max %v, valid %d), reference (%v, %v, %d)",
						off, n, what, glo, ghi, gvalid, lo, hi, count)
				}
				if !num.IsFloat[T]() {
					return
				}
				// The float kernels of one extreme are seeded too.
				if glo, _, gvalid := Summary(AVX2, x, bits, off, WantMin); !sameNumber(glo, lo) || gvalid != count {
					t.Fatalf("off=%d n=%d %s: Min %v (valid %d), reference %v (%d)", off, n, what, glo, gvalid, lo, count)
				}
				if _, ghi, gvalid := Summary(AVX2, x, bits, off, WantMax); !sameNumber(ghi, hi) || gvalid != count {
					t.Fatalf("off=%d n=%d %s: Max %v (valid %d), reference %v (%d)", off, n, what, ghi, gvalid, hi, count)
				}
			}
			// The kernel's range: from the first byte boundary of the
			// bitmap to the last whole step of 8 elements.
			head := min((8-off&7)&7, n)
			end := head + (n-head)&^7
			for i := range n {
				setValid(i, r.IntN(2) == 0)
			}
			check("half valid")
			for _, p := range []int{0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65} {
				for _, at := range []int{head + p, end - 1 - p} {
					if at < head || at >= end {
						continue
					}
					for i := range n {
						setValid(i, i >= at && r.IntN(3) != 0)
					}
					setValid(at, true)
					check(fmt.Sprintf("first valid at %d", at))
					for i := range n {
						setValid(i, i == at)
					}
					check(fmt.Sprintf("only %d valid", at))
					if !num.IsFloat[T]() {
						continue
					}
					// A valid NaN: the seed itself, then past a seed that
					// is not.
					for i := range n {
						setValid(i, i >= at && r.IntN(3) != 0)
					}
					setValid(at, true)
					x[at] = num.NaN[T]()
					check(fmt.Sprintf("NaN seed at %d", at))
					x[at] = offsetValue[T](r)
					if at+1 < end {
						setValid(at+1, true)
						x[at+1] = num.NaN[T]()
						check(fmt.Sprintf("NaN at %d after the seed", at+1))
					}
					// Zeros of both signs: the first that takes part wins.
					for i := range n {
						v := i >= at && r.IntN(3) != 0
						setValid(i, v)
						if v {
							x[i] = T(math.Copysign(0, float64(1-2*r.IntN(2))))
						}
					}
					setValid(at, true)
					x[at] = T(math.Copysign(0, -1))
					check(fmt.Sprintf("zeros from %d", at))
					// No NaN, but infinities that meet zeros or each
					// other in a lane, and finite values whose products
					// overflow both ways.
					huge := T(math.Sqrt(float64(num.MaxOf[T]())) * 4)
					special := []T{T(math.Inf(1)), T(math.Inf(-1)), 0, T(math.Copysign(0, -1)), huge, -huge}
					for i := range n {
						v := i >= at && r.IntN(3) != 0
						setValid(i, v)
						if v && r.IntN(2) == 0 {
							x[i] = special[r.IntN(len(special))]
						}
					}
					setValid(at, true)
					check(fmt.Sprintf("infinities from %d", at))
					if hasFMA && at >= head && end-head >= 16 {
						xs, bs := x[head:end], bits[(off+head)>>3:]
						if s, ok := firstValid(xs, bs); ok {
							for _, want := range []Extremes{WantBoth, WantMin, WantMax} {
								if _, _, _, n := summarySeededAsm(AVX2, want, true, xs, bs, 0, 0, s); n { // no valid element is NaN here
									alarms++
								}
							}
						}
					}
				}
			}
			for i := range n {
				setValid(i, i < head || i >= end)
			}
			check("none valid in the kernel's range")
			for i := range n {
				setValid(i, false)
			}
			check("none valid")
		}
	}
	if num.IsFloat[T]() && hasFMA && alarms == 0 {
		t.Fatal("the FMA sentinel never alarmed without a NaN: the cases do not reach the exact kernel")
	}
}
