package quiver

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/ref"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// The grouped states against the reference: each group's result is the
// one-call reference over the group's rows (internal/ref/group.go), on
// every backend, for random group counts and ids (one group, a group per
// row, empty groups, sorted ids), every Mask shape (a bitmap at offsets
// that are not multiples of 8, a selection with duplicates, both), random
// splits into batches with the group count grown between them, merges of
// pieces and parallel adds over small shards.

// groupCase is one grouped input: x with its ids, the group count and a
// Mask (also as the reference's Mask).
type groupCase[T Number] struct {
	x      []T
	ids    []uint32
	groups int
	m      Mask
	hasM   bool
	rm     ref.Mask
	desc   string
}

// groupCases draws the inputs of the differential tests.
func groupCases[T Number](r *rand.Rand, short bool) []groupCase[T] {
	sizes := []int{0, 1, 2, 3, 7, 8, 31, 63, 64, 65, 129, 257, 1000, 4099}
	if !short {
		sizes = append(sizes, 9000)
	}
	styles := []testkit.Style{testkit.Plain, testkit.Mixed, testkit.Small, testkit.Zeros}
	var out []groupCase[T]
	for si, n := range sizes {
		for mode := range 5 {
			for mk := range 4 {
				c := groupCase[T]{x: testkit.Values[T](r, n, styles[(si+mode+mk)%len(styles)])}
				c.ids = make([]uint32, n)
				switch mode {
				case 0: // all rows in one group
					c.groups = 1
				case 1: // every row its own group, in random order
					c.groups = max(n, 1)
					for i, p := range r.Perm(n) {
						c.ids[i] = uint32(p)
					}
				case 2: // random ids in half of the groups: empty groups
					c.groups = 1 + r.IntN(300)
					for i := range c.ids {
						c.ids[i] = uint32(r.IntN(c.groups+1) / 2)
					}
				case 3: // few groups
					c.groups = 1 + r.IntN(17)
					for i := range c.ids {
						c.ids[i] = uint32(r.IntN(c.groups))
					}
				case 4: // sorted ids (runs)
					c.groups = 1 + r.IntN(40)
					for i := range c.ids {
						c.ids[i] = uint32(r.IntN(c.groups))
					}
					slices.Sort(c.ids)
				}
				off := r.IntN(64)
				if off%8 == 0 {
					off++
				}
				var bits []byte
				if mk == 1 || mk == 3 {
					bits = testkit.Bitmap(r, n, off, 0.3)
					c.m, c.hasM = Valid(bits, off), true
					c.rm = ref.Mask{Bits: bits, Off: off}
				}
				if (mk == 2 || mk == 3) && n > 0 {
					sel := testkit.Selection(r, n, r.IntN(2*n+1))
					c.m, c.hasM = c.m.Select(sel), true
					c.rm.Sel, c.rm.HasSel = sel, true
				}
				c.desc = fmt.Sprintf("n=%d groups=%d mode=%d mask=%d off=%d", n, c.groups, mode, mk, off)
				out = append(out, c)
			}
		}
	}
	return out
}

// groupBatch is one batch of a split groupCase.
type groupBatch[T Number] struct {
	x      []T
	ids    []uint32
	m      []Mask
	maxID  int // the largest id of the batch plus one
	rm     ref.Mask
	visits int
}

