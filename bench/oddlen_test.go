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

// The masked forms. The AVX2 masked summary kernels (every Min, Max,
// MinMax and Summarize with a bitmap) take whole steps too, and Go folds
// the last len mod max(lanes, 8) elements one at a time, testing each
// bit. They cannot overlap their last step the way the dense ones do
// (the valid count, and the bitmap's bits), so the change gives them
// what the AVX-512 masked kernels have: the validity of the last
// elements as an argument, here already shifted to the top of one step,
// and a last step over the column's final elements, overlapping the one
// before with the overlapped lanes invalid. Registered on 2026-12-06 on
// the same CPU from a probe with 10% nulls (fastest of 10): avx2 float64
// Summarize 133.7 ns at n=1024 against 148.3 at 1031, Min 113.8 against
// 121.3; avx512 level (83.2 against 84.3). Same method as above, 10%
// nulls (BenchmarkOddLengthsMasked):
//
//	H408 (measured by hand): Min, Max, MinMax, Summary float64, float32, int64, int32, uint8 with 10% nulls, n=1031, on avx2: <= 0.95x
//	H409 (measured by hand): the same after the change: n=1031 <= 1.04x the time of n=1024
//	H410 (measured by hand): the same at n=1024 on avx2, and every masked case on avx512: <= 1.03x

// The sums and counts over the same lengths. Their kernels take whole
// steps (a count whole 64-bit words) and Go adds the rest: the integer
// sums with a bitmap test each bit and branch (AddValid), the checked
// sums add each element into 128 bits through a carry chain, testing its
// bit, and CountValid counts the bits before the first whole byte and
// after the last whole word one at a time. The change: one validity word
// for the rest and branch-free loops, which the short paths already have
// (checkedWord's halves, a mask per element), and the count's head and
// tail as one masked word each. Registered on 2026-12-06, same CPU, from
// a probe (fastest of 8, ns over n=1024's at offset 0): n=1031 and 1055,
// avx512: SumChecked int64 dense +7.3 and +9.1 (of 57.3), with 10% nulls
// +9.9 and +10.8 (of 89.3); SumInt int64 with nulls +5.8 and +7.5 (of
// 49.9); CountValid +4.1 and +5.8 (of 13.6); avx2 likewise, 3.9 to 7.9
// ns. Same method as above, BenchmarkOddLengthsSums (10% nulls where a
// bitmap is given; CountValid also at bit offset 3):
//
//	H411 (measured by hand): CountValid n=1031 and 1055 at offset 0, and n=1024 at offset 3, on avx2, avx512 and generic: <= 0.85x
//	H412 (measured by hand): SumChecked int64, dense and with nulls, and SumInt int64 and SumUint uint8 with nulls, n=1031 and 1055, on avx2 and avx512: <= 0.93x
//	H413 (measured by hand): every case of BenchmarkOddLengthsSums at n=1024 offset 0: <= 1.03x
//
// H413's first A/B found the generic backend's masked integer sums
// (genericSumInt: one bit loaded, shifted and masked per element, one
// sum) at 1.6x their time, with their code unchanged: only its place in
// the binary had moved, the loop's time following its layout. Their loop
// becomes the short path's, a word of validity per 64 elements and two
// sums (SumIntsWord). Registered before that change, against the commit
// before the tails' change (the same bench binaries, 12 passes):
//
//	H414 (measured by hand): SumInt int64 and SumUint uint8 with 10% nulls, n=1024/1031/1055, on generic: <= 0.90x
//
// What H412 left: the sums' rest needs their kernels to take it. The
// AVX-512 integer and checked sum kernels get the summaries' tail
// argument: the last len mod step elements (a vector of bytes, else 8)
// run as one more vector under an opmask of their validity bits (all
// set without a bitmap), the masked load suppressing every lane past
// the end. The checked kernels' masked-off lanes count as offset zero
// like the invalid ones, so Go takes 2^63 off per lane of the last
// vector. Registered before the change; same method (the bench binaries
// of the registration commit and of the change), 12 passes of
// BenchmarkOddLengthsSums, which gains the dense integer sums:
//
//	H415 (measured by hand): SumInt int64 and SumUint uint8, dense and with 10% nulls, n=1031 and 1055, on avx512: <= 0.92x
//	H416 (measured by hand): SumChecked int64, dense and with 10% nulls, n=1031 and 1055, on avx512: <= 0.90x
//	H417 (measured by hand): every case at n=1024, and every case on avx2 (its kernels unchanged but for the argument): <= 1.03x

// BenchmarkOddLengths times dense Min, Max, MinMax and Summarize of
// float64, float32, int64, int32 and uint8 at lengths that are and are
// not a multiple of 8, on the avx2 and avx512 backends: one input per
// type and length, in L1 (n=4099 of float64 is 32 KB).
func BenchmarkOddLengths(b *testing.B) {
	oddLengthBench(b, []int{61, 1024, 1031, 4096, 4099}, 0, 403)
}

