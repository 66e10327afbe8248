package bench

// The masked float Sum on AVX2 turns each validity bit into a lane mask
// (VPSLLVQ of the broadcast bitmap word moves bit i to the sign of lane
// i) and selects the element or -0.0 with VBLENDVPD/VBLENDVPS before the
// add. On Intel's Golden Cove cores a variable blend with a memory
// operand decodes to three micro-ops on the vector ports (two on the
// Skylake family, one on AMD Zen), so an iteration of four vectors
// issues about 22 vector micro-ops against 4 for the dense loop, on
// three vector ports. The loop-only probes on the AMD EPYC Zen 5
// (docs/ledger.md, "the avx2 backend against the peers") found the loop
// bound by its micro-ops, not by the blend's pipe.
//
// The change: the one-call float Sum on AVX2 loads each vector with
// VMASKMOVPD/VMASKMOVPS under the sign-bit mask instead, which reads the
// valid lanes and gives +0.0 in the others, and adds that: the mask is
// applied by the load, and the blend's micro-ops go. Adding +0.0 is
// exact wherever -0.0 is: an accumulator that starts at +0.0 never
// becomes -0.0 in round to nearest (x + y is -0.0 only when both are),
// and acc + +0.0 == acc for every other acc, NaN and infinities
// included. The SumState lane kernels keep the blend: their
// accumulators come from the caller (a decoded state among them), and a
// lane of -0.0 plus +0.0 would read +0.0 where the oracle keeps -0.0.
//
// Registered on 2026-12-06 on an Intel Xeon family 6 model 207 (AVX-512;
// the avx2 backend chosen with quiver.SetBackend), before the change;
// measured with BenchmarkMaskedSumAVX2, the bench binaries of the commit
// before and after run alternately, 10% nulls, ratio time after over time
// before, by the medians and the fastest samples:
//
//	H320 (measured by hand): BenchmarkMaskedSumAVX2 float64 n=4096 and 65536, bitoff 0 and 3, on avx2: time <= 0.80x before
//	H321 (measured by hand): BenchmarkMaskedSumAVX2 float32 n=4096 and 65536, bitoff 0 and 3, on avx2: time <= 0.80x before
//	H322 (measured by hand): BenchmarkMaskedSumAVX2 float64 and float32 n=1048576, bitoff 0 and 3, on avx2: time <= 0.95x before
//	H323 (measured by hand): BenchmarkMaskedSumAVX2 state1024 float64 and float32 n=1048576 on avx2 (the lane kernels, unchanged): time <= 1.03x before
//	H324 (measured by hand): BenchmarkMaskedSumAVX2 float64 n=65536 bitoff 0 on avx2: at most 2.0x the dense Sum's time in the same run (BenchmarkDenseSumAVX2)

// The same for the AVX2 64-bit integer sums (SumInt of int64 and SumUint of
// uint64, and the exact SumChecked): each vector is selected against zero with
// VBLENDVPD before it is added (SumInt) or split into its 32-bit halves
// (SumChecked). A VPMASKMOVQ load gives 0 for a null, the exact neutral
// of an integer sum, so the change needs no argument beyond the mask.
// SumChecked's split issues five vector operations per vector, SumInt's
// add one, so the blend is a smaller share of SumChecked's loop.
// Registered on 2026-12-06 on the same Intel Xeon family 6 model 207,
// before the change; BenchmarkMaskedIntSumAVX2 (10% nulls, bit offset 0,
// rotating bitmaps), the bench binaries of the commit before and after
// run alternately, ratio time after over time before:
//
//	H325 (measured by hand): BenchmarkMaskedIntSumAVX2 op=sum n=4096 and 65536 on avx2: time <= 0.80x before
//	H326 (measured by hand): BenchmarkMaskedIntSumAVX2 op=checked n=4096 and 65536 on avx2: time <= 0.90x before
//	H327 (measured by hand): BenchmarkMaskedIntSumAVX2 op=sum and op=checked n=1048576 on avx2: time <= 1.0x before
//	H328 (measured by hand): BenchmarkMaskedIntSumAVX2 op=sum n=65536 on avx2: at least 0.75x the speed of arrow-go's dense int64 Sum in the same run (impl=arrow; H187's bar is 1.0x)

