package quiver

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/ref"
)

// Tests of the grouped kernels' paths (the overflow-checked int64 table
// with its undo and flushes, the split halves, the counting kernel with
// its id check), against the one-call reference per group, at the group
// counts around the kernels' boundaries and with 64-bit values chosen to
// overflow int64 per group.

// groupKernelCounts are group counts around the kernels' boundaries.
var groupKernelCounts = []int{1, 2, 15, 16, 17, 255, 256, 257, 1023, 1024, 1025, 4096}

// groupBigValues returns n int64 values for the overflow paths: style 0
// near +2^63 (every group overflows int64 after two rows), 1 near ±2^63
// mixed, 2 below 2^56 (a group overflows after 128 to 256 rows), 3 below
// 2^56 with both signs, 4 the extremes MinInt64, MaxInt64, -1, 0, 1.
func groupBigValues(r *rand.Rand, n, style int) []int64 {
	x := make([]int64, n)
	for i := range x {
		switch style {
		case 0:
			x[i] = math.MaxInt64 - int64(r.IntN(1000))
		case 1:
			x[i] = int64(r.Uint64())
			if r.IntN(2) == 0 {
				x[i] = math.MinInt64 + int64(r.IntN(1000))
			}
		case 2:
			x[i] = int64(r.Uint64() >> 8)
		case 3:
			x[i] = int64(r.Uint64()) >> 8
		case 4:
			x[i] = []int64{math.MinInt64, math.MaxInt64, -1, 0, 1}[r.IntN(5)]
		}
	}
	return x
}

func TestGroupIntSumOverflowPaths(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b BackendInfo) {
		r := rand.New(rand.NewPCG(7, 19))
		for _, groups := range groupKernelCounts {
			for style := range 5 {
				for _, n := range []int{1, 100, 5000, 70000} {
					if testing.Short() && n > 5000 && groups != 16 {
						continue
					}
					x := groupBigValues(r, n, style)
					ids := make([]uint32, n)
					for i := range ids {
						ids[i] = uint32(r.IntN(groups))
					}
					desc := fmt.Sprintf("groups=%d style=%d n=%d", groups, style, n)
					want := groupExactWant[int64, int64](groupCase[int64]{x: x, ids: ids, groups: groups}, ref.Mask{})
					// One Add, then the same rows in two batches on a state
					// that already holds them (twice the sums, exact).
					var s GroupIntSumState[int64]
					s.Grow(groups)
					s.Add(x, ids)
					if got := s.CheckedSums(nil); !slices.Equal(got, want) {
						t.Fatalf("%s: one Add: %v, want %v", desc, first(got, want), first(want, got))
					}
					exact := ref.GroupSumExact(x, ids, groups, ref.Mask{})
					for g := range groups {
						if e := s.Exact(g); e.Cmp(bigOf(exact[g])) != 0 {
							t.Fatalf("%s: group %d: exact %v", desc, g, e)
						}
					}
					s.Add(x[:n/2], ids[:n/2])
					s.Add(x[n/2:], ids[n/2:])
					for g := range groups {
						twice := exact[g].Add128(exact[g])
						if e := s.Exact(g); e.Cmp(bigOf(twice)) != 0 {
							t.Fatalf("%s: group %d after two batches: exact %v, want %v", desc, g, e, bigOf(twice))
						}
					}
					// A bitmap and a selection take the Go loops.
					bits := make([]byte, (n+7)/8+1)
					for i := range bits {
						bits[i] = byte(r.Uint32())
					}
					m := Valid(bits, 3)
					wantM := groupExactWant[int64, int64](groupCase[int64]{x: x, ids: ids, groups: groups}, ref.Mask{Bits: bits, Off: 3})
					var sm GroupIntSumState[int64]
					sm.Grow(groups)
					sm.Add(x, ids, m)
					if got := sm.CheckedSums(nil); !slices.Equal(got, wantM) {
						t.Fatalf("%s: bitmap: %v, want %v", desc, first(got, wantM), first(wantM, got))
					}
				}
			}
		}
	})
}

func TestGroupUintSumOverflowPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 19))
	for _, groups := range []int{1, 16, 256, 257} {
		for _, n := range []int{3, 1000, 70000} {
			x := make([]uint64, n)
			ids := make([]uint32, n)
			for i := range x {
				x[i] = r.Uint64() >> uint(r.IntN(3)*4) // values at and above 2^63 too
				ids[i] = uint32(r.IntN(groups))
			}
			want := groupExactWant[uint64, uint64](groupCase[uint64]{x: x, ids: ids, groups: groups}, ref.Mask{})
			var s GroupUintSumState[uint64]
			s.Grow(groups)
			s.Add(x, ids)
			if got := s.CheckedSums(nil); !slices.Equal(got, want) {
				t.Fatalf("groups=%d n=%d: %v, want %v", groups, n, first(got, want), first(want, got))
			}
		}
	}
}

func TestGroupCountPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 19))
	for _, groups := range groupKernelCounts {
		for _, n := range []int{0, 1, 3, 4, 5, 1000, 70000} {
			ids := make([]uint32, n)
			for i := range ids {
				ids[i] = uint32(r.IntN(groups))
			}
			want := ref.GroupCountValid(n, ids, groups, ref.Mask{})
			var s GroupCountState
			s.Grow(groups)
			s.Add(ids)
			s.Add(ids[:n/3])
			for _, g := range ids[:n/3] {
				want[g]++
			}
			if got := s.Counts(nil); !slices.Equal(got, want) {
				t.Fatalf("groups=%d n=%d: %v, want %v", groups, n, first(got, want), first(want, got))
			}
			// A bad id at any row, the last ones of an unrolled step
			// included: the panic names it and the counts are unchanged.
			if n == 0 {
				continue
			}
			for _, at := range []int{0, n / 2, n - 1} {
				bad := slices.Clone(ids)
				bad[at] = uint32(groups) + uint32(r.IntN(3))
				msg := fmt.Sprintf("quiver: GroupCountState.Add: group id %d at row %d is out of range for %d groups", bad[at], at, groups)
				func() {
					defer func() {
						if p := recover(); p != msg {
							t.Fatalf("groups=%d n=%d row %d: panic %v, want %q", groups, n, at, p, msg)
						}
					}()
					s.Add(bad)
				}()
				if got := s.Counts(nil); !slices.Equal(got, want) {
					t.Fatalf("groups=%d n=%d: counts changed by a rejected batch", groups, n)
				}
			}
		}
	}
}

// first returns the first element of a that differs from b's, with its
// index, for messages.
func first[E comparable](a, b []E) string {
	for i := range a {
		if i >= len(b) || a[i] != b[i] {
			return fmt.Sprintf("[%d]=%v", i, a[i])
		}
	}
	return fmt.Sprintf("len %d", len(a))
}

// TestRunBoundsScan: RunBounds against the boundaries found row by row,
// for runs of 0 to 19 rows (around the scan's steps of eight) and groups
// with no rows at the start, middle and end; and a single corrupt id (one
// below its predecessor, or out of range) at every row of short inputs,
// which must panic.
func TestRunBoundsScan(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 19))
	for range 2000 {
		groups := 1 + r.IntN(12)
		var ids []uint32
		for g := range groups {
			for range r.IntN(20) {
				ids = append(ids, uint32(g))
			}
		}
		want := []int{}
		for g := range groups {
			k := 0
			for k < len(ids) && ids[k] < uint32(g) {
				k++
			}
			want = append(want, k)
		}
		want = append(want, len(ids))
		if got := RunBounds(nil, ids, groups); !slices.Equal(got, want) {
			t.Fatalf("ids %v groups %d: %v, want %v", ids, groups, got, want)
		}
		if len(ids) > 40 {
			continue
		}
		for at := range ids {
			for _, v := range []uint32{uint32(groups), ids[at] - 1} {
				if at == 0 && v == ids[at]-1 || v == ids[at] {
					continue
				}
				bad := slices.Clone(ids)
				bad[at] = v
				if slices.IsSorted(bad) && v < uint32(groups) {
					continue // still valid
				}
				func() {
					defer func() {
						if recover() == nil {
							t.Fatalf("ids %v groups %d: no panic", bad, groups)
						}
					}()
					RunBounds(nil, bad, groups)
				}()
			}
		}
	}
}

