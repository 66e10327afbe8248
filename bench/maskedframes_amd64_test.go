package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver"
)

// The Go frames between a masked Min, Max, MinMax or Summarize and its
// kernel. A masked float64 Min on avx512 ran Min, summarize,
// summarizeOn, kernel.Summary (the switch on T's machine type, which does
// not inline), the typed entry, summaryOn, summaryAsm.run (the bitmap's
// head and tail, the seed of the AVX2 kernels, the merge with the
// extremes' identities), the generated kernel switch and the kernel. A
// probe in the kernel package on an AMD EPYC (family 26 model 2, Zen 5
// class, AVX-512), before registering; float64 Min over a bitmap with one
// null in eight, medians of 3 runs:
//
//   - the AVX-512 min kernel alone 7.4 ns at n=64, 22.0 at 256, 61.3 at
//     1024; kernel.Summary 23.2, 35.3 and 71.4: 16, 13 and 10 ns above
//     the kernel, of which the generated switch is 1.
//   - a function that tests the bitmap's offset and length, reads the
//     tail's bits, calls the switch and tests the result (the rest out of
//     line): 10.7, 24.3 and 60.0 ns on avx512; on avx2 (the seeded FMA
//     kernel, 8.6 ns alone at n=64) 13.2, 25.8 and 84.0 against
//     kernel.Summary's 27.3, 40.0 and 97.9.
//
// The change: on amd64 the exported kernel.Summary is a call of a direct
// function (as kernel.DenseSummary is, H471-H477) that runs a masked
// input on the AVX2 and AVX-512 kernels itself: the head before the
// bitmap's first whole byte, the bits of a partial last step, the seed
// of the AVX2 kernels, one call of the generated switch and the test of
// the result; an input the kernels do not take goes through the typed
// entries as before, and a NaN, an FMA alarm, a zero extreme or no valid
// element is settled out of line. Ratios are the change's time over the
// commit before's, medians of the per-pass ratios of
// BenchmarkMaskedFrames run alternately from the two commits' bench
// binaries, on the avx2 and avx512 backends, 16 rotating inputs with 10%
// nulls:
//
//	H486 (measured by hand): masked Min, Max, MinMax and Summarize, float64, float32, int64, int32 and uint8, n=64, bitmap offset 0: time <= 0.70x
//	H487 (measured by hand): the same at n=256: <= 0.80x; float64 and int32 at n=1024: <= 0.92x, at n=4096: <= 1.00x
//	H488 (measured by hand): a bitmap offset of 3 (the head in the kernel), n=256 (every type) and n=1031 (float64, int64): <= 0.85x
//	H489 (measured by hand): n=48, the shortest masked length on the kernels for one extreme (both from 32): every op and type that runs a kernel there <= 0.80x; the others (8- and 16-bit integers on avx2 keep the loops below 64) <= 1.03x
//	H490 (measured by hand): floats whose minimum is a zero (settled out of line), n=64 and 256: <= 0.95x
//	H491 (measured by hand): dense MinMax and Summarize (which this change does not route), float64 and int32, n=64 and 256: <= 1.02x
//
// After the change, a CPU profile of the avx512 float64 Min of 256 with a
// zero minimum (69 ns against 34 without) put 23% of the time in
// firstZero, the scan for the first valid zero that settles the sign of
// the result: per element a float compare (UCOMISD, which also branches
// on its parity flag) and, for a zero, the validity bit. Comparing the
// element's bits shifted left by one with zero is one integer compare
// and one branch (as the short word loops do since H470). Registered
// before the A/B of that change against the commit before it
// (BenchmarkMaskedFrames):
//
//	H497 (measured by hand): the zeros cells, Min, MinMax and Summary, float64 and float32, avx2 and avx512: n=256 <= 0.92x, n=64 <= 0.96x; the cells without zeros <= 1.03x
//
// The AVX2 masked kernels of 32- and 64-bit lanes load each vector and
// then blend its invalid lanes to the seed (or the one extreme's start);
// the blend can read the vector from memory itself, one instruction fewer
// per vector. On an AMD EPYC family 26 model 2 (Zen 5 class), where a
// probe put the masked float64 Min loop at about 4.9 cycles per 16
// elements against the 4 that its shifts and VMINPDs need on their pair
// of pipes, and a variant with two more instructions per vector (lane
// masks from a table instead of shifts) ran 1.3x slower although it took
// the shifts off those pipes, the instruction count looks like a limit
// of its own. Registered before the A/B of the change (BenchmarkMaskedFrames, avx2
// backend, the change's time over the commit before's):
//
//	H498 (measured by hand): masked Min and Max, float64 and float32 (the seeded FMA kernels), n=1024 and 4096, bitmap offset 0: <= 0.97x
//	H499 (measured by hand): masked MinMax and Summarize, float64, float32, int64 and int32, n=1024 and 4096: <= 1.00x
//	H500 (measured by hand): the cells whose code does not change (uint8 on avx2, every avx512 cell), n=1024 and 4096: within 0.97x to 1.03x

