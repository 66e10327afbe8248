package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/quiverlabs/quiver"
)

// A column read in batches of 1024 with a bitmap, each batch its own
// Valid(bm, lo), as a reader of Arrow record batches writes it, lost more
// to the batching from L3 than in cache. On the AMD EPYC family 26 model
// 2 (Zen 5 class), avx512, float64, 10% nulls (a probe before these
// hypotheses; ns a column, medians of 3):
//
//	n = 32768 (L2):   one masked call 1,640; masked batches 1,960 (10 ns a batch more)
//	n = 1M (L3):      one masked call 93,000; masked batches 130,000 (36 ns a batch more);
//	                  dense batches 95,000 against the dense call's 89,000 (6 ns a batch)
//
// The ledger's H71 (SumState, the same batches, >= 0.91x the call) has
// missed on every CPU. The AVX-512 masked float sums added each vector
// with a masked memory operand, VADDPD m512, acc, k, acc: the load waits
// for its opmask, which waits for the bitmap's load, so no element is
// read before the batch's bitmap has arrived, and a batch of 1024 cannot
// overlap its bitmap's latency with its data's. The change: load each
// vector unmasked (every lane is inside x) and add it under the mask from
// the register, so the data's loads start at once. One more micro-op a
// vector, which must not cost in cache.
//
// Registered on 2026-12-06 on the AMD EPYC family 26 model 2 before the
// generator was changed; the bench binaries of the commit before and after
// run alternately, ratio time after over time before, medians (fastest
// samples beside them in the ledger):
//
//	H388 (measured by hand): BenchmarkMaskedBatchesL3 float64 and float32 impl=masked1024 on avx512, Zen 5: time <= 0.88x before
//	H389 (measured by hand): BenchmarkMaskedBatchesL3 float64 and float32 impl=state1024 on avx512 (H71's shape), Zen 5: time <= 0.90x before
//	H390 (measured by hand): BenchmarkMaskedBatchesL3 float64 impl=state1024 after: the call's time over its time >= 0.85 (H71 had 0.70 in this CPU's generated run)
//	H391 (measured by hand): BenchmarkMaskedBatches (32768 float64, in L2) masked and state-masked, and BenchmarkMaskedBatchesL3 impl=call, on avx512, Zen 5: time <= 1.03x before

// BenchmarkMaskedBatchesL3 reduces 1M elements with 10% nulls (8 MB of
// float64, 4 MB of float32: read from L3 on the CPUs measured here) in one
// call and in batches of 1024: Sum per batch with its own Valid(bm, lo),
// and a SumState fed the same batches; dense batches beside them.
//
//	go test -run '^$' -bench MaskedBatchesL3 -count 6 .
func BenchmarkMaskedBatchesL3(b *testing.B) {
	benchMaskedBatchesL3[float64](b)
	benchMaskedBatchesL3[float32](b)
}

func benchMaskedBatchesL3[T float32 | float64](b *testing.B) {
	const n, size = 1 << 20, 1024
	r := rand.New(rand.NewPCG(41, 9))
	x := make([]T, n)
	drawValues(r, x)
	bm := drawBitmap(r, n, 10)
	var sink T
	for _, c := range []struct {
		impl string
		run  func() T
	}{
		{"call", func() T { return quiver.Sum(x, quiver.Valid(bm, 0)) }},
		{"masked1024", func() T { return maskedBatchesOf(x, bm, size) }},
		{"state1024", func() T { return stateBatchesOf(x, bm, size) }},
		{"dense-call", func() T { return quiver.Sum(x) }},
		{"dense1024", func() T { return maskedBatchesOf(x, nil, size) }},
	} {
		b.Run(fmt.Sprintf("type=%s/impl=%s", typeName[T](), c.impl), func(b *testing.B) {
			b.SetBytes(int64(n) * int64(unsafe.Sizeof(T(0))))
			for b.Loop() {
				sink += c.run()
			}
		})
	}
	sinkFloat = float64(sink)
}

// maskedBatchesOf sums x in batches of size, each with its own
// Valid(bm, lo) (bm nil: no Mask).
//
//go:noinline
func maskedBatchesOf[T float32 | float64](x []T, bm []byte, size int) T {
	var t T
	for lo := 0; lo < len(x); lo += size {
		hi := min(lo+size, len(x))
		if bm == nil {
			t += quiver.Sum(x[lo:hi])
		} else {
			t += quiver.Sum(x[lo:hi], quiver.Valid(bm, lo))
		}
	}
	return t
}

// stateBatchesOf feeds x to a SumState in batches of size, each with its
// own Valid(bm, lo).
//
//go:noinline
func stateBatchesOf[T float32 | float64](x []T, bm []byte, size int) T {
	var s quiver.SumState[T]
	for lo := 0; lo < len(x); lo += size {
		s.Add(x[lo:min(lo+size, len(x))], quiver.Valid(bm, lo))
	}
	return s.Sum()
}

// The same holds for the other AVX-512 masked kernels: the summaries
// load each vector zero-masked (VMOVUPD.Z m512, k, z) and the integer
// sums add or widen it under the mask from memory. The probe before
// these hypotheses (Zen 5, avx512, 1M elements, batches of 1024, 10%
// nulls, µs a column, masked against dense batches): Summarize float64
// 156 against 95, SumInt int64 110 against 88, SumInt int32 (2M
// elements) 166 against 103. The change: load unmasked and apply the
// mask in a register, a zeroing move where the kernel needs the zeros
// (the summaries' NaN checks and pairs, the byte sums) and a merge-masked
// add where it does not. The tails keep their masked loads, which are
// what keeps them inside x. Registered before the generators changed:
//
//	H392 (measured by hand): BenchmarkMaskedBatchesL3Ops op=summarize float64 impl=masked1024 on avx512, Zen 5: time <= 0.85x before
//	H393 (measured by hand): BenchmarkMaskedBatchesL3Ops op=sumint int64 and int32, and op=checked int64, impl=masked1024 on avx512, Zen 5: time <= 0.90x before
//	H394 (measured by hand): BenchmarkMaskedBatchesL3Ops impl=dense1024, and the matrix's BenchmarkSum, BenchmarkMin, BenchmarkMinMax, BenchmarkSummary and BenchmarkSumChecked n=4096 nulls=10 impl=avx512 (in L1), Zen 5: time <= 1.03x before by the medians

