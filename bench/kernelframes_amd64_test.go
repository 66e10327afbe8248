package bench

// The Go frames between an exported call and its kernel. A dense float64
// Min ran through five: Min, kernel.DenseSummary (a switch on T's
// machine type that Go's inliner will not take, ten cases of a call
// each), the typed entry, denseSummaryOn and the generated kernel switch
// summaryDenseAsm. Sum and SumInt went through four. Measured before
// registering (AMD EPYC family 26 model 2, Zen 5 class; fastest of 60
// interleaved samples of 200 µs):
//
//   - the kernel alone against kernel.DenseSummary, avx512 Min: float32
//     n=64 5.2 against 9.1 ns, n=256 6.6 against 10.2; float64 n=64 4.9
//     against 9.6. The float64 sum kernel alone 4.3 ns at n=64 against
//     kernel.SumFloat's 8.2.
//   - a probe with the switch on T and the kernel switch in one generic
//     function, called from the API: quiver's float64 Min at n=64 took
//     7.5 ns against 11.8 (avx512) and 8.5 against 12.5 (avx2); at 256
//     11.1 against 14.3, at 1024 30.9 against 33.0.
//   - vek's float32 Min took 8.5 ns at n=256 against quiver's 13.3 on
//     avx512 (float64 13.1 against 15.1).
//
// The change: on amd64 the exported kernel entries of the dense
// extremes, the float sums and the integer sums (kernel.DenseSummary,
// SumFloat, SumInt) are a call of one generated generic function that
// holds the test of whether a kernel takes the input, the switch on T and
// the ISA with the kernels' direct calls, and the test of the result;
// the rest (inputs no kernel takes, the NaN and zero rescues, the other
// ISAs) goes out of line through the typed entries as before. The API's
// call of the entry inlines, so a dense Min is Min, that function and the
// kernel. Ratios are the change's time over the commit before's, medians
// of the per-pass ratios of BenchmarkKernelFrames run alternately from
// the two commits' bench binaries; "vek's speed" is vek's time over
// quiver's in the change's binary:
//
//	H471 (measured by hand): dense Min, Max, MinMax and Summarize (float64, float32, int64, int32) n=64 on avx2 and avx512: time <= 0.80x
//	H472 (measured by hand): the same at n=256: time <= 0.88x; at n=1024: <= 0.95x; at n=4096: <= 1.01x
//	H473 (measured by hand): dense Sum (float64, float32), SumInt int64 and SumUint uint8 n=64 on avx2 and avx512: time <= 0.85x; n=256: <= 0.92x; n=1024 and 4096: <= 1.01x
//	H474 (measured by hand): lengths that leave a tail (n=61 and 1031: Sum float64, SumInt int64, Min float64) on avx2 and avx512: time <= 1.0x
//	H475 (measured by hand): Min and Max float64 and float32 n=256 on avx512: >= 0.9x vek's speed; n=1024 on avx2 and avx512: >= 1.0x
//	H476 (measured by hand): Sum float64 and float32 n=4096 on avx2: >= 0.97x the speed of the four-chain assembly loop (asm4), same binary
//	H477 (measured by hand): the masked forms, which this change does not route (Min float64 and Sum float64 with 10% nulls, n=256), on avx2 and avx512: time <= 1.02x

import (
	"strconv"
	"testing"

	"github.com/viterin/vek"
	"github.com/viterin/vek/vek32"

	"github.com/quiverlabs/quiver"
)

// BenchmarkKernelFrames times dense calls from 61 to 4096 elements on the
// avx2 and avx512 backends, with vek's Min and Max and the assembly sum
// loops beside them, for H471-H477.
func BenchmarkKernelFrames(b *testing.B) {
	sizes := []int{61, 64, 256, 1024, 1031, 4096}
	for _, n := range sizes {
		f64, f32 := newInput[float64](n, 0).x, newInput[float32](n, 0).x
		b.Run("backend=peers/n="+strconv.Itoa(n), func(b *testing.B) {
			benchOne(b, "op=Min/type=float64/impl=vek", func() float64 { return vek.Min(f64) })
			benchOne(b, "op=Max/type=float64/impl=vek", func() float64 { return vek.Max(f64) })
			benchOne(b, "op=Min/type=float32/impl=vek", func() float64 { return float64(vek32.Min(f32)) })
			benchOne(b, "op=Max/type=float32/impl=vek", func() float64 { return float64(vek32.Max(f32)) })
			if n%16 == 0 {
				benchOne(b, "op=Sum/type=float64/impl=asm4", func() float64 { return asmSum4F64(f64) })
				benchOne(b, "op=Sum/type=float32/impl=asm4", func() float64 { return float64(asmSum4F32(f32)) })
			}
		})
	}
	forBackends(b, []string{"avx2", "avx512"}, func(b *testing.B, _ string) {
		for _, n := range sizes {
			b.Run("n="+strconv.Itoa(n), func(b *testing.B) {
				kernelFrames(b, n)
			})
		}
	})
}

// kernelFrames runs the quiver cases of BenchmarkKernelFrames at n on the
// backend in use.
func kernelFrames(b *testing.B, n int) {
	f64, f32 := newInput[float64](n, 0).x, newInput[float32](n, 0).x
	i64, i32, u8 := newInput[int64](n, 0).x, newInput[int32](n, 0).x, newInput[uint8](n, 0).x
	odd := n%16 != 0
	benchOne(b, "op=Sum/type=float64", func() float64 { return quiver.Sum(f64) })
	benchOne(b, "op=SumInt/type=int64", func() float64 { return float64(quiver.SumInt(i64)) })
	benchOne(b, "op=Min/type=float64", func() float64 { return quiver.Min(f64) })
	if odd {
		return
	}
	benchOne(b, "op=Sum/type=float32", func() float64 { return float64(quiver.Sum(f32)) })
	benchOne(b, "op=SumUint/type=uint8", func() float64 { return float64(quiver.SumUint(u8)) })
	benchOne(b, "op=Max/type=float64", func() float64 { return quiver.Max(f64) })
	benchOne(b, "op=Min/type=float32", func() float64 { return float64(quiver.Min(f32)) })
	benchOne(b, "op=Max/type=float32", func() float64 { return float64(quiver.Max(f32)) })
	benchOne(b, "op=MinMax/type=float64", func() float64 { lo, hi := quiver.MinMax(f64); return lo + hi })
	benchOne(b, "op=Summarize/type=float32", func() float64 { s := quiver.Summarize(f32); return float64(s.Min + s.Max) })
	benchOne(b, "op=Min/type=int64", func() float64 { return float64(quiver.Min(i64)) })
	benchOne(b, "op=MinMax/type=int32", func() float64 { lo, hi := quiver.MinMax(i32); return float64(lo) + float64(hi) })
	benchOne(b, "op=Summarize/type=int64", func() float64 { s := quiver.Summarize(i64); return float64(s.Min) + float64(s.Max) })
	if n == 256 {
		in := newInput[float64](n, 10)
		x, ms := in.x, in.masks
		benchOne(b, "op=Min/type=float64/nulls=10", func() float64 { return quiver.Min(x, ms...) })
		benchOne(b, "op=Sum/type=float64/nulls=10", func() float64 { return quiver.Sum(x, ms...) })
	}
}

// benchOne runs f as the sub-benchmark name, its results summed into the
// sink.
func benchOne(b *testing.B, name string, f func() float64) {
	b.Run(name, func(b *testing.B) {
		var s float64
		for b.Loop() {
			s += f()
		}
		sink = res{uint64(s)}
	})
}