// split cuts c's visited rows into random batches: x, ids and the bitmap
// at row boundaries, or the selection at entry boundaries.
func (c groupCase[T]) split(r *rand.Rand) []groupBatch[T] {
	n := c.rm.Len(len(c.x))
	cuts := []int{0}
	for k := 1; k < n; k++ {
		if r.IntN(max(1, n/3)) == 0 {
			cuts = append(cuts, k)
		}
	}
	cuts = append(cuts, n)
	var out []groupBatch[T]
	for j := 1; j < len(cuts); j++ {
		a, b := cuts[j-1], cuts[j]
		var bt groupBatch[T]
		if c.rm.HasSel {
			bt.x, bt.ids = c.x, c.ids
			m := Select(c.rm.Sel[a:b])
			if c.rm.Bits != nil {
				m = Valid(c.rm.Bits, c.rm.Off).Select(c.rm.Sel[a:b])
			}
			bt.m = []Mask{m}
			bt.rm = ref.Mask{Bits: c.rm.Bits, Off: c.rm.Off, Sel: c.rm.Sel[a:b], HasSel: true}
			for _, g := range c.ids { // every id is checked, selected or not
				bt.maxID = max(bt.maxID, int(g)+1)
			}
		} else {
			bt.x, bt.ids = c.x[a:b], c.ids[a:b]
			if c.rm.Bits != nil {
				bt.m = []Mask{Valid(c.rm.Bits, c.rm.Off+a)}
				bt.rm = ref.Mask{Bits: c.rm.Bits, Off: c.rm.Off + a}
			}
			for _, g := range bt.ids {
				bt.maxID = max(bt.maxID, int(g)+1)
			}
		}
		bt.visits = b - a
		out = append(out, bt)
	}
	return out
}

// checkSums fails unless got and want have the same bits, or are both
// NaN (NaN sums compare as a class, as in the one-call tests: the payload
// depends on which operand the hardware saw first).
func checkSums[T constraints.Float](t *testing.T, what string, got, want []T) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d results, want %d", what, len(got), len(want))
	}
	for g := range got {
		if !sameFloat(got[g], want[g]) {
			t.Fatalf("%s: group %d: got %v (%#x), want %v (%#x)", what, g, got[g], testkit.Bits(got[g]), want[g], testkit.Bits(want[g]))
		}
	}
}

func testGroupFloat[T constraints.Float](t *testing.T, r *rand.Rand) {
	for _, c := range groupCases[T](r, testing.Short()) {
		want := ref.GroupSumFloat(c.x, c.ids, c.groups, c.rm)
		// One Add.
		var s GroupSumState[T]
		s.Grow(c.groups)
		if c.hasM {
			s.Add(c.x, c.ids, c.m)
		} else {
			s.Add(c.x, c.ids)
		}
		checkSums(t, c.desc+" Add", s.Sums(nil), want)
		for g := range c.groups {
			if !sameFloat(s.Sum(g), want[g]) {
				t.Fatalf("%s: Sum(%d) disagrees with Sums", c.desc, g)
			}
		}
		// Batches, the group count grown as ids appear; merges of the
		// batches' own states, in order; the reproducible sum.
		batches := c.split(r)
		var b, mg GroupSumState[T]
		var rs GroupSumReproducibleState[T]
		mwant := make([]T, c.groups)
		for _, bt := range batches {
			b.Grow(bt.maxID)
			b.Add(bt.x, bt.ids, bt.m...)
			var p GroupSumState[T]
			p.Grow(bt.maxID)
			p.Add(bt.x, bt.ids, bt.m...)
			mg.Merge(&p)
			for g, v := range ref.GroupSumFloat(bt.x, bt.ids, c.groups, bt.rm) {
				mwant[g] += v
			}
			rs.Grow(bt.maxID)
			rs.Add(bt.x, bt.ids, bt.m...)
		}
		b.Grow(c.groups)
		mg.Grow(c.groups)
		rs.Grow(c.groups)
		checkSums(t, c.desc+" batches", b.Sums(nil), want)
		checkSums(t, c.desc+" merges", mg.Sums(nil), mwant)
		// The reproducible sum: SumReproducible over each group's rows.
		rwant := make([]T, c.groups)
		for g, gm := range ref.GroupMasks(len(c.x), c.ids, c.groups, c.rm) {
			rwant[g] = SumReproducible(c.x, Valid(gm.Bits, gm.Off).Select(gm.Sel))
		}
		checkSums(t, c.desc+" reproducible", rs.Sums(nil), rwant)
		// Reset empties every group.
		b.Reset()
		checkSums(t, c.desc+" reset", b.Sums(nil), make([]T, c.groups))
	}
}

