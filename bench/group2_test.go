package bench

// Grouped reductions, second round (issue 19): the kernels behind the
// grouped states made at least level with the plain loops, then toward the
// issue's targets. Registered on 2026-12-01 before the formal measurement
// of the changed kernels (BenchmarkGroup, BenchmarkGroupWindows and
// BenchmarkGroupLarge in group_test.go, loop and quiver interleaved in one
// process run, benchstat; ratios are the loop's time over quiver's):
//
// H210 (measured by hand): GroupIntSumState int64 values < 2^56, n=65536, groups=16 and 256: >= 2x loop   expected MISS (about 1.1-1.5x: one int64 table, an overflow flag per add)
// H211 (measured by hand): GroupIntSumState int64 n=65536, values < 2^56 and < 2^32, groups=16, 256, 4096: >= 1.0x loop
// H212 (measured by hand): GroupCountState n=65536 groups=16, 256, 4096: >= 1.0x loop   (ids checked inside the counting kernel, no separate pass)
// H213 (measured by hand): GroupCountState n=65536 groups=16 and 256: >= 2x loop   expected MISS
// H214 (measured by hand): GroupSummaryState float64 against a min-only loop, n=65536 groups=16 and 256: >= 1.0x loop   expected MISS (three results per row against one)
// H215 (measured by hand): GroupSummaryState float64 against the summary loop, n=65536 groups=16, 256, 4096: >= 1.0x loop
// H216 (measured by hand): RunBounds + SumWindows float64, n=65536 sorted ids in runs of 64: >= 1.0x loop
// H217 (measured by hand): SumWindows float64 n=65536, bounds given, runs of 64: >= 4x loop
// H218 (measured by hand): GroupSumState float64 n=65536 groups=16, 256, 4096: >= 1.0x loop
// H219 (measured by hand): GroupSumState float64 n=16777216 groups=1000: time <= 1.2x of Sum(x) + SumUint(ids)   expected MISS
//
// Registered on 2026-12-01 before measuring the portable Go (-tags purego)
// kernels of the exact integer sums, the count and the float sum
// (BenchmarkGroup and BenchmarkGroupExact, n=65536, random ids, the
// wrapping loop acc[ids[i]] += x[i] in a function of its own; before and
// after binaries interleaved, fastest of the passes; ratios are the loop's
// time over quiver's):
//
// H200 (measured by hand): -tags purego GroupIntSumState int64 (values < 2^56 and < 2^32), groups=16, 256, 4096: >= 1.0x the wrapping loop
// H201 (measured by hand): -tags purego GroupUintSumState uint64 (values < 2^56), groups=16, 256, 4096: >= 1.0x the wrapping loop
// H202 (measured by hand): -tags purego GroupCountState groups=16, 256, 4096: >= 1.0x loop
// H203 (measured by hand): -tags purego GroupSumState float64 groups=16, 256, 4096: >= 1.0x loop (same bits)
// H204 (measured by hand): -tags purego GroupIntSumState int64 (values < 2^56), groups=16, 256, 4096: >= 1.5x an exact 128-bit user loop (bits.Add64 per row)

import (
	"fmt"
	"math/bits"
	"testing"

	"github.com/quiverlabs/quiver"
)

// loopGroupSumUint is the wrapping loop for unsigned values.
func loopGroupSumUint(acc []uint64, x []uint64, ids []uint32) {
	clear(acc)
	for i, v := range x {
		acc[ids[i]] += v
	}
}

// loopGroupSumExact is the exact loop a user writes for what the grouped
// integer states return: a 128-bit sum per group, the low word added with
// its carry, the sign of the value into the high word.
func loopGroupSumExact(hi []int64, lo []uint64, x []int64, ids []uint32) {
	clear(hi)
	clear(lo)
	for i, v := range x {
		g := ids[i]
		var c uint64
		lo[g], c = bits.Add64(lo[g], uint64(v), 0)
		hi[g] += int64(c) + v>>63
	}
}

// BenchmarkGroupExact: the exact grouped integer sums against the
// wrapping loops (less work: no overflow is seen) and the exact loop
// (the same work), n=65536 random ids.
func BenchmarkGroupExact(b *testing.B) {
	for _, groups := range []int{16, 256, 4096} {
		_, xi, ids := groupInput(65536, groups, false, 0)
		xu := make([]uint64, len(xi))
		for i, v := range xi {
			xu[i] = uint64(v)
		}
		accI := make([]int64, groups)
		accU := make([]uint64, groups)
		var si quiver.GroupIntSumState[int64]
		var su quiver.GroupUintSumState[uint64]
		si.Grow(groups)
		su.Grow(groups)
		name := fmt.Sprintf("n=65536/groups=%d", groups)
		b.Run("op=SumInt/type=int64/"+name+"/impl=loop", func(b *testing.B) {
			for b.Loop() {
				loopGroupSumInt(accI, xi, ids)
			}
		})
		b.Run("op=SumInt/type=int64/"+name+"/impl=loop-exact", func(b *testing.B) {
			for b.Loop() {
				loopGroupSumExact(accI, accU, xi, ids)
			}
		})
		b.Run("op=SumInt/type=int64/"+name+"/impl=quiver", func(b *testing.B) {
			for b.Loop() {
				si.Reset()
				si.Add(xi, ids)
			}
		})
		b.Run("op=SumUint/type=uint64/"+name+"/impl=loop", func(b *testing.B) {
			for b.Loop() {
				loopGroupSumUint(accU, xu, ids)
			}
		})
		b.Run("op=SumUint/type=uint64/"+name+"/impl=quiver", func(b *testing.B) {
			for b.Loop() {
				su.Reset()
				su.Add(xu, ids)
			}
		})
	}
}

// TestGroupExactLoopsAgree: the exact loop computes what the grouped
// integer state returns.
func TestGroupExactLoopsAgree(t *testing.T) {
	_, xi, ids := groupInput(4096, 37, false, 0)
	hi, lo := make([]int64, 37), make([]uint64, 37)
	loopGroupSumExact(hi, lo, xi, ids)
	var si quiver.GroupIntSumState[int64]
	si.Grow(37)
	si.Add(xi, ids)
	for g := range 37 {
		e := si.Exact(g)
		if e.Uint64() != lo[g] || e.Rsh(e, 64).Int64() != hi[g] {
			t.Fatalf("group %d: exact loop %d:%d, state %v", g, hi[g], lo[g], si.Exact(g))
		}
	}
}
