package bench

// The fixed cost of a short dense call: the Go frames between an exported
// function and its kernel. Counted with cachegrind (bench/callcount.sh,
// the avx2 kernels) on an AMD EPYC (family 26 model 2, Zen 5 class,
// AVX-512) before any change, instructions a call:
//
//   - SumChecked int64 n=32: 328, of which 94 in the kernel. Between
//     them: SumChecked 40, exactOn 23, CheckedI64 15, checkedSigned
//     (its chunk loop, slicing and call set-up) 122, checkedI64Asm 27.
//     Timed: 18 ns on avx512 and 19 on avx2 against 22 for the plain
//     loop; 21-22 ns at n=64.
//   - Min float64 n=64 over a column whose minimum is not a zero: about
//     260, of which 96 in the kernel; denseSummaryOn alone about 60 (its
//     frame of 120 bytes spills what the rare paths need, and the empty
//     Go fold after the kernel costs 21), summaryDenseAsm 29, Min 37,
//     the typed entry and DenseSummary 31. Timed (BenchmarkMinPath,
//     avx2): quiver 15 ns, vek 5 ns; at n=4096 172 ns against vek's 152-
//     163.
//
// The change: the checked sums of one chunk (all but columns of 2^31
// elements) call their kernel from CheckedI64 and CheckedU64 with no chunk
// loop and no switch frame, and the dense extremes' dispatch keeps only
// the kernel call and its result test in line, the short, NaN and zero
// cases out of line. Ratios are the change's time over the commit
// before's, medians of BenchmarkCallCost run alternately from the two
// commits' bench binaries, or instruction counts of callcount.sh:
//
//	H418 (measured by hand): SumChecked int64 nulls=0% n=32 and 64 on avx2: executed instructions a call (callcount.sh) <= 0.75x the commit before's
//	H419 (measured by hand): SumChecked int64 nulls=0% n=32 and 64 on avx2 and avx512: time <= 0.85x; n=256: <= 0.92x
//	H420 (measured by hand): SumChecked int64 nulls=10% n=32/256, and nulls=0%/10% n=4096, on avx2 and avx512: time <= 1.02x
//	H421 (measured by hand): Min float64 (Min64p) and Summarize float64 (Summ64p) n=64 on avx2: executed instructions <= 0.85x
//	H422 (measured by hand): Min and Max float64 and float32 nulls=0% n=64 on avx2 and avx512: time <= 0.9x; n=256: <= 0.95x
//	H423 (measured by hand): Min and Max float64 nulls=0% n=1024 on avx2: >= 0.9x vek's speed, same run (0.84x before)
//	H424 (measured by hand): MinMax and Summarize float64 and float32 nulls=0% n=64 on avx2 and avx512: time <= 0.92x; every case at n=4096: <= 1.02x
//
// The wrapping integer sums (sumIntOn) have the checked sums' pattern: an
// AVX-512 partial last vector's validity is read by a call (tailBits)
// before the kernel's, so every call spilled its arguments around it, and
// AVX2's leftover elements are added after the kernel, so the column
// stayed live across its call. Counted before the change: SumInt int64
// n=256 (callcount SumInt64) 296 instructions a call, 128 in the kernel,
// 76 in sumIntOn. The change: the partial vector on a path of its own, the
// leftover added before the kernel's call (the order of wrapping
// additions does not matter):
//
//	H425 (measured by hand): SumInt int64 nulls=0% n=64 and 256 on avx2: executed instructions a call (callcount.sh, SumInt64) <= 0.9x the commit before's
//	H426 (measured by hand): SumInt int64 and SumUint uint8 nulls=0% n=64 and 256 on avx2 and avx512: time <= 0.95x; every SumInt and SumUint case of BenchmarkCallCost (n=64 to 1024, nulls 0 and 10%): <= 1.02x

import (
	"strconv"
	"testing"

	"github.com/viterin/vek"
	"github.com/viterin/vek/vek32"

	"github.com/quiverlabs/quiver"
)

