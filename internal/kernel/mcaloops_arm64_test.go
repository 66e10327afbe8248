//go:build arm64 && !purego

package kernel

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The plain loops a user writes instead of the grouped kernels, compiled
// for arm64 so that scripts/neon-mca.sh can put their loop bodies through
// llvm-mca beside the kernels' (docs/neon.md, "Grouped kernels").

//go:noinline
func mcaLoopGroupAdd(acc, x []int64, ids []uint32) {
	for i, g := range ids[:len(x)] {
		acc[g] += x[i]
	}
}

//go:noinline
func mcaLoopGroupCount(count []int, ids []uint32) {
	for _, g := range ids {
		count[g]++
	}
}

// TestGroupKernelsMatchLoops runs the arm64 grouped kernels and the loops
// above on the same rows (values that never overflow, ids in range) at
// lengths 0 to 40: the same tables, and every row taken.
func TestGroupKernelsMatchLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for n := range 41 {
		groups := 1 + r.IntN(9)
		x := make([]int64, n)
		ids := make([]uint32, n)
		for i := range x {
			x[i] = r.Int64N(1<<40) - 1<<39
			ids[i] = uint32(r.IntN(groups))
		}
		acc, want := make([]int64, groups), make([]int64, groups)
		if done, ovf := groupAddInt64(acc, x, ids); done != n || ovf != 0 {
			t.Fatalf("n=%d: groupAddInt64 took %d rows, overflow %d", n, done, ovf)
		}
		mcaLoopGroupAdd(want, x, ids)
		if !slices.Equal(acc, want) {
			t.Fatalf("n=%d: groupAddInt64 %v, loop %v", n, acc, want)
		}
		cnt, wantCnt := make([]int, groups), make([]int, groups)
		if done := groupCount(cnt, ids); done != n {
			t.Fatalf("n=%d: groupCount took %d rows", n, done)
		}
		mcaLoopGroupCount(wantCnt, ids)
		if !slices.Equal(cnt, wantCnt) {
			t.Fatalf("n=%d: groupCount %v, loop %v", n, cnt, wantCnt)
		}
	}
}

// TestGroupKernelsStopRow checks where the arm64 grouped kernels stop: the
// sum after the row whose addition overflows (its wrapped sum stored), the
// count before the first id out of range, at every position of inputs of
// 1 to 40 rows (every place in the kernels' four-row iterations and their
// one-row tail).
func TestGroupKernelsStopRow(t *testing.T) {
	for n := 1; n <= 40; n++ {
		for p := range n {
			x := make([]int64, n)
			ids := make([]uint32, n)
			for i := range x {
				x[i], ids[i] = 1, uint32(i%3)
			}
			acc := []int64{0, 0, 0}
			acc[ids[p]] = math.MaxInt64 - int64(p/3) // row p's addition is the first to overflow
			done, ovf := groupAddInt64(acc, x, ids)
			if done != p+1 || ovf != 1 || acc[ids[p]] != math.MinInt64 {
				t.Fatalf("n=%d overflow at row %d: took %d rows, overflow %d, entry %d", n, p, done, ovf, acc[ids[p]])
			}
			ids[p] = 3
			cnt := make([]int, 3)
			if done := groupCount(cnt, ids); done != p {
				t.Fatalf("n=%d bad id at row %d: counted %d rows", n, p, done)
			}
			if got := cnt[0] + cnt[1] + cnt[2]; got != p {
				t.Fatalf("n=%d bad id at row %d: %d counts in the table", n, p, got)
			}
		}
	}
}