// TestGroupSummaryNaNZeros: per group, NaNs (with payloads) at the first,
// a middle or the last of its rows, or none; signed zeros in either order
// next to positive and negative values; against the reference's summary
// per group, bit for bit, at group counts around the boundaries.
func TestGroupSummaryNaNZeros(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 19))
	nan := math.Float64frombits(0x7FF8000000000123)
	negNaN := math.Float64frombits(0xFFF0000000000001)
	for _, groups := range []int{1, 2, 16, 255, 256, 257} {
		for rep := range 30 {
			n := 1 + r.IntN(3000)
			x := make([]float64, n)
			ids := make([]uint32, n)
			for i := range x {
				ids[i] = uint32(r.IntN(groups))
				switch r.IntN(8) {
				case 0:
					x[i] = math.Copysign(0, -1)
				case 1:
					x[i] = 0
				case 2:
					x[i] = float64(r.IntN(3) - 1)
				default:
					x[i] = r.NormFloat64()
				}
				// A third of the inputs have no negative values (a zero is
				// the minimum), a third no positive ones (the maximum).
				switch rep % 3 {
				case 1:
					x[i] = math.Copysign(x[i], 1)
					if x[i] == 0 && r.IntN(2) == 0 {
						x[i] = math.Copysign(0, -1)
					}
				case 2:
					x[i] = math.Copysign(x[i], -1)
					if x[i] == 0 && r.IntN(2) == 0 {
						x[i] = 0
					}
				}
			}
			// NaNs in a third of the groups, at a chosen row of the group.
			for g := 0; g < groups; g += 3 {
				var rows []int
				for i, id := range ids {
					if int(id) == g {
						rows = append(rows, i)
					}
				}
				if len(rows) == 0 {
					continue
				}
				p := []int{0, len(rows) / 2, len(rows) - 1}[r.IntN(3)]
				x[rows[p]] = []float64{nan, negNaN}[r.IntN(2)]
			}
			want := ref.GroupSummary(x, ids, groups, ref.Mask{})
			var s GroupSummaryState[float64]
			s.Grow(groups)
			s.Add(x, ids)
			for g, w := range want {
				got := s.Summary(g)
				if math.Float64bits(got.Min) != math.Float64bits(w.Lo) || math.Float64bits(got.Max) != math.Float64bits(w.Hi) ||
					got.Count != w.Count || got.Nulls != w.Nulls {
					t.Fatalf("groups=%d n=%d group %d: %+v, want %+v", groups, n, g, got, w)
				}
			}
		}
	}
}

// TestGroupSumFloatCheckInLoop: a dense float batch of at least
// groupCheckInLoop rows per group checks its ids as it adds them; a bad id at the first, a
// middle, or the last rows (inside and after the loop's steps of four)
// panics with the id check's message and leaves the sums as they were,
// bit for bit; good batches give the strict per-group fold.
func TestGroupSumFloatCheckInLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 19))
	for _, groups := range []int{1, 3, 16, 257} {
		for _, n := range []int{max(4, groupCheckInLoop*groups), groupCheckInLoop*groups + 3, 5000 + groupCheckInLoop*groups} {
			x := make([]float64, n)
			ids := make([]uint32, n)
			for i := range x {
				x[i] = r.NormFloat64() * 1e10
				ids[i] = uint32(r.IntN(groups))
			}
			var s GroupSumState[float64]
			s.Grow(groups)
			s.Add(x, ids)
			want := ref.GroupSumFloat(x, ids, groups, ref.Mask{})
			checkSums(t, fmt.Sprintf("groups=%d n=%d", groups, n), s.Sums(nil), want)
			before := s.Sums(nil)
			for _, at := range []int{0, 1, n / 2, n - 4, n - 2, n - 1} {
				bad := slices.Clone(ids)
				bad[at] = uint32(groups) + uint32(r.IntN(5))
				msg := fmt.Sprintf("quiver: GroupSumState.Add: group id %d at row %d is out of range for %d groups", bad[at], at, groups)
				func() {
					defer func() {
						if p := recover(); p != msg {
							t.Fatalf("groups=%d n=%d row %d: panic %v, want %q", groups, n, at, p, msg)
						}
					}()
					s.Add(x, bad)
				}()
				if got := s.Sums(nil); !slices.Equal(got, before) {
					t.Fatalf("groups=%d n=%d row %d: sums changed by a rejected batch", groups, n, at)
				}
			}
		}
	}
}