// groupExactWant is the reference's checked sums of c per group.
func groupExactWant[T constraints.Integer, S int64 | uint64](c groupCase[T], rm ref.Mask) []CheckedSum[S] {
	var out []CheckedSum[S]
	for _, e := range ref.GroupSumExact(c.x, c.ids, c.groups, rm) {
		var v S
		var o bool
		if _, signed := any(v).(int64); signed {
			w, of := e.Int64()
			v, o = S(w), of
		} else {
			w, of := e.Uint64()
			v, o = S(w), of
		}
		out = append(out, CheckedSum[S]{v, o})
	}
	return out
}

// groupSummer is what the signed and unsigned grouped sum states share.
type groupSummer[T Number, S int64 | uint64] interface {
	Grow(int)
	Add([]T, []uint32, ...Mask)
	AddParallel([]T, []uint32, int, ...Mask)
	Sums([]S) []S
	CheckedSums([]CheckedSum[S]) []CheckedSum[S]
	Sum(int) S
	Checked(int) CheckedSum[S]
	Reset()
}

// testGroupSums checks one Add, batches with growth, merges of the
// batches' states in random order (exact: any order), and AddParallel.
func testGroupSums[T constraints.Integer, S int64 | uint64, P groupSummer[T, S]](t *testing.T, r *rand.Rand, fresh func() P, merge func(a, b P)) {
	var cases []groupCase[T]
	for _, c := range groupCases[T](r, testing.Short()) {
		// Each case as drawn (full-range values take the split halves,
		// small ones the int64 path) and with the values shifted right by 8
		// (64-bit values of magnitude at most 2^55 take the int64 path in chunks of 64
		// rows or more, with a flush after each).
		cases = append(cases, c)
		d := c
		d.x = slices.Clone(c.x)
		sh := uint(8)
		for i := range d.x {
			d.x[i] >>= sh // arithmetic for signed T
		}
		d.desc += " values>>8"
		cases = append(cases, d)
	}
	for _, c := range cases {
		want := groupExactWant[T, S](c, c.rm)
		wrap := ref.GroupSumInt[T, S](c.x, c.ids, c.groups, c.rm)
		check := func(what string, s P) {
			t.Helper()
			got := s.CheckedSums(nil)
			if !slices.Equal(got, want) {
				t.Fatalf("%s %s: got %v, want %v", c.desc, what, got, want)
			}
			if sums := s.Sums(nil); !slices.Equal(sums, wrap) {
				t.Fatalf("%s %s: wrapped sums %v, want %v", c.desc, what, sums, wrap)
			}
			for g := range c.groups {
				if s.Sum(g) != wrap[g] || s.Checked(g) != want[g] {
					t.Fatalf("%s %s: group %d: Sum or Checked disagrees", c.desc, what, g)
				}
			}
		}
		one := fresh()
		one.Grow(c.groups)
		if c.hasM {
			one.Add(c.x, c.ids, c.m)
		} else {
			one.Add(c.x, c.ids)
		}
		check("Add", one)
		b, mg := fresh(), fresh()
		var parts []P
		for _, bt := range c.split(r) {
			b.Grow(bt.maxID)
			b.Add(bt.x, bt.ids, bt.m...)
			p := fresh()
			p.Grow(bt.maxID)
			p.Add(bt.x, bt.ids, bt.m...)
			parts = append(parts, p)
		}
		for _, k := range r.Perm(len(parts)) {
			merge(mg, parts[k])
		}
		b.Grow(c.groups)
		mg.Grow(c.groups)
		check("batches", b)
		check("merges", mg)
		for _, w := range []int{1, 2, 3} {
			p := fresh()
			p.Grow(c.groups)
			if c.hasM {
				p.AddParallel(c.x, c.ids, w, c.m)
			} else {
				p.AddParallel(c.x, c.ids, w)
			}
			check(fmt.Sprintf("AddParallel(%d)", w), p)
		}
		one.Reset()
		if got := one.Sums(nil); slices.ContainsFunc(got, func(v S) bool { return v != 0 }) {
			t.Fatalf("%s: Reset left %v", c.desc, got)
		}
	}
}