// BenchmarkCallCost times short and medium calls on the avx2 and avx512
// backends, vek beside the float Min and Max, for H418-H426.
func BenchmarkCallCost(b *testing.B) {
	forBackends(b, []string{"avx2", "avx512"}, func(b *testing.B, _ string) {
		for _, n := range []int{32, 64, 256, 4096} {
			for _, nulls := range []int{0, 10} {
				in := newInput[int64](n, nulls)
				x, ms := in.x, in.masks
				b.Run("op=SumChecked/type=int64/n="+strconv.Itoa(n)+"/nulls="+strconv.Itoa(nulls), func(b *testing.B) {
					var s int64
					for b.Loop() {
						s += quiver.SumChecked(x, ms...).Sum
					}
					sink = res{uint64(s)}
				})
			}
		}
		for _, n := range []int{64, 256, 1024} {
			for _, nulls := range []int{0, 10} {
				i64 := newInput[int64](n, nulls)
				u8 := newInput[uint8](n, nulls)
				b.Run("op=SumInt/type=int64/n="+strconv.Itoa(n)+"/nulls="+strconv.Itoa(nulls), func(b *testing.B) {
					var s int64
					for b.Loop() {
						s += quiver.SumInt(i64.x, i64.masks...)
					}
					sink = res{uint64(s)}
				})
				b.Run("op=SumUint/type=uint8/n="+strconv.Itoa(n)+"/nulls="+strconv.Itoa(nulls), func(b *testing.B) {
					var s uint64
					for b.Loop() {
						s += quiver.SumUint(u8.x, u8.masks...)
					}
					sink = res{s}
				})
			}
		}
		for _, n := range []int{64, 256, 1024, 4096} {
			callCostFloats(b, n, newInput[float64](n, 0).x, vek.Min, vek.Max)
			callCostFloats(b, n, newInput[float32](n, 0).x, vek32.Min, vek32.Max)
		}
	})
}

func callCostFloats[T float32 | float64](b *testing.B, n int, x []T, vmin, vmax func([]T) T) {
	impls := []floatImpl[T]{
		{"Min/impl=quiver", func(x []T) T { return quiver.Min(x) }},
		{"Max/impl=quiver", func(x []T) T { return quiver.Max(x) }},
		{"MinMax/impl=quiver", func(x []T) T { lo, hi := quiver.MinMax(x); return lo + hi }},
		{"Summarize/impl=quiver", func(x []T) T { s := quiver.Summarize(x); return s.Min + s.Max }},
	}
	if n == 1024 || n == 4096 {
		// Through a closure as quiver's are, so that both pay one
		// indirect call and one direct one (vmin itself is a func
		// value: the closure's call of it is the second).
		impls = append(impls,
			floatImpl[T]{"Min/impl=vek", func(x []T) T { return vmin(x) }},
			floatImpl[T]{"Max/impl=vek", func(x []T) T { return vmax(x) }})
	}
	runFloatImpls(b, n, x, impls)
}

// A masked Min, Max, MinMax or Summarize whose bitmap offset is not a
// multiple of 8 (an Arrow array sliced at such an offset: its values and
// its validity bits start at the same offset) folds the elements before
// the bitmap's next byte boundary in Go, so that the kernels read whole
// bytes (summaryAsm.run), one element at a time with the builtin min and
// max, whose NaN and zero handling make a chain of about 8 cycles an
// element. Measured before registering, avx512, 10% nulls, offset 3 (five
// elements folded in Go): a float64 Min of 64 took 39.6 ns against 28.4 at
// offset 0, of 256 53 against 38; avx2 39.7 against 32 and 54 against 44.
// With the fold skipped (wrong results, a probe) the offset-3 calls took
// 30.3 and 31.4 ns at n=64. In isolation the five elements took 12.6 ns
// by that loop and 9.0 by SummaryWord's two chains of plain comparisons
// (a harness floor of 3.7). The change: the head through SummaryWord.
// Ratios are the change's time over the commit before's, medians of
// BenchmarkMaskedSliceOffsets run alternately from the two binaries:
//
//	H427 (measured by hand): masked Min and Summarize float64 (10% nulls) at offset 3, n=64 and 256, on avx2 and avx512: time <= 0.93x
//	H428 (measured by hand): the same at offset 0, and at offset 3 with n=1024: time <= 1.02x