// After those two changes an iteration of the 64-bit masked loops (16
// elements) still issues a broadcast of the bitmap word to a vector (two
// micro-ops on the shuffle port) and a VPSLLVQ per vector to move each
// lane's bit to its sign, beside the masked load and the add: 14 vector
// micro-ops against the dense loop's 4. A 16-entry table of sign masks,
// one 32-byte row per nibble of validity bits, turns the shift into a
// load: the nibble is rotated and masked into a row index in a general
// register (RORX, AND: two integer micro-ops, on ports the loop leaves
// idle), the row is loaded (a load port) and feeds VMASKMOVPD/VPMASKMOVQ.
// That leaves 8 vector micro-ops per iteration. float32 keeps the shift:
// its 8 lanes per vector would need a 256-row table (8 KB).
// Registered on 2026-12-06 on the same Intel Xeon family 6 model 207,
// before the change; the commit before and after run alternately, ratio
// time after over time before:
//
//	H329 (measured by hand): BenchmarkMaskedSumAVX2 float64 n=4096 and 65536, bitoff 0 and 3, on avx2: time <= 0.85x before
//	H330 (measured by hand): BenchmarkMaskedIntSumAVX2 op=sum n=4096 and 65536 on avx2: time <= 0.85x before
//	H331 (measured by hand): BenchmarkMaskedIntSumAVX2 op=checked n=4096 and 65536 on avx2: time <= 0.92x before
//	H332 (measured by hand): BenchmarkMaskedSumAVX2 and BenchmarkMaskedIntSumAVX2 n=1048576, and float32 (code unchanged), on avx2: time <= 1.03x before

// Not kept: the table was no faster. float64 and the checked sum were
// level with the commit before (0.92-1.05) and the int64 sum slower
// (1.11-1.21), so the vector shifts were not the bound. A loop-only probe
// (float64, 4096 elements in L1, 10% nulls, fastest of three) put the
// masked loads with a constant mask at 251-268 ns against the dense
// loop's 196-202, the shipped loop at 440-500, and the same loop with its
// bitmap word broadcast straight from memory (VPBROADCASTQ m64) instead of
// through a general register (load, VMOVQ, VPBROADCASTQ) at 389: the
// masked loads wait for a mask that crosses from the integer registers,
// as the AVX-512 opmasks did (H314). When the bit position is on a byte
// boundary at the loop's start (batches, whole Arrow arrays), the fast
// iterations can take the broadcast from memory; other positions keep the
// register route. Registered on 2026-12-06 on the same Intel Xeon family 6
// model 207, before the change; the commit before and after run
// alternately, ratio time after over time before:
//
//	H333 (measured by hand): BenchmarkMaskedSumAVX2 float64 and float32 n=4096 and 65536 bitoff=0 on avx2: time <= 0.92x before
//	H334 (measured by hand): BenchmarkMaskedIntSumAVX2 op=sum and op=checked n=4096 and 65536 on avx2: time <= 0.92x before
//	H335 (measured by hand): BenchmarkMaskedSumAVX2 bitoff=3 (the register route, unchanged), every n=1048576 case and state1024 on avx2: time <= 1.03x before

// The AVX2 masked sums of 32-bit integers widen each group of 4 elements
// to 64-bit lanes (VPMOVSXDQ or VPMOVZXDQ from memory) and then blend the
// nulls to zero in the register: per 8 elements two shifts, two widening
// loads, two blends (three micro-ops each on Golden Cove, one on Zen) and
// two additions. Instead, one VPMASKMOVD of 8 elements under a 32-bit
// lane mask (one VPSLLVD of the broadcast bits) reads 0 for the nulls,
// and the two halves are widened in registers (VPMOVSXDQ of the low half,
// VEXTRACTI128 and VPMOVSXDQ of the high one): 7 vector operations per 8
// elements in place of 12 on Golden Cove (8 on Zen), three of them on the
// shuffle port. Registered on 2026-12-06 on the same Intel Xeon family 6
// model 207, before the change; the ledger matrix's BenchmarkSum
// (impl=avx2), the commit before and after alternately, time after over
// time before:
//
//	H340 (measured by hand): BenchmarkSum int32 n=4096 and 65536, nulls 10% and 50%, impl=avx2: time <= 0.80x before
//	H341 (measured by hand): BenchmarkSum int32 n=1048576, nulls 10% and 50%, impl=avx2: time <= 1.0x before
//	H342 (measured by hand): BenchmarkSum int64 and float64 n=4096 and 65536, nulls 10%, impl=avx2 (code unchanged): time <= 1.03x before

