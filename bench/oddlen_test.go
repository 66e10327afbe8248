package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver"
)

// Dense Min, Max, MinMax and Summarize over columns whose length is not a
// multiple of the kernel's step. The AVX2 dense summary kernels took whole
// steps of max(lanes, 8) elements and Go folded the rest one element at a
// time; their last step already overlapped the elements before it (the
// loops start on a 32-byte boundary, alignOverlap in
// internal/asm/amd64/summary), so a column of any length from one step on
// can be read whole by the kernel, the overlap changing neither a min, a
// max nor the NaN check. The AVX-512 kernels finish any length with a
// masked vector already.
//
// Registered on 2026-12-06 on an AMD EPYC (family 26 model 2, Zen 5
// class, AVX-512; the avx2 backend chosen with quiver.SetBackend), from a
// probe of one input per length (ns a call, fastest of 5): avx2 float64
// Min 47.9 at n=1024 against 56.8 at 1031 and 1039; float32 MinMax 43.5
// against 57.7; int64 Summarize 95.5 against 99.5-101.2; avx512 level
// (35.4 against 34.3-35.5, 28.3 against 28.6-28.8, 41.1 against 42.0).
//
// Ratios are the change's time over the commit before's, medians of
// BenchmarkOddLengths run alternately from the two commits' bench
// binaries (8 passes), or, for H406, n=1031's time over n=1024's in the
// change's own passes:
//
//	H403 (measured by hand): Min, Max, MinMax, Summary float64 and float32 n=61/1031/4099 on avx2: <= 0.85x
//	H404 (measured by hand): Min, Max, MinMax, Summary int64 and int32 n=61/1031/4099 on avx2: <= 0.95x
//	H405 (measured by hand): Min, Max, MinMax, Summary uint8 n=1031/4099 on avx2: <= 0.95x
//	H406 (measured by hand): every op and type on avx2 after the change: n=1031 <= 1.06x the time of n=1024
//	H407 (measured by hand): every op and type at n=1024 and 4096 on avx2, and every case on avx512 (code unchanged there): <= 1.03x

// BenchmarkOddLengths times dense Min, Max, MinMax and Summarize of
// float64, float32, int64, int32 and uint8 at lengths that are and are
// not a multiple of 8, on the avx2 and avx512 backends: one input per
// type and length, in L1 (n=4099 of float64 is 32 KB).
func BenchmarkOddLengths(b *testing.B) {
	for _, backend := range []string{"avx2", "avx512"} {
		b.Run("backend="+backend, func(b *testing.B) {
			useBackend(b, backend)
			for _, n := range []int{61, 1024, 1031, 4096, 4099} {
				oddLengthCases[float64](b, n)
				oddLengthCases[float32](b, n)
				oddLengthCases[int64](b, n)
				oddLengthCases[int32](b, n)
				oddLengthCases[uint8](b, n)
			}
		})
	}
}

// oddLengthCases runs quiver's dense Min, Max, MinMax and Summarize over
// n random values of T.
func oddLengthCases[T number](b *testing.B, n int) {
	x := make([]T, n)
	drawValues(rand.New(rand.NewPCG(uint64(n), 403)), x)
	for _, im := range []struct {
		name string
		f    func([]T) T
	}{
		{"Min", func(x []T) T { return quiver.Min(x) }},
		{"Max", func(x []T) T { return quiver.Max(x) }},
		{"MinMax", func(x []T) T { lo, hi := quiver.MinMax(x); return lo + hi }},
		{"Summary", func(x []T) T { s := quiver.Summarize(x); return s.Min + s.Max + T(s.Count) }},
	} {
		b.Run(fmt.Sprintf("type=%s/n=%d/op=%s", typeName[T](), n, im.name), func(b *testing.B) {
			var s T
			for b.Loop() {
				s += im.f(x)
			}
			sink = res{uint64(s)}
		})
	}
}
