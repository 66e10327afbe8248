package bench

// Dense Min, Max, MinMax and Summarize over a column that does not start
// on a vector boundary: x[off:] of a 64-byte-aligned buffer, the shape of
// a window, a chunk or an Arrow array with an offset. On an AMD EPYC Zen 4
// (family 25 model 17, the avx2 backend on an AVX-512 core) the AVX2
// kernels, whose 32-byte loads then straddle cache lines every other
// load, took 1.5x (float64 Min, off=1) to 1.9x (off=2) their aligned time
// at n=4096, one L1-resident block, in a loop-only test of the kernels;
// the AVX-512 dense kernels, which peel a masked head up to the first
// 64-byte boundary, took 1.03-1.09x. Registered on that CPU before the
// AVX2 dense summary kernels got an aligned main loop (an overlapping
// first and last step, which min and max may read twice); "before" is
// the parent commit's binary, run alternately with the change's, 10
// passes of BenchmarkOffsets; ratio: time after over time before:
//
//	H268 (measured by hand): Min and Max float64 n=4096 off=1,2,3 on avx2: time <= 0.75x before
//	H269 (measured by hand): Min, Max and MinMax float64 and float32 n=4096 off=0 on avx2: time <= 1.03x before (the aligned case pays one test)
//	H270 (measured by hand): MinMax and Summarize float64 n=4096 off=1,2,3 on avx2: time <= 0.85x before
//	H271 (measured by hand): Min and Max float32 n=4096 off=1,2,3 on avx2: time <= 0.85x before
//	H272 (measured by hand): MinMax int64 n=4096 off=1,2,3 on avx2: time <= 0.90x before
//	H273 (measured by hand): Min float64 n=65536 off=1,2,3 on avx2 (from L2): time <= 0.95x before

// The dense float Sum over the same columns: ADR-013 fixes which
// accumulator lane each element meets from x[0] on, so the loops cannot
// start on a boundary; the AVX-512 loop instead reads aligned vectors and
// rebuilds each of x's vectors from two of them with one two-table
// permute (VPERMT2Q/VPERMT2D), lane for lane what the unaligned load read,
// so the result's bits do not change. On the same Zen 4 the unaligned
// AVX-512 loop took 1.6x its aligned time at n=4096 (262 against 165 ns
// for float64, 8 bytes past a boundary, loop-only). Registered before the
// change; the method is the kernels of both commits in one test binary,
// interleaved, fastest of 250 rounds, and BenchmarkOffsets alternately:
//
//	H274 (measured by hand): Sum float64 n=4096 off=1,2,3 on avx512: time <= 0.75x before
//	H275 (measured by hand): Sum float32 n=4096 off=1,2,3 on avx512: time <= 0.75x before
//	H276 (measured by hand): Sum float64 and float32 n=4096 off=0 on avx512: time <= 1.03x before
//	H277 (measured by hand): Sum float64 n=65536 off=1,2,3 on avx512 (from L2): time <= 0.90x before
//
// H274 and H275 missed on the Zen 4 (0.84x and 0.92x), which runs a
// 512-bit permute as two 256-bit halves. Registered 2026-12-02 on an AMD
// EPYC family 26 model 2 (Zen 5 class), whose vector units are 512 bits
// wide, before measuring there, the same method (the kernels of 6d193ee's
// parent and of 6d193ee in one test binary, interleaved, fastest of 250
// rounds):
//
//	H283 (measured by hand): Sum float64 n=4096 off=1,2,3 on avx512, Zen 5: time <= 0.80x before
//	H284 (measured by hand): Sum float32 n=4096 off=1,2,3 on avx512, Zen 5: time <= 0.80x before
//
// The AVX2 float sums keep unaligned loads, which straddle a cache line
// every other load off a boundary (the API at n=4096 on the same Zen 5:
// float64 228-267 ns against 170-208 aligned). Registered before any
// prototype was run: the same rebuild on AVX2, where no two-table permute
// exists, as one VPERMPS of each aligned vector by a rotation (the
// index is s+lane, its low three bits) and one VBLENDVPS of two rotated
// neighbours, the first and last aligned vectors loaded with VMASKMOVPS
// (masked-off lanes are not read). Two more instructions a vector, so it
// pays only where the straddling loads, not the four chains of additions,
// bound the loop. First a loop-only prototype beside the unaligned loop
// and the kernel in one test binary, fastest of 250 interleaved rounds;
// generated only if it holds:
//
//	H285 (measured by hand): Sum float64 n=4096 off=1,2,3 on avx2, rebuilt: time <= 0.85x the unaligned loop
//	H286 (measured by hand): Sum float32 n=4096 off=1,2,3 on avx2, rebuilt: time <= 0.85x the unaligned loop
//
// Registered after H285-H286 missed (the rebuilt loop took 1.22-1.25x the
// unaligned one), before its prototype ran: each 32-byte vector from two
// 16-byte loads (VMOVUPD, then VINSERTF128 from memory), of which one in
// four straddles a line at these offsets instead of one in two:
//
//	H287 (measured by hand): Sum float64 n=4096 off=1,2,3 on avx2, 16-byte halves: time <= 0.85x the unaligned loop

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/quiverlabs/quiver"
)

// BenchmarkOffsets times the dense summaries and float sums of
// x[off:off+n] for off = 0 to 3 elements past a 64-byte boundary, on each
// SIMD backend.
func BenchmarkOffsets(b *testing.B) {
	for _, n := range []int{4096, 65536} {
		offsetCases(b, "float64", n, append(summaryOps[float64](), sumOp[float64]()))
		offsetCases(b, "float32", n, append(summaryOps[float32](), sumOp[float32]()))
		offsetCases(b, "int64", n, summaryOps[int64]())
	}
}

// offsetOp is one call BenchmarkOffsets times over x.
type offsetOp[T number] struct {
	name string
	run  func(x []T)
}

func summaryOps[T number]() []offsetOp[T] {
	return []offsetOp[T]{
		{"Min", func(x []T) { sinkAny = quiver.Min(x) }},
		{"Max", func(x []T) { sinkAny = quiver.Max(x) }},
		{"MinMax", func(x []T) { lo, _ := quiver.MinMax(x); sinkAny = lo }},
		{"Summarize", func(x []T) { sinkAny = quiver.Summarize(x) }},
	}
}

func sumOp[T float32 | float64]() offsetOp[T] {
	return offsetOp[T]{"Sum", func(x []T) { sinkAny = quiver.Sum(x) }}
}

func offsetCases[T number](b *testing.B, typ string, n int, ops []offsetOp[T]) {
	src := newInput[T](n, 0).x
	for off := range 4 {
		x := alignedAt[T](n, off)
		copy(x, src)
		for _, op := range ops {
			onSIMDBackends(b, fmt.Sprintf("op=%s/type=%s/n=%d/off=%d/", op.name, typ, n, off), func(b *testing.B) {
				for b.Loop() {
					op.run(x)
				}
			})
		}
	}
}

var sinkAny any

// alignedAt returns n elements starting off elements past a 64-byte
// boundary (the address is only compared, never converted back).
func alignedAt[T number](n, off int) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	buf := make([]T, n+off+64/size)
	skip := 0
	for uintptr(unsafe.Pointer(&buf[skip]))%64 != 0 {
		skip++
	}
	return buf[skip+off : skip+off+n]
}
