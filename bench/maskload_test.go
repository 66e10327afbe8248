package bench

// The masked float Sum on AVX-512 reads each iteration's validity bits
// with a general-register load and shift, moves them to an opmask
// register (KMOVQ) and shifts that for each vector (KSHIFTRQ). In a
// loop-only test of 60 interleaved rounds on an AMD EPYC family 26 model
// 2 (Zen 5 class), float64 with 10% nulls, fastest round: 134 ns at
// n=4096 (the dense loop 71), 3172 ns at n=65536 (dense 2207), 89.7 µs
// at n=1M (dense 79.7). Loading the bits straight from memory into the
// opmask register (KMOVD m32) took 115, 2267 and 82.1: from L2 the masked
// loop ran at the dense loop's speed. The general-register route was as
// slow as before when its word went on to a vector register instead
// (VPBROADCASTQ r64 and VPTESTMQ: 3207 ns at 65536), and as fast as the
// memory load when the broadcast read memory (2238 ns): the masked adds
// wait for a mask that crosses from the integer registers, and from L2
// that wait is what the loop takes. A load straight from memory needs
// the bitmap position on a byte boundary (off a multiple of 8 at the
// loop's start), which is where batches and whole Arrow arrays start;
// other positions keep the shifted word.
//
// The change: on AVX-512, the fast iterations of the masked float sums
// (Sum and the SumState lane kernels, float64 and float32) load their
// opmask from the bitmap when the bit position is a whole byte.
// Registered on 2026-12-03 on an AMD EPYC family 26 model 2 (Zen 5
// class), before the change; measured with BenchmarkMaskedSum, the bench
// binaries of the commit before and after run alternately, 10% nulls,
// ratio time after over time before, by the medians and the fastest
// samples:
//
//	H314 (measured by hand): BenchmarkMaskedSum float64 n=65536 bitoff=0 on avx512: time <= 0.80x before
//	H315 (measured by hand): BenchmarkMaskedSum float32 n=65536 bitoff=0 on avx512: time <= 0.85x before
//	H316 (measured by hand): BenchmarkMaskedSum float64 and float32 n=4096 bitoff=0 on avx512: time <= 0.95x before
//	H317 (measured by hand): BenchmarkMaskedSum float64 and float32 n=1048576 bitoff=0 on avx512: time <= 0.95x before
//	H318 (measured by hand): BenchmarkMaskedSum bitoff=3, every type and n, on avx512: time <= 1.03x before (the path that does not change)
//	H319 (measured by hand): BenchmarkMaskedSum state1024 float64 n=1048576 bitoff=0 on avx512 (H71's shape): time <= 0.90x before

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver"
)

// BenchmarkMaskedSum times the masked float Sum on the dispatched backend
// with 10% nulls, over rotations bitmaps in turn, for bit offsets 0 and 3
// of the bitmap (bitoff: the Mask's offset; x always starts at element
// 0), and SumState fed 1024 elements per Add, each batch its
// Valid(bits, lo):
//
//	go test -run '^$' -bench MaskedSum -count 6 .
func BenchmarkMaskedSum(b *testing.B) {
	b.Run("type=float64", func(b *testing.B) { maskedSum[float64](b) })
	b.Run("type=float32", func(b *testing.B) { maskedSum[float32](b) })
}

func maskedSum[T float32 | float64](b *testing.B) {
	for _, n := range []int{4096, 65536, 1 << 20} {
		x := make([]T, n)
		drawValues(rand.New(rand.NewPCG(5, uint64(n))), x)
		r := rand.New(rand.NewPCG(10, 107))
		var bms [rotations][]byte
		for k := range bms {
			bms[k] = drawBitmap(r, n+8, 10)
		}
		for _, bitoff := range []int{0, 3} {
			var masks [rotations]quiver.Mask
			for k := range masks {
				masks[k] = quiver.Valid(bms[k], bitoff)
			}
			name := fmt.Sprintf("n=%d/bitoff=%d", n, bitoff)
			runRotated(b, name+"/impl=sum", &sinkFloat, func(k int) float64 {
				return float64(quiver.Sum(x, masks[k]))
			})
			if n == 1<<20 && bitoff == 0 {
				runRotated(b, name+"/impl=state1024", &sinkFloat, func(k int) float64 {
					var s quiver.SumState[T]
					for lo := 0; lo < n; lo += 1024 {
						s.Add(x[lo:lo+1024], quiver.Valid(bms[k], lo))
					}
					return float64(s.Sum())
				})
			}
		}
	}
}