// H320-H342 were registered and decided on an Intel core, where a variable
// blend is three micro-ops. AVX2-only machines are mostly AMD Zen 2 and 3,
// where a blend is one micro-op and VMASKMOVPD/VPMASKMOVQ loads are one or
// two, so there the blends these changes removed were cheaper to begin
// with, and the masked loads could even cost more. The same changes, all
// together, on an AMD EPYC family 26 model 2 (Zen 5 class, AVX-512; the
// avx2 backend chosen with quiver.SetBackend), registered on 2026-12-06
// before measuring: the bench binaries of 080c8a7 (with this file copied
// in) and of the commit after the changes, run alternately, ratio time
// after over time before, by the medians:
//
//	H343 (measured by hand): BenchmarkMaskedSumAVX2 float64 and float32 n=4096 and 65536, bitoff 0 and 3, on avx2 on Zen 5: time <= 0.90x before
//	H344 (measured by hand): BenchmarkMaskedIntSumAVX2 op=sum and op=checked n=4096 and 65536 on avx2 on Zen 5: time <= 0.95x before
//	H345 (measured by hand): BenchmarkMaskedSumAVX2 and BenchmarkMaskedIntSumAVX2 n=1048576 and state1024 on avx2 on Zen 5: time <= 1.03x before
//	H346 (measured by hand): BenchmarkSum int32 n=4096 and 65536, nulls 10% and 50%, impl=avx2 on Zen 5: time <= 0.90x before
//	H347 (measured by hand): BenchmarkSummary and BenchmarkMinMax float64 and float32 n=4096 and 65536, nulls 10% and 50%, impl=avx2 on Zen 5 (the one blend: the same micro-op count on Zen): time <= 1.03x before

// H345 missed: on the Zen 5 the masked loads made every n=1048576 case
// slower (float64 Sum 1.16-1.40x by the medians, SumInt 1.04-1.32x,
// SumChecked 1.54x), where the data come from L3, while at 4096 and 65536
// they were level or faster. Loop-only probes of the float64 kernel at 1M
// (bit offset 0, six alternate passes): 080c8a7's blend 105-110 us, the
// masked load 112-121, the masked load with its bitmap word read from a
// fixed L1-resident byte 110-119 (so not the bitmap's latency alone), and
// with a PREFETCHT0 512 bytes ahead of x each iteration 106-116 (level
// with the blend; 65536 unchanged at 4.7-4.9 us). So the masked loads
// do not pull the stream in as plain loads do on this core. The change:
// the AVX2 loops that read x through VMASKMOVP*/VPMASKMOV* (the one-call
// float sums, the 32- and 64-bit integer sums, the checked sums) prefetch
// the line 512 bytes ahead each iteration. Registered on 2026-12-06 on
// the same AMD EPYC family 26 model 2, before the change; the commit
// before and after alternately, ratio time after over time before, by the
// medians:
//
//	H352 (measured by hand): BenchmarkMaskedSumAVX2 float64 and float32 n=1048576 bitoff 0 and 3, BenchmarkMaskedIntSumAVX2 n=1048576 op=sum and op=checked, BenchmarkSum int32 n=1048576 nulls 10% and 50% impl=avx2, on avx2 on Zen 5: time <= 0.92x before
//	H353 (measured by hand): the same benchmarks at n=4096 and 65536 on avx2 on Zen 5: time <= 1.03x before
//	H354 (measured by hand): the n=1048576 cases of H352 after the change on Zen 5: time <= 1.03x that of 080c8a7 (the blends), in the same alternating run

// H352 held but for SumChecked (1.00) and H354 missed for SumChecked
// alone (1.20x 080c8a7's time at 1M). Its loop spends more work per line
// than the sums', and a probe that prefetched both lines of its 128-byte
// iteration (512 and 576 bytes ahead) took 159-169 us at 1M against
// 204-239 with one and 180-183 for 080c8a7's blends (the fastest of six
// alternate passes each); a distance of 1024 bytes with one line did not
// help (202-238). The change: one prefetch for each 64-byte line of an
// iteration, in every loop of H352. Registered on 2026-12-06 on the same
// AMD EPYC family 26 model 2, before the change; the commit with one
// line an iteration (78d6bff) and the one after alternately, with
// 080c8a7, by the medians:
//
//	H355 (measured by hand): BenchmarkMaskedIntSumAVX2 op=checked n=1048576 on avx2 on Zen 5: time <= 0.85x 78d6bff's and <= 1.0x 080c8a7's
//	H356 (measured by hand): the other n=1048576 cases of H352 on avx2 on Zen 5: time <= 1.03x 78d6bff's
//	H357 (measured by hand): the cases of H352 at n=4096 and 65536 on avx2 on Zen 5: time <= 1.03x 78d6bff's

