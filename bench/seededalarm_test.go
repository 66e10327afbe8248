package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver"
)

// BenchmarkSeededAlarmAVX2 times the masked MinMax and Min on the avx2 backend
// over values whose FMA sentinel alarms on every call without a NaN: every
// 1024th element is +Inf and the elements 4 and 8 after it are zeros, so
// that in every vector pair of float64 (4 lanes) and float32 (8 lanes)
// some lane multiplies +Inf by zero. Go then runs the seeded kernel whose
// NaN check is a compare (H363, H368). 10% nulls over rotating bitmaps:
//
//	go test -run '^$' -bench SeededAlarmAVX2 -count 6 .
func BenchmarkSeededAlarmAVX2(b *testing.B) {
	onBackend(b, "avx2", func(b *testing.B) {
		b.Run("type=float64", func(b *testing.B) { seededAlarm[float64](b) })
		b.Run("type=float32", func(b *testing.B) { seededAlarm[float32](b) })
	})
}

func seededAlarm[T float32 | float64](b *testing.B) {
	for _, n := range []int{4096, 65536} {
		x := make([]T, n)
		drawValues(rand.New(rand.NewPCG(8, uint64(n))), x)
		for k := 0; k+8 < n; k += 1024 {
			x[k], x[k+4], x[k+8] = T(math.Inf(1)), 0, 0
		}
		r := rand.New(rand.NewPCG(12, 64))
		var masks [rotations]quiver.Mask
		for k := range masks {
			masks[k] = quiver.Valid(drawBitmap(r, n, 10), 0)
		}
		for k := range masks {
			if lo, hi := quiver.MinMax(x, masks[k]); lo != lo || hi != hi {
				b.Fatalf("n=%d: MinMax is NaN without a NaN", n)
			}
		}
		runRotated(b, fmt.Sprintf("n=%d/op=minmax", n), &sinkFloat, func(k int) float64 {
			lo, hi := quiver.MinMax(x, masks[k])
			return float64(lo) + float64(hi)
		})
		runRotated(b, fmt.Sprintf("n=%d/op=min", n), &sinkFloat, func(k int) float64 {
			return float64(quiver.Min(x, masks[k]))
		})
	}
}
