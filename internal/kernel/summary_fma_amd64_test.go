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

// TestSummaryDenseAVX2Sentinels runs dense float Min, Max and the fused
// summary on the AVX2 backend with the sentinel sums as additions (CPUs
// without FMA3) and as FMAs (the others), against the reference, on the
// inputs that exercise the sentinels: a NaN at every position of short
// columns and at random positions of long ones, +Inf meeting -Inf (the
// false alarm the exact scan settles), sums that overflow both ways, and
// ±0 ties; and for the FMA kernels' products, pairs whose products
// overflow both ways (no alarm) and an infinity meeting a zero (an alarm
// the additions' kernel clears).
func TestSummaryDenseAVX2Sentinels(t *testing.T) {
	if !hasISA(AVX2) {
		t.Skip("no AVX2")
	}
	if !hasFMA {
		t.Log("no FMA3: only the additions run")
	}
	t.Run("float64", func(t *testing.T) { sentinelDiff[float64](t) })
	t.Run("float32", func(t *testing.T) { sentinelDiff[float32](t) })
}

func sentinelDiff[T float32 | float64](t *testing.T) {
	saved := hasFMA
	defer func() { hasFMA = saved }()
	for _, fma := range []bool{false, true} {
		if fma && !saved {
			continue
		}
		hasFMA = fma
		r := rand.New(rand.NewPCG(7, uint64(sizeOf[T]())))
		check := func(what string, x []T) {
			t.Helper()
			lo, hi, _, _ := ref.Summary(x, ref.Mask{})
			for _, want := range []Extremes{WantMin, WantMax, WantBoth} {
				glo, ghi, _ := summaryOn(AVX2, x, nil, 0, want)
				if want != WantMax && !sameNumber(glo, lo) {
					t.Fatalf("fma=%v %s n=%d want=%d: min %v, reference %v", fma, what, len(x), want, glo, lo)
				}
				if want != WantMin && !sameNumber(ghi, hi) {
					t.Fatalf("fma=%v %s n=%d want=%d: max %v, reference %v", fma, what, len(x), want, ghi, hi)
				}
			}
		}
		nan := T(math.Float64frombits(0x7ff8_0000_dead_beef))
		for n := 1; n <= 80; n++ {
			x := make([]T, n)
			for i := range x {
				x[i] = T(r.NormFloat64())
			}
			check("plain", x)
			for p := range n {
				y := append([]T(nil), x...)
				y[p] = nan
				check(fmt.Sprintf("NaN at %d", p), y)
				y[p] = T(math.Inf(1))
				y[(p+n/2)%n] = T(math.Inf(-1))
				check(fmt.Sprintf("±Inf at %d", p), y)
			}
		}
		for _, n := range []int{256, 1000, 4096, 4099} {
			x := make([]T, n)
			for i := range x {
				x[i] = T(r.NormFloat64())
			}
			check("plain", x)
			for range 20 {
				y := append([]T(nil), x...)
				y[r.IntN(n)] = nan
				check("NaN", y)
				y = append([]T(nil), x...)
				big := num.MaxOf[T]()
				for i := range y {
					if r.IntN(2) == 0 {
						y[i] = big
					} else {
						y[i] = -big
					}
				}
				check("overflowing sums", y)
				// Products of pairs that overflow to +Inf and to -Inf
				// while their sums stay finite: no alarm, since an FMA
				// adds the exact product to an infinite sentinel.
				root := T(math.Sqrt(float64(big)) * 4)
				for i := range y {
					y[i] = root * T(1+r.Float64())
					if r.IntN(2) == 0 {
						y[i] = -y[i]
					}
				}
				check("overflowing products", y)
				// +Inf meeting a zero in a product (the FMA sentinel's
				// false alarm), no NaN.
				for i := range y {
					y[i] = T(r.IntN(2))
				}
				for range 8 {
					y[r.IntN(n)] = T(math.Inf(1))
				}
				check("Inf times 0", y)
				if fma {
					// The case reaches the second kernel: the products
					// alarm, the sums do not.
					if _, _, a := summaryDenseAsm(AVX2, WantMin, true, y); !a {
						t.Fatalf("n=%d: Inf times 0 did not alarm the FMA kernel", n)
					}
					if _, _, a := summaryDenseAsm(AVX2, WantMin, false, y); a {
						t.Fatalf("n=%d: Inf times 0 alarmed the additions' kernel", n)
					}
				}
				y = append([]T(nil), x...)
				for i := range y {
					y[i] = T(math.Abs(float64(y[i])))
				}
				negZero := T(math.Copysign(0, -1))
				y[r.IntN(n)], y[r.IntN(n)] = negZero, 0
				check("±0", y)
				y[r.IntN(n)] = T(math.Inf(1))
				y[r.IntN(n)] = T(math.Inf(-1))
				check("±Inf", y)
			}
		}
	}
}