// BenchmarkMaskedFrames times masked Min, Max, MinMax and Summarize on
// the avx2 and avx512 backends at lengths from 48 to 4096, with bitmaps
// at offsets 0 and 3, for H486-H491.
func BenchmarkMaskedFrames(b *testing.B) {
	forBackends(b, []string{"avx2", "avx512"}, func(b *testing.B, _ string) {
		for _, n := range []int{48, 64, 256} {
			maskedFrameCases(b, n, 0, rotation[float64](n, 486))
			maskedFrameCases(b, n, 0, rotation[float32](n, 486))
			maskedFrameCases(b, n, 0, rotation[int64](n, 486))
			maskedFrameCases(b, n, 0, rotation[int32](n, 486))
			maskedFrameCases(b, n, 0, rotation[uint8](n, 486))
		}
		for _, n := range []int{1024, 4096} {
			maskedFrameCases(b, n, 0, rotation[float64](n, 487))
			maskedFrameCases(b, n, 0, rotation[int32](n, 487))
		}
		maskedFrameCases(b, 256, 3, rotation[float64](256, 488))
		maskedFrameCases(b, 256, 3, rotation[float32](256, 488))
		maskedFrameCases(b, 256, 3, rotation[int64](256, 488))
		maskedFrameCases(b, 256, 3, rotation[int32](256, 488))
		maskedFrameCases(b, 256, 3, rotation[uint8](256, 488))
		maskedFrameCases(b, 1031, 3, rotation[float64](1031, 488))
		maskedFrameCases(b, 1031, 3, rotation[int64](1031, 488))
		for _, n := range []int{64, 256} {
			maskedFrameZeros(b, n, zeroRotation[float64](n))
			maskedFrameZeros(b, n, zeroRotation[float32](n))
			denseFrameCases(b, n, rotation[float64](n, 491))
			denseFrameCases(b, n, rotation[int32](n, 491))
		}
	})
}

// maskedFrameCases runs masked Min, Max, MinMax and Summarize over the 16
// inputs xs, each with a bitmap of its own (10% nulls) that starts at bit
// off of its first byte, each iteration the next.
func maskedFrameCases[T number](b *testing.B, n, off int, xs [16][]T) {
	maskedFrameOps(b, fmt.Sprintf("type=%s/n=%d/off=%d", typeName[T](), n, off), n, off, xs)
}

// maskedFrameZeros is maskedFrameCases at offset 0 for inputs whose
// minimum is a zero (zeroRotation's).
func maskedFrameZeros[T float32 | float64](b *testing.B, n int, xs [16][]T) {
	maskedFrameOps(b, fmt.Sprintf("type=%s/n=%d/off=0/zeros", typeName[T](), n), n, 0, xs)
}

func maskedFrameOps[T number](b *testing.B, name string, n, off int, xs [16][]T) {
	r := rand.New(rand.NewPCG(uint64(n)|uint64(off)<<32, 486))
	var ins [16]maskedInput[T]
	for k := range ins {
		bits := drawBitmap(r, n+off, 10)
		ins[k] = maskedInput[T]{xs[k], quiver.Valid(bits, off)}
	}
	for _, op := range []struct {
		name string
		f    func(in maskedInput[T]) T
	}{
		{"Min", func(in maskedInput[T]) T { return quiver.Min(in.x, in.m) }},
		{"Max", func(in maskedInput[T]) T { return quiver.Max(in.x, in.m) }},
		{"MinMax", func(in maskedInput[T]) T { lo, hi := quiver.MinMax(in.x, in.m); return lo + hi }},
		{"Summary", func(in maskedInput[T]) T { s := quiver.Summarize(in.x, in.m); return s.Min + s.Max + T(s.Count) }},
	} {
		rotatedCell(b, name+"/op="+op.name, &ins, op.f)
	}
}

// denseFrameCases runs dense MinMax and Summarize over the 16 inputs xs.
func denseFrameCases[T number](b *testing.B, n int, xs [16][]T) {
	for _, op := range []struct {
		name string
		f    func(x []T) T
	}{
		{"MinMax", func(x []T) T { lo, hi := quiver.MinMax(x); return lo + hi }},
		{"Summary", func(x []T) T { s := quiver.Summarize(x); return s.Min + s.Max + T(s.Count) }},
	} {
		rotatedCell(b, fmt.Sprintf("type=%s/n=%d/dense/op=%s", typeName[T](), n, op.name), &xs, op.f)
	}
}