import (
	"fmt"
	"math/rand/v2"
	"testing"

	arrowmath "github.com/apache/arrow-go/v18/arrow/math"

	"github.com/quiverlabs/quiver"
)

// BenchmarkMaskedSumAVX2 runs BenchmarkMaskedSum's configurations (10%
// nulls over rotating bitmaps, bit offsets 0 and 3, SumState fed 1024
// elements per Add) on the avx2 backend, when the CPU has it:
//
//	go test -run '^$' -bench 'MaskedSumAVX2|DenseSumAVX2' -count 6 .
func BenchmarkMaskedSumAVX2(b *testing.B) {
	onBackend(b, "avx2", func(b *testing.B) {
		b.Run("type=float64", func(b *testing.B) { maskedSum[float64](b) })
		b.Run("type=float32", func(b *testing.B) { maskedSum[float32](b) })
	})
}

// BenchmarkDenseSumAVX2 is the dense Sum over BenchmarkMaskedSumAVX2's
// values, on the avx2 backend: the floor the masked sum is held to (H324).
func BenchmarkDenseSumAVX2(b *testing.B) {
	onBackend(b, "avx2", func(b *testing.B) {
		b.Run("type=float64", func(b *testing.B) { denseSum[float64](b) })
		b.Run("type=float32", func(b *testing.B) { denseSum[float32](b) })
	})
}

func denseSum[T float32 | float64](b *testing.B) {
	for _, n := range []int{4096, 65536, 1 << 20} {
		x := make([]T, n)
		drawValues(rand.New(rand.NewPCG(5, uint64(n))), x)
		runRotated(b, fmt.Sprintf("n=%d/impl=sum", n), &sinkFloat, func(int) float64 {
			return float64(quiver.Sum(x))
		})
	}
}

// onBackend runs body with the named backend active, and skips when this
// CPU does not run it; the active backend is restored afterwards.
func onBackend(b *testing.B, name string, body func(b *testing.B)) {
	prev := quiver.ActiveBackend().Name
	defer quiver.SetBackend(prev)
	if err := quiver.SetBackend(name); err != nil {
		b.Skipf("backend %s: %v", name, err)
	}
	body(b)
}

// BenchmarkMaskedIntSumAVX2 times the masked int64 Sum and SumChecked on
// the avx2 backend with 10% nulls over rotating bitmaps, and arrow-go's
// dense int64 Sum over the same values (it reads no bitmap; H328 holds the
// masked sum to it):
//
//	go test -run '^$' -bench MaskedIntSumAVX2 -count 6 .
func BenchmarkMaskedIntSumAVX2(b *testing.B) {
	onBackend(b, "avx2", func(b *testing.B) {
		for _, n := range []int{4096, 65536, 1 << 20} {
			x := make([]int64, n)
			drawValues(rand.New(rand.NewPCG(6, uint64(n))), x)
			for i := range x {
				x[i] >>= 24 // no SumChecked overflow below 2^24 elements
			}
			r := rand.New(rand.NewPCG(11, 64))
			var masks [rotations]quiver.Mask
			for k := range masks {
				masks[k] = quiver.Valid(drawBitmap(r, n, 10), 0)
			}
			name := fmt.Sprintf("n=%d", n)
			runRotated(b, name+"/op=sum", &sinkInt, func(k int) int64 {
				return quiver.SumInt(x, masks[k])
			})
			runRotated(b, name+"/op=checked", &sinkInt, func(k int) int64 {
				s := quiver.SumChecked(x, masks[k])
				if s.Overflowed {
					b.Fatal("overflow")
				}
				return s.Sum
			})
			arr := arrowInt64(x, nil)
			runRotated(b, name+"/op=sum/impl=arrow", &sinkInt, func(int) int64 {
				return arrowmath.Int64.Sum(arr)
			})
		}
	})
}
