package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver"
)

// The Go frames between a masked call of a kernel's length and its
// kernel. A masked Sum of float64 ran Sum, sumFloat, checkMask (the
// Mask's bitmap against the length, the selection, the span),
// sumFloatOn and the kernel's entry; the dense Sum runs Sum and the
// entry. A CPU profile of BenchmarkMaskedBatches (512 masked Sums of 64
// float64 each, avx512, AMD EPYC family 26 model 2, Zen 5 class) put 27%
// of the time in the kernel and most of the rest in those frames: 17.6 ns
// a call against 8.9 for the dense calls. Min, Max, MinMax and Summarize
// ran summarize, checkMask and summarizeOn before kernel.Summary; SumInt,
// SumChecked, CountValid and the states' Add the same kind of chain.
// Making Valid inline (its call is 3 ns, by its comment) saved nothing
// measurable: 0.97x in a probe of 6 alternate passes.
//
// The change: bitmapSpan, the check of one Mask with a bitmap and no
// selection, inlines into each API function (cost 53 of the inliner's
// 80), which calls the kernel's entry itself when it passes; anything
// else takes the general path as before. A probe of the change to Sum
// alone: BenchmarkMaskedBatches masked 0.75x at batches of 64, 0.83x at
// 256. Registered before the A/B of the whole change against the commit
// before it (bench binaries of both run in turns, cmd/abratio's median of
// the per-pass ratios, time after over before; avx2 and avx512 backends
// on an AVX-512 CPU):
//
//	H506 (measured by hand): BenchmarkMaskedBatches masked, batches of 64: <= 0.85x; of 256: <= 0.90x; of 1024: <= 0.98x
//	H507 (measured by hand): BenchmarkMaskSpan's masked Sum (float64, float32), SumInt (int64, int32, uint8), SumChecked (int64, int32) and CountValid at n=64 (offset 0 and 3): <= 0.85x on avx512 and avx2
//	H508 (measured by hand): the same at n=256: <= 0.92x; at n=1024: <= 0.98x
//	H509 (measured by hand): BenchmarkMaskedFrames' masked Min, Max, MinMax and Summarize at n=48 and 64: <= 0.92x; at n=256: <= 0.96x
//	H510 (measured by hand): BenchmarkMaskSpan's state adds (SumState float64, IntSumState int64, SummaryState float64) at n=64: <= 0.95x
//	H511 (measured by hand): calls this change does not route (BenchmarkMaskSpan's short masked calls of 16, its dense calls and selections; BenchmarkMaskedFrames' dense cells): <= 1.03x

// After that change a masked CountValid took 16.5 ns for 64 bits and as
// long for 1024: the AVX2 and AVX-512 count kernels cost about 8.5 ns a
// call whatever the length up to a few hundred bits (their Go head and
// tail, the vector reduction, VZEROUPPER), where the generic loop of
// 64-bit words took 3.2 ns for 64 bits, 6.3-6.9 for 256 and 10.4-11.3 for
// 512 (a probe in the kernel package, Zen 5). The change: CountValid runs
// the generic loop below 512 bits on those ISAs (countKernelCut).
// Registered before the A/B against the commit before it
// (BenchmarkCountCut, avx2 and avx512 backends, bitmap offsets 0 and 3):
//
//	H512 (measured by hand): masked CountValid of 64 and 128 bits: <= 0.80x; of 256 and 384: <= 0.90x; of 511: <= 1.00x; of 512 and 1024 (the kernels, unchanged): <= 1.03x

// BenchmarkCountCut times masked CountValid around countKernelCut, for
// H512.
func BenchmarkCountCut(b *testing.B) {
	forBackends(b, []string{"avx2", "avx512"}, func(b *testing.B, _ string) {
		for _, n := range []int{64, 128, 256, 384, 511, 512, 1024} {
			for _, off := range []int{0, 3} {
				spanCounts(b, n, off)
			}
		}
	})
}

// A CPU profile of BenchmarkMaskedBatches' state-masked case after H506
// (SumState.Add of 64 float64 with a bitmap, avx512, Zen 5: 21 ns a call
// against 13 for Sum) put 31% in the kernel and most of the rest in the
// frames between SumState.addRun and it: the API's sumLanesOn (the
// lanes' length check), kernel.SumLanes (the switch on T), the typed
// entry, the kernel package's sumLanesOn and the generated switch
// sumLanesAsm. The change: kernel.SumLanes is one call of
// sumLanesDirect, which on AVX2 and AVX512 calls the kernel of isa and T
// itself, as sumFloatDirect does, and the generated switch is gone.
// Registered before the A/B against the commit before it:
//
//	H513 (measured by hand): BenchmarkMaskSpan's SumState.Add (float64, n=64 and 256, avx2 and avx512) and BenchmarkMaskedBatches state-masked (64, 256): <= 0.92x; its other cells (Sum, SumInt, IntSumState, SummaryState): <= 1.03x