// The first A/B of the change (7 alternate passes) moved more than the
// registration foresaw in both directions: the float sums' batches gained
// only 0.91-0.95 in a quieter run, while one masked float32 Sum of 1M
// took 1.11-1.17x its time, and the L1-resident masked float calls of
// 4096 1.02-1.09x; the summaries' batches gained 0.70, their long calls
// 0.74-0.83, but an int32 Summarize of 1M took 1.10-1.16x. So each kernel
// family (float sums with the SumState lanes, float summaries, integer
// summaries, integer and checked sums) keeps the unmasked loads by a rule
// fixed before its final run, added to this benchmark with the summaries
// of float32, int64 and int32 (2026-12-06, before that run):
//
//	H395 (measured by hand): a family keeps the unmasked loads when, in one run of at least 10 alternate passes, its masked batches of 1024 from L3 (this benchmark and BenchmarkMaskedBatchesL3) take <= 0.90x their time before, and neither its masked call over 1M (the matrix, nulls=10) nor over 4096 (in L1) takes more than 1.03x, by the medians; otherwise it goes back to the masked memory operands

// Outcome: no family passed H395, and the change was reverted; the
// ledger's section "masked batches from L3 and the AVX-512 masked memory
// operands" has the numbers.

// BenchmarkMaskedBatchesL3Ops is BenchmarkMaskedBatchesL3 for Summarize,
// SumInt and SumChecked: 1M elements (2M for int32, the same 8 MB) with
// 10% nulls, in batches of 1024 with and without their own Valid(bm, lo).
//
//	go test -run '^$' -bench MaskedBatchesL3Ops -count 6 .
func BenchmarkMaskedBatchesL3Ops(b *testing.B) {
	const size = 1024
	r := rand.New(rand.NewPCG(43, 11))
	f64 := make([]float64, 1<<20)
	drawValues(r, f64)
	f32 := make([]float32, 1<<21)
	drawValues(r, f32)
	i64 := make([]int64, 1<<20)
	drawValues(r, i64)
	i32 := make([]int32, 1<<21)
	drawValues(r, i32)
	bm := drawBitmap(r, 1<<21, 10)
	// Each op sums the batch [lo, hi), with its own Valid(bm, lo) when
	// masked: the Mask is built at the call, as a batch loop builds it.
	ops := []struct {
		name string
		n    int
		run  func(lo, hi int, masked bool)
	}{
		{"summarize/type=float64", len(f64), func(lo, hi int, masked bool) {
			if masked {
				sinkFloat += quiver.Summarize(f64[lo:hi], quiver.Valid(bm, lo)).Min
			} else {
				sinkFloat += quiver.Summarize(f64[lo:hi]).Min
			}
		}},
		{"summarize/type=float32", len(f32), func(lo, hi int, masked bool) {
			if masked {
				sinkFloat += float64(quiver.Summarize(f32[lo:hi], quiver.Valid(bm, lo)).Min)
			} else {
				sinkFloat += float64(quiver.Summarize(f32[lo:hi]).Min)
			}
		}},
		{"summarize/type=int64", len(i64), func(lo, hi int, masked bool) {
			if masked {
				sinkInt += quiver.Summarize(i64[lo:hi], quiver.Valid(bm, lo)).Min
			} else {
				sinkInt += quiver.Summarize(i64[lo:hi]).Min
			}
		}},
		{"summarize/type=int32", len(i32), func(lo, hi int, masked bool) {
			if masked {
				sinkInt += int64(quiver.Summarize(i32[lo:hi], quiver.Valid(bm, lo)).Min)
			} else {
				sinkInt += int64(quiver.Summarize(i32[lo:hi]).Min)
			}
		}},
		{"sumint/type=int64", len(i64), func(lo, hi int, masked bool) {
			if masked {
				sinkInt += quiver.SumInt(i64[lo:hi], quiver.Valid(bm, lo))
			} else {
				sinkInt += quiver.SumInt(i64[lo:hi])
			}
		}},
		{"sumint/type=int32", len(i32), func(lo, hi int, masked bool) {
			if masked {
				sinkInt += quiver.SumInt(i32[lo:hi], quiver.Valid(bm, lo))
			} else {
				sinkInt += quiver.SumInt(i32[lo:hi])
			}
		}},
		{"checked/type=int64", len(i64), func(lo, hi int, masked bool) {
			if masked {
				sinkInt += quiver.SumChecked(i64[lo:hi], quiver.Valid(bm, lo)).Sum
			} else {
				sinkInt += quiver.SumChecked(i64[lo:hi]).Sum
			}
		}},
	}
	for _, op := range ops {
		b.Run("op="+op.name+"/impl=masked1024", func(b *testing.B) {
			for b.Loop() {
				for lo := 0; lo < op.n; lo += size {
					op.run(lo, min(lo+size, op.n), true)
				}
			}
		})
		b.Run("op="+op.name+"/impl=dense1024", func(b *testing.B) {
			for b.Loop() {
				for lo := 0; lo < op.n; lo += size {
					op.run(lo, min(lo+size, op.n), false)
				}
			}
		})
	}
}