func testGroupSummary[T Number](t *testing.T, r *rand.Rand) {
	for _, c := range groupCases[T](r, testing.Short()) {
		want := ref.GroupSummary(c.x, c.ids, c.groups, c.rm)
		check := func(what string, s *GroupSummaryState[T]) {
			t.Helper()
			got := s.Summaries(nil)
			mins, maxs := s.Mins(nil), s.Maxs(nil)
			for g, w := range want {
				lo, hi := s.MinMax(g)
				if testkit.Bits(got[g].Min) != testkit.Bits(w.Lo) || testkit.Bits(got[g].Max) != testkit.Bits(w.Hi) ||
					got[g].Count != w.Count || got[g].Nulls != w.Nulls {
					t.Fatalf("%s %s: group %d: got %+v, want %+v", c.desc, what, g, got[g], w)
				}
				if testkit.Bits(lo) != testkit.Bits(w.Lo) || testkit.Bits(hi) != testkit.Bits(w.Hi) ||
					testkit.Bits(s.Min(g)) != testkit.Bits(w.Lo) || testkit.Bits(s.Max(g)) != testkit.Bits(w.Hi) ||
					testkit.Bits(mins[g]) != testkit.Bits(w.Lo) || testkit.Bits(maxs[g]) != testkit.Bits(w.Hi) ||
					s.Summary(g) != got[g] && got[g].Min == got[g].Min {
					t.Fatalf("%s %s: group %d: the result methods disagree", c.desc, what, g)
				}
			}
		}
		var one, b, mg GroupSummaryState[T]
		one.Grow(c.groups)
		if c.hasM {
			one.Add(c.x, c.ids, c.m)
		} else {
			one.Add(c.x, c.ids)
		}
		check("Add", &one)
		for _, bt := range c.split(r) {
			b.Grow(bt.maxID)
			b.Add(bt.x, bt.ids, bt.m...)
			var p GroupSummaryState[T]
			p.Grow(bt.maxID)
			p.Add(bt.x, bt.ids, bt.m...)
			mg.Merge(&p) // in input order: the first of equal extremes wins
		}
		b.Grow(c.groups)
		mg.Grow(c.groups)
		check("batches", &b)
		check("merges", &mg)
		for _, w := range []int{1, 2, 3} {
			var p GroupSummaryState[T]
			p.Grow(c.groups)
			if c.hasM {
				p.AddParallel(c.x, c.ids, w, c.m)
			} else {
				p.AddParallel(c.x, c.ids, w)
			}
			check(fmt.Sprintf("AddParallel(%d)", w), &p)
		}
		one.Reset()
		var empty GroupSummaryState[T]
		empty.Grow(c.groups)
		if !slices.Equal(one.Summaries(nil), empty.Summaries(nil)) {
			t.Fatalf("%s: Reset does not empty the groups", c.desc)
		}
		// Counts, from the same ids and Mask.
		cwant := ref.GroupCountValid(len(c.x), c.ids, c.groups, c.rm)
		var cs, cp GroupCountState
		cs.Grow(c.groups)
		cp.Grow(c.groups)
		if c.hasM {
			cs.Add(c.ids, c.m)
			cp.AddParallel(c.ids, 2, c.m)
		} else {
			cs.Add(c.ids)
			cp.AddParallel(c.ids, 2)
		}
		if got := cs.Counts(nil); !slices.Equal(got, cwant) {
			t.Fatalf("%s: counts %v, want %v", c.desc, got, cwant)
		}
		if got := cp.Counts(nil); !slices.Equal(got, cwant) {
			t.Fatalf("%s: parallel counts %v, want %v", c.desc, got, cwant)
		}
		for g := range c.groups {
			if cs.Count(g) != cwant[g] {
				t.Fatalf("%s: Count(%d) = %d, want %d", c.desc, g, cs.Count(g), cwant[g])
			}
		}
	}
}

func TestGroupFloat(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b BackendInfo) {
		r := rand.New(rand.NewPCG(1, 19))
		t.Run("float64", func(t *testing.T) { testGroupFloat[float64](t, r) })
		t.Run("float32", func(t *testing.T) { testGroupFloat[float32](t, r) })
	})
}