// BenchmarkOddLengthsMasked is BenchmarkOddLengths with a bitmap of 10%
// nulls at offset 0, at n=1024 and 1031.
func BenchmarkOddLengthsMasked(b *testing.B) {
	oddLengthBench(b, []int{1024, 1031}, 10, 408)
}

// oddLengthBench runs oddLengthCases on the avx2 and avx512 backends for
// each n and type, nulls percent of the elements null (0: no bitmap).
func oddLengthBench(b *testing.B, ns []int, nulls int, seed uint64) {
	forBackends(b, []string{"avx2", "avx512"}, func(b *testing.B, _ string) {
		for _, n := range ns {
			oddLengthCases[float64](b, n, nulls, seed)
			oddLengthCases[float32](b, n, nulls, seed)
			oddLengthCases[int64](b, n, nulls, seed)
			oddLengthCases[int32](b, n, nulls, seed)
			oddLengthCases[uint8](b, n, nulls, seed)
		}
	})
}

// oddLengthCases runs quiver's Min, Max, MinMax and Summarize over n
// random values of T, nulls percent of them null.
func oddLengthCases[T number](b *testing.B, n, nulls int, seed uint64) {
	r := rand.New(rand.NewPCG(uint64(n), seed))
	x := make([]T, n)
	drawValues(r, x)
	var m []quiver.Mask
	name := fmt.Sprintf("type=%s/n=%d", typeName[T](), n)
	if nulls > 0 {
		m = []quiver.Mask{quiver.Valid(drawBitmap(r, n, nulls), 0)}
		name += fmt.Sprintf("/nulls=%d", nulls)
	}
	for _, im := range []struct {
		name string
		f    func([]T) T
	}{
		{"Min", func(x []T) T { return quiver.Min(x, m...) }},
		{"Max", func(x []T) T { return quiver.Max(x, m...) }},
		{"MinMax", func(x []T) T { lo, hi := quiver.MinMax(x, m...); return lo + hi }},
		{"Summary", func(x []T) T { s := quiver.Summarize(x, m...); return s.Min + s.Max + T(s.Count) }},
	} {
		b.Run(name+"/op="+im.name, func(b *testing.B) {
			var s T
			for b.Loop() {
				s += im.f(x)
			}
			sink = res{uint64(s)}
		})
	}
}

// BenchmarkOddLengthsSums times CountValid, SumInt, SumUint and SumChecked
// at lengths that are and are not a multiple of the kernels' steps, on
// the avx2, avx512 and generic backends.
func BenchmarkOddLengthsSums(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 411))
	const maxN = 1055
	i64 := make([]int64, maxN)
	u8 := make([]uint8, maxN)
	drawValues(r, i64)
	drawValues(r, u8)
	for i := range i64 {
		i64[i] >>= 2 // SumChecked then fits in an int64 and reports no overflow
	}
	bm := drawBitmap(r, maxN+8, 10)
	forBackends(b, []string{"avx2", "avx512", "generic"}, func(b *testing.B, _ string) {
		for _, n := range []int{1024, 1031, 1055} {
			m := quiver.Valid(bm, 0)
			cases := []oddSumCase{
				{"CountValid/off=0", func() int64 { return int64(quiver.CountValid(n, m)) }},
				{"SumInt/type=int64/nulls=0", func() int64 { return quiver.SumInt(i64[:n]) }},
				{"SumUint/type=uint8/nulls=0", func() int64 { return int64(quiver.SumUint(u8[:n])) }},
				{"SumInt/type=int64/nulls=10", func() int64 { return quiver.SumInt(i64[:n], m) }},
				{"SumUint/type=uint8/nulls=10", func() int64 { return int64(quiver.SumUint(u8[:n], m)) }},
				{"SumChecked/type=int64/nulls=0", func() int64 { return quiver.SumChecked(i64[:n]).Sum }},
				{"SumChecked/type=int64/nulls=10", func() int64 { return quiver.SumChecked(i64[:n], m).Sum }},
			}
			if n == 1024 {
				m3 := quiver.Valid(bm, 3)
				cases = append(cases, oddSumCase{"CountValid/off=3", func() int64 { return int64(quiver.CountValid(n, m3)) }})
			}
			for _, c := range cases {
				b.Run(fmt.Sprintf("n=%d/op=%s", n, c.name), func(b *testing.B) {
					var s int64
					for b.Loop() {
						s += c.f()
					}
					sink = res{uint64(s)}
				})
			}
		}
	})
}

// oddSumCase is one call of BenchmarkOddLengthsSums.
type oddSumCase struct {
	name string
	f    func() int64
}