// groupExactAdder is what TestGroupExactCheckInLoop needs of the exact
// grouped states.
type groupExactAdder[T constraints.Integer] interface {
	Grow(int)
	Add([]T, []uint32, ...Mask)
	Exact(int) *big.Int
}

// groupExactSnapshot is the exact sum of every group.
func groupExactSnapshot[T constraints.Integer](s groupExactAdder[T], groups int) []string {
	out := make([]string, groups)
	for g := range out {
		out[g] = s.Exact(g).String()
	}
	return out
}

// checkGroupExactInLoop adds x, then x again with one id out of range at
// each of several rows (in the first and the later chunks of the exact
// path, before and after flushes of its tables): every rejected batch
// panics with the id check's message and leaves every group's exact sum
// as it was; the state then still adds exactly.
func checkGroupExactInLoop[T constraints.Integer](t *testing.T, op string, s groupExactAdder[T], x []T, groups int, r *rand.Rand) {
	t.Helper()
	n := len(x)
	ids := make([]uint32, n)
	for i := range ids {
		ids[i] = uint32(r.IntN(groups))
	}
	s.Grow(groups)
	s.Add(x, ids)
	exact := ref.GroupSumExact(x, ids, groups, ref.Mask{})
	before := groupExactSnapshot(s, groups)
	for g := range groups {
		if w := bigOf(exact[g]).String(); before[g] != w {
			t.Fatalf("%s groups=%d n=%d: group %d: %s, want %s", op, groups, n, g, before[g], w)
		}
	}
	for _, at := range []int{0, 1, 3, n / 2, n - 5, n - 4, n - 1, 65536 + 7} {
		if at < 0 || at >= n {
			continue
		}
		bad := slices.Clone(ids)
		bad[at] = uint32(groups) + uint32(r.IntN(5))
		msg := fmt.Sprintf("quiver: %s.Add: group id %d at row %d is out of range for %d groups", op, bad[at], at, groups)
		func() {
			defer func() {
				if p := recover(); p != msg {
					t.Fatalf("%s groups=%d n=%d row %d: panic %v, want %q", op, groups, n, at, p, msg)
				}
			}()
			s.Add(x, bad)
		}()
		if got := groupExactSnapshot(s, groups); !slices.Equal(got, before) {
			t.Fatalf("%s groups=%d n=%d row %d: sums changed by a rejected batch: %v, want %v", op, groups, n, at, first(got, before), first(before, got))
		}
	}
	s.Add(x, ids)
	for g := range groups {
		twice := bigOf(exact[g].Add128(exact[g])).String()
		if e := s.Exact(g).String(); e != twice {
			t.Fatalf("%s groups=%d n=%d: group %d after a second batch: %s, want %s", op, groups, n, g, e, twice)
		}
	}
}