func TestGroupIntSums(t *testing.T) {
	smallShards(t, 64)
	forEachBackend(t, func(t *testing.T, b BackendInfo) {
		r := rand.New(rand.NewPCG(2, 19))
		t.Run("int64", func(t *testing.T) {
			testGroupSums[int64, int64](t, r, func() *GroupIntSumState[int64] { return new(GroupIntSumState[int64]) },
				func(a, b *GroupIntSumState[int64]) { a.Merge(b) })
		})
		t.Run("int8", func(t *testing.T) {
			testGroupSums[int8, int64](t, r, func() *GroupIntSumState[int8] { return new(GroupIntSumState[int8]) },
				func(a, b *GroupIntSumState[int8]) { a.Merge(b) })
		})
		t.Run("int32", func(t *testing.T) {
			testGroupSums[int32, int64](t, r, func() *GroupIntSumState[int32] { return new(GroupIntSumState[int32]) },
				func(a, b *GroupIntSumState[int32]) { a.Merge(b) })
		})
		t.Run("uint64", func(t *testing.T) {
			testGroupSums[uint64, uint64](t, r, func() *GroupUintSumState[uint64] { return new(GroupUintSumState[uint64]) },
				func(a, b *GroupUintSumState[uint64]) { a.Merge(b) })
		})
		t.Run("uint16", func(t *testing.T) {
			testGroupSums[uint16, uint64](t, r, func() *GroupUintSumState[uint16] { return new(GroupUintSumState[uint16]) },
				func(a, b *GroupUintSumState[uint16]) { a.Merge(b) })
		})
	})
}

func TestGroupSummary(t *testing.T) {
	smallShards(t, 64)
	forEachBackend(t, func(t *testing.T, b BackendInfo) {
		r := rand.New(rand.NewPCG(3, 19))
		t.Run("float64", func(t *testing.T) { testGroupSummary[float64](t, r) })
		t.Run("float32", func(t *testing.T) { testGroupSummary[float32](t, r) })
		t.Run("int64", func(t *testing.T) { testGroupSummary[int64](t, r) })
		t.Run("uint8", func(t *testing.T) { testGroupSummary[uint8](t, r) })
		t.Run("int16", func(t *testing.T) { testGroupSummary[int16](t, r) })
	})
}

// TestGroupFloatParallel checks AddParallel's float order: shards of
// shardSize visited rows, each summed on its own, added group by group in
// shard order; the same bits for every worker count.
func TestGroupFloatParallel(t *testing.T) {
	for _, shard := range []int{64, 200} {
		smallShards(t, shard)
		r := rand.New(rand.NewPCG(4, 19))
		for _, c := range groupCases[float64](r, true) {
			n := c.rm.Len(len(c.x))
			want := make([]float64, c.groups)
			for lo := 0; lo < n; lo += shard {
				hi := min(n, lo+shard)
				rm := c.rm
				xs, ids := c.x, c.ids
				if rm.HasSel {
					rm.Sel = rm.Sel[lo:hi]
				} else {
					xs, ids, rm.Off = xs[lo:hi], ids[lo:hi], rm.Off+lo
				}
				for g, v := range ref.GroupSumFloat(xs, ids, c.groups, rm) {
					want[g] += v
				}
			}
			for _, w := range []int{1, 2, 3, 5} {
				var s GroupSumState[float64]
				s.Grow(c.groups)
				if c.hasM {
					s.AddParallel(c.x, c.ids, w, c.m)
				} else {
					s.AddParallel(c.x, c.ids, w)
				}
				checkSums(t, fmt.Sprintf("%s shard=%d workers=%d", c.desc, shard, w), s.Sums(nil), want)
			}
			var rs GroupSumReproducibleState[float64]
			rs.Grow(c.groups)
			var one GroupSumReproducibleState[float64]
			one.Grow(c.groups)
			prev := reproMinPerWorker
			reproMinPerWorker = 1
			if c.hasM {
				rs.AddParallel(c.x, c.ids, 3, c.m)
				one.Add(c.x, c.ids, c.m)
			} else {
				rs.AddParallel(c.x, c.ids, 3)
				one.Add(c.x, c.ids)
			}
			reproMinPerWorker = prev
			checkSums(t, c.desc+" reproducible parallel", rs.Sums(nil), one.Sums(nil))
		}
	}
}