// The fold was not the cost: a probe of the parts (fastest of 8 runs,
// avx512 Min) took 29.2 ns for 64 elements at offset 0, 36.2 for 69 at
// offset 3 (a head of 5, then 64: no tail) and 43.3 for 64 at offset 3.
// So on AVX-512, whose masked kernels finish a partial last vector with a
// mask already, the head goes to the kernel the same way: one masked
// vector over x[0:] whose mask is the head's bits, then the loops from
// x[h:] with whole bitmap bytes (headMasked512 in
// internal/asm/amd64/summary). Registered before measuring, the same
// benchmark against 4e4b5c8's binary:
//
//	H429 (measured by hand): masked Min and Summarize float64 (10% nulls) at offset 3, n=64 and 256, on avx512: time <= 0.85x
//	H430 (measured by hand): the same at offset 0, every case on avx2 (kernels unchanged but for the argument), and avx512 at offset 3 with n=1024: time <= 1.02x

// What remained at offset 3 after H429: the up to u-1 whole vectors the
// AVX-512 kernels' main loop leaves ran as a loop into the first
// accumulator, the tail after them, a chain of up to four dependent
// steps at the end of every column that is not a multiple of the main
// loop's 32 elements. singles512 folds vector i into accumulator i. A
// first run on the masked slices (10 passes, not registered) gave 0.93-
// 0.99 at offset 3. Registered before measuring the dense columns,
// BenchmarkOddLengths against the commit before's binary:
//
//	H431 (measured by hand): Min, Max, MinMax and Summary dense, every type, n=61/1031/4099 on avx512: time <= 0.97x; n=1024/4096: <= 1.02x

// The AVX2 masked kernels still left the head to Go: 40-45 ns against
// 33-34 at offset 0 for a masked float64 Min of 64 (6fe73e1's binary).
// Their loads are not masked, so the head runs as one step of whole
// vectors over x[0:step] whose bits (from the frame, as tailMasked's) are
// the head's at the bottom and zero above: the lanes past the head are
// invalid and take the seed or the extreme's start. Go gives it the head
// only when x holds the head and a whole step after it. Registered before
// measuring, BenchmarkMaskedSliceOffsets against 6fe73e1's binary:
//
//	H432 (measured by hand): masked Min and Summarize float64 (10% nulls) at offset 3, n=64 and 256, on avx2: time <= 0.88x
//	H433 (measured by hand): the same at offset 0, avx512, and avx2 at offset 3 with n=1024: time <= 1.02x

// BenchmarkMaskedSliceOffsets times masked float64 Min and Summarize over
// a slice of a column and its bitmap at offset 0 and 3, for H427-H428.
func BenchmarkMaskedSliceOffsets(b *testing.B) {
	forBackends(b, []string{"avx2", "avx512"}, func(b *testing.B, _ string) {
		for _, n := range []int{64, 256, 1024} {
			in := newInput[float64](n+8, 10)
			for _, off := range []int{0, 3} {
				x, m := in.x[off:n+off], quiver.Valid(in.bits, off)
				b.Run("n="+strconv.Itoa(n)+"/off="+strconv.Itoa(off)+"/op=Min", func(b *testing.B) {
					var s float64
					for b.Loop() {
						s += quiver.Min(x, m)
					}
					sink = res{uint64(s)}
				})
				b.Run("n="+strconv.Itoa(n)+"/off="+strconv.Itoa(off)+"/op=Summarize", func(b *testing.B) {
					var s float64
					for b.Loop() {
						s += quiver.Summarize(x, m).Max
					}
					sink = res{uint64(s)}
				})
			}
		}
	})
}
