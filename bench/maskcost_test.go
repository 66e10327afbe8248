package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver"
)

// A masked call paid for its Mask in the caller's own code. Mask was 64
// bytes (a bitmap slice, its offset, a selection slice and a flag), more
// than the four words the compiler keeps in registers, so for
// Sum(x, Valid(bm, lo)) it built the Mask in a temporary with 8-byte
// stores and copied it into the variadic argument array with 16-byte
// loads, each spanning two stores, which the CPU cannot forward from the
// store buffer. On the AMD EPYC family 26 model 2 (Zen 5 class), perf put
// 68% of a batch loop's own samples on that copy; a masked Sum of 256
// float64 took 16 ns more than the dense call against 3.4 ns more in the
// kernel; and a stand-alone probe of 128 variadic calls to a no-op
// callee took 1,069 ns with a 64-byte struct, 223 ns with a 32-byte one
// and 186 ns with none (Go 1.27.3 the same). The change: a Mask of four
// words (the bitmap as a pointer to the byte holding the offset's bit and
// the count of bits from the offset to its end; the selection as a
// pointer and a length), which the compiler keeps in registers.
// Registered on 2026-12-06 on the AMD EPYC family 26 model 2 before the
// change was written; the bench binaries of the commit before and after
// run alternately, ratio time after over time before:
//
//	H372 (measured by hand): BenchmarkMaskedBatches masked, batches of 64 and 256, on Zen 5: time <= 0.80x before by the medians
//	H373 (measured by hand): BenchmarkMaskedBatches masked and state-masked, batches of 1024, on Zen 5: time <= 0.92x before by the medians
//	H374 (measured by hand): BenchmarkSum, BenchmarkMin and BenchmarkSummary float64 and int64, n = 1, 8 and 32, nulls 10%, impl=avx512, on Zen 5: time <= 0.85x before by the medians
//	H375 (measured by hand): the same with nulls 0% (no Mask), and BenchmarkMaskedBatches dense: time <= 1.03x before by the fastest samples
//	H376 (measured by hand): BenchmarkSumState float64 n=1048576 nulls=10% impl=batches1024 (the ledger's H71) on Zen 5: time <= 0.92x before by the medians

// BenchmarkMaskedBatches reduces 32,768 float64 (in L2) in batches, each
// call with its own Valid(bm, lo) as a reader of Arrow record batches
// writes it, against the same batches without a Mask, and through a
// SumState:
//
//	go test -run '^$' -bench MaskedBatches -count 6 .
func BenchmarkMaskedBatches(b *testing.B) {
	const n = 1 << 15
	r := rand.New(rand.NewPCG(31, 7))
	x := make([]float64, n)
	drawValues(r, x)
	bm := drawBitmap(r, n, 10)
	for _, size := range []int{64, 256, 1024} {
		b.Run(fmt.Sprintf("batch=%d/impl=masked", size), func(b *testing.B) {
			var s float64
			for b.Loop() {
				s += maskedBatches(x, bm, size)
			}
			sinkFloat = s
		})
		b.Run(fmt.Sprintf("batch=%d/impl=dense", size), func(b *testing.B) {
			var s float64
			for b.Loop() {
				s += denseBatches(x, size)
			}
			sinkFloat = s
		})
		b.Run(fmt.Sprintf("batch=%d/impl=state-masked", size), func(b *testing.B) {
			var s float64
			for b.Loop() {
				s += stateBatches(x, bm, size)
			}
			sinkFloat = s
		})
	}
}

//go:noinline
func maskedBatches(x []float64, bm []byte, size int) float64 {
	var t float64
	for lo := 0; lo < len(x); lo += size {
		t += quiver.Sum(x[lo:lo+size], quiver.Valid(bm, lo))
	}
	return t
}

//go:noinline
func denseBatches(x []float64, size int) float64 {
	var t float64
	for lo := 0; lo < len(x); lo += size {
		t += quiver.Sum(x[lo : lo+size])
	}
	return t
}

//go:noinline
func stateBatches(x []float64, bm []byte, size int) float64 {
	var s quiver.SumState[float64]
	for lo := 0; lo < len(x); lo += size {
		s.Add(x[lo:lo+size], quiver.Valid(bm, lo))
	}
	return s.Sum()
}