// BenchmarkMaskSpan times masked calls from 16 to 1024 elements, 16
// rotating inputs each with a bitmap of its own (10% nulls) at offsets 0
// and 3, on the avx2 and avx512 backends, for H506-H511:
//
//	go test -run '^$' -bench 'MaskSpan' -count 6 .
func BenchmarkMaskSpan(b *testing.B) {
	forBackends(b, []string{"avx2", "avx512"}, func(b *testing.B, _ string) {
		for _, n := range []int{16, 64, 256, 1024} {
			for _, off := range []int{0, 3} {
				if off != 0 && n != 64 {
					continue
				}
				spanSums(b, n, off, rotation[float64](n, 506))
				spanSums(b, n, off, rotation[float32](n, 506))
				spanSigned(b, n, off, rotation[int64](n, 506))
				spanSigned(b, n, off, rotation[int32](n, 506))
				spanBytes(b, n, off, rotation[uint8](n, 506))
				spanCounts(b, n, off)
			}
		}
		for _, n := range []int{64, 256} {
			spanStates(b, n)
			spanUnrouted(b, n)
		}
	})
}

// spanInputs pairs the 16 inputs xs with bitmaps of their own (10% nulls)
// that start at bit off.
func spanInputs[T number](n, off int, xs [16][]T) *[16]maskedInput[T] {
	r := rand.New(rand.NewPCG(uint64(n)|uint64(off)<<32, 506))
	var ins [16]maskedInput[T]
	for k := range ins {
		ins[k] = maskedInput[T]{xs[k], quiver.Valid(drawBitmap(r, n+off, 10), off)}
	}
	return &ins
}

// maskedInput is a column and its Mask (maskedFrameOps' and this file's
// inputs).
type maskedInput[T number] struct {
	x []T
	m quiver.Mask
}

func spanSums[T float32 | float64](b *testing.B, n, off int, xs [16][]T) {
	rotatedCell(b, fmt.Sprintf("op=Sum/type=%s/n=%d/off=%d", typeName[T](), n, off), spanInputs(n, off, xs),
		func(in maskedInput[T]) T { return quiver.Sum(in.x, in.m) })
}

func spanSigned[T int64 | int32](b *testing.B, n, off int, xs [16][]T) {
	ins := spanInputs(n, off, xs)
	name := fmt.Sprintf("type=%s/n=%d/off=%d", typeName[T](), n, off)
	rotatedCell(b, "op=SumInt/"+name, ins, func(in maskedInput[T]) int64 { return quiver.SumInt(in.x, in.m) })
	rotatedCell(b, "op=SumChecked/"+name, ins, func(in maskedInput[T]) int64 { return quiver.SumChecked(in.x, in.m).Sum })
}

func spanBytes(b *testing.B, n, off int, xs [16][]uint8) {
	rotatedCell(b, fmt.Sprintf("op=SumUint/type=uint8/n=%d/off=%d", n, off), spanInputs(n, off, xs),
		func(in maskedInput[uint8]) int64 { return int64(quiver.SumUint(in.x, in.m)) })
}

func spanCounts(b *testing.B, n, off int) {
	ins := spanInputs(n, off, rotation[uint8](n, 506))
	rotatedCell(b, fmt.Sprintf("op=CountValid/n=%d/off=%d", n, off), ins,
		func(in maskedInput[uint8]) int64 { return int64(quiver.CountValid(len(in.x), in.m)) })
}

// spanStates adds each masked input to a state of its kind.
func spanStates(b *testing.B, n int) {
	f64 := spanInputs(n, 0, rotation[float64](n, 510))
	i64 := spanInputs(n, 0, rotation[int64](n, 510))
	var sum quiver.SumState[float64]
	var isum quiver.IntSumState[int64]
	var summ quiver.SummaryState[float64]
	rotatedCell(b, fmt.Sprintf("op=SumState.Add/type=float64/n=%d/off=0", n), f64,
		func(in maskedInput[float64]) int64 { sum.Add(in.x, in.m); return 0 })
	rotatedCell(b, fmt.Sprintf("op=IntSumState.Add/type=int64/n=%d/off=0", n), i64,
		func(in maskedInput[int64]) int64 { isum.Add(in.x, in.m); return 0 })
	rotatedCell(b, fmt.Sprintf("op=SummaryState.Add/type=float64/n=%d/off=0", n), f64,
		func(in maskedInput[float64]) int64 { summ.Add(in.x, in.m); return 0 })
	sinkFloat = sum.Sum() + float64(isum.Sum()) + summ.Summary().Min
}

// spanUnrouted runs calls that do not take bitmapSpan: dense Sum, SumInt
// and CountValid without a Mask, and Sum and SumInt over a selection with
// a bitmap.
func spanUnrouted(b *testing.B, n int) {
	f64 := spanInputs(n, 0, rotation[float64](n, 511))
	i64 := spanInputs(n, 0, rotation[int64](n, 511))
	r := rand.New(rand.NewPCG(uint64(n), 511))
	sel := make([]uint32, n/4)
	for i := range sel {
		sel[i] = uint32(r.IntN(n))
	}
	for k := range f64 {
		f64[k].m = f64[k].m.Select(sel)
	}
	rotatedCell(b, fmt.Sprintf("op=Sum/type=float64/n=%d/dense", n), f64,
		func(in maskedInput[float64]) float64 { return quiver.Sum(in.x) })
	rotatedCell(b, fmt.Sprintf("op=SumInt/type=int64/n=%d/dense", n), i64,
		func(in maskedInput[int64]) int64 { return quiver.SumInt(in.x) })
	rotatedCell(b, fmt.Sprintf("op=CountValid/n=%d/dense", n), i64,
		func(in maskedInput[int64]) int64 { return int64(quiver.CountValid(len(in.x))) })
	rotatedCell(b, fmt.Sprintf("op=Sum/type=float64/n=%d/selected", n), f64,
		func(in maskedInput[float64]) float64 { return quiver.Sum(in.x, in.m) })
}