// TestGroupExactCheckInLoop: the exact states check the ids of a dense
// batch in the adding loop where the kernel does (the portable build);
// a bad id, at any row, leaves the state as it was. Values below 2^56 fill
// the tables after a few hundred rows per group (flushes between
// chunks), values near 2^63 take the split halves, small non-negative
// ones the unchecked loop.
func TestGroupExactCheckInLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 19))
	for _, groups := range []int{1, 3, 16, 257} {
		for _, n := range []int{5, 5000, 70000} {
			if testing.Short() && n > 5000 && groups != 16 {
				continue
			}
			for style := range 5 {
				checkGroupExactInLoop(t, "GroupIntSumState", &GroupIntSumState[int64]{}, groupBigValues(r, n, style), groups, r)
				checkGroupExactInLoop(t, "GroupIntSumState", &GroupIntSumState[int]{}, intsOf[int](groupBigValues(r, n, style)), groups, r)
				checkGroupExactInLoop(t, "GroupUintSumState", &GroupUintSumState[uint64]{}, intsOf[uint64](groupBigValues(r, n, style)), groups, r)
			}
			// Small non-negative values take the plain loop (bounded by the
			// or of the values); small ones first and large ones after it
			// are taken back from there.
			small := groupBigValues(r, n, 2)
			late := slices.Clone(small)
			for i := range small {
				small[i] >>= 24
				if i < 100 {
					late[i] >>= 24
				}
			}
			checkGroupExactInLoop(t, "GroupIntSumState", &GroupIntSumState[int64]{}, small, groups, r)
			checkGroupExactInLoop(t, "GroupIntSumState", &GroupIntSumState[int64]{}, late, groups, r)
			checkGroupExactInLoop(t, "GroupUintSumState", &GroupUintSumState[uint64]{}, intsOf[uint64](small), groups, r)
			checkGroupExactInLoop(t, "GroupUintSumState", &GroupUintSumState[uint]{}, intsOf[uint](late), groups, r)
			checkGroupExactInLoop(t, "GroupIntSumState", &GroupIntSumState[int32]{}, intsOf[int32](groupBigValues(r, n, 1)), groups, r)
			checkGroupExactInLoop(t, "GroupUintSumState", &GroupUintSumState[uint16]{}, intsOf[uint16](groupBigValues(r, n, 1)), groups, r)
		}
	}
}

// groupMixedShapes is the exact sum of 2^62 and 2^62-1 added with a
// Mask, then 2^63-1 added without, for a 64-bit T.
func groupMixedShapes[T constraints.Signed]() *big.Int {
	var s GroupIntSumState[T]
	s.Grow(1)
	a, b, c := int64(1<<62), int64(1<<62-1), int64(math.MaxInt64)
	s.Add([]T{T(a), T(b)}, []uint32{0, 0}, Valid([]byte{0xFF}, 0))
	s.Add([]T{T(c)}, []uint32{0})
	return s.Exact(0)
}

// intsOf converts x to T, wrapping.
func intsOf[T constraints.Integer](x []int64) []T {
	out := make([]T, len(x))
	for i, v := range x {
		out[i] = T(v)
	}
	return out
}

// TestGroupIntSumMixedShapes: a masked batch may leave an int64 table
// entry anywhere in int64 (its loop tests each add for overflow); the
// dense loop, whose cheaper test needs the entries within ±2^62, must not
// take over from there unchecked. A sum that ends at 2^64-2 from an entry
// of 2^63-1 wraps to -2, inside that range.
func TestGroupIntSumMixedShapes(t *testing.T) {
	all := []byte{0xFF}
	want := new(big.Int).Lsh(big.NewInt(1), 64)
	want.Sub(want, big.NewInt(2))
	if e := groupMixedShapes[int64](); e.Cmp(want) != 0 {
		t.Fatalf("int64: masked then dense: exact %v, want %v", e, want)
	}
	if strconv.IntSize == 64 {
		// int takes the Go loops on every platform (int64 the assembly on
		// some).
		if e := groupMixedShapes[int](); e.Cmp(want) != 0 {
			t.Fatalf("int: masked then dense: exact %v, want %v", e, want)
		}
	}
	var u GroupUintSumState[uint64]
	u.Grow(1)
	u.Add([]uint64{1 << 63, 1<<63 - 1}, []uint32{0, 0}, Valid(all, 0))
	u.Add([]uint64{math.MaxUint64}, []uint32{0})
	wantU := new(big.Int).Lsh(big.NewInt(1), 65)
	wantU.Sub(wantU, big.NewInt(2))
	if e := u.Exact(0); e.Cmp(wantU) != 0 {
		t.Fatalf("uint: masked then dense: exact %v, want %v", e, wantU)
	}
}
