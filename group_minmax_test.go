package quiver

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver/internal/ref"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// GroupMinState and GroupMaxState against the per-group one-call
// reference (ref.GroupMin, ref.GroupMax), on every backend: one Add,
// random batches with the group count grown between them, merges of the
// batches' states in input order, MergeMapped through a permutation, and
// AddParallel over 1, 2 and 3 workers.

// groupExt is the method set the two states share.
type groupExt[T Number, S any] interface {
	*S
	Grow(int)
	Groups() int
	Add([]T, []uint32, ...Mask)
	AddParallel([]T, []uint32, int, ...Mask)
	Merge(*S)
	MergeMapped(*S, []uint32)
	Reset()
}

func testGroupExtreme[T Number, S any, P groupExt[T, S]](t *testing.T, r *rand.Rand, op string,
	want func(x []T, ids []uint32, groups int, m ref.Mask) []T, one func(P, int) T, all func(P, []T) []T) {
	for _, c := range groupCases[T](r, testing.Short()) {
		w := want(c.x, c.ids, c.groups, c.rm)
		check := func(what string, s P) {
			t.Helper()
			if s.Groups() != c.groups {
				t.Fatalf("%s %s %s: %d groups, want %d", op, c.desc, what, s.Groups(), c.groups)
			}
			got := all(s, []T{42})
			if len(got) != c.groups+1 || testkit.Bits(got[0]) != testkit.Bits(T(42)) {
				t.Fatalf("%s %s %s: the results do not append to dst", op, c.desc, what)
			}
			for g := range w {
				if testkit.Bits(got[g+1]) != testkit.Bits(w[g]) || testkit.Bits(one(s, g)) != testkit.Bits(w[g]) {
					t.Fatalf("%s %s %s: group %d: got %v (%v), want %v", op, c.desc, what, g, got[g+1], one(s, g), w[g])
				}
			}
		}
		var a, b, mg, mm S
		P(&a).Grow(c.groups)
		if c.hasM {
			P(&a).Add(c.x, c.ids, c.m)
		} else {
			P(&a).Add(c.x, c.ids)
		}
		check("Add", &a)
		perm := r.Perm(c.groups)
		remap := make([]uint32, c.groups)
		inv := make([]uint32, c.groups)
		for j, g := range perm {
			remap[j], inv[g] = uint32(g), uint32(j)
		}
		P(&mm).Grow(c.groups)
		for _, bt := range c.split(r) {
			P(&b).Grow(bt.maxID)
			P(&b).Add(bt.x, bt.ids, bt.m...)
			var p S
			P(&p).Grow(bt.maxID)
			P(&p).Add(bt.x, bt.ids, bt.m...)
			P(&mg).Merge(&p) // in input order: the first of equal values stays
			// The same piece under ids renumbered by remap, merged back.
			rids := make([]uint32, len(bt.ids))
			for i, g := range bt.ids {
				rids[i] = remap[g]
			}
			var q S
			P(&q).Grow(c.groups)
			P(&q).Add(bt.x, rids, bt.m...)
			P(&mm).MergeMapped(&q, inv)
		}
		P(&b).Grow(c.groups)
		P(&mg).Grow(c.groups)
		check("batches", &b)
		check("merges", &mg)
		check("MergeMapped", &mm)
		for _, k := range []int{1, 2, 3} {
			var p S
			P(&p).Grow(c.groups)
			if c.hasM {
				P(&p).AddParallel(c.x, c.ids, k, c.m)
			} else {
				P(&p).AddParallel(c.x, c.ids, k)
			}
			check(fmt.Sprintf("AddParallel(%d)", k), &p)
		}
		P(&a).Reset()
		empty := want(nil, nil, c.groups, ref.Mask{})
		for g := range c.groups {
			if testkit.Bits(one(&a, g)) != testkit.Bits(empty[g]) {
				t.Fatalf("%s %s: Reset left group %d at %v", op, c.desc, g, one(&a, g))
			}
		}
	}
}

func testGroupMinMax[T Number](t *testing.T, r *rand.Rand) {
	testGroupExtreme[T, GroupMinState[T]](t, r, "GroupMinState", ref.GroupMin[T],
		(*GroupMinState[T]).Min, (*GroupMinState[T]).Mins)
	testGroupExtreme[T, GroupMaxState[T]](t, r, "GroupMaxState", ref.GroupMax[T],
		(*GroupMaxState[T]).Max, (*GroupMaxState[T]).Maxs)
}

func TestGroupMinMax(t *testing.T) {
	smallShards(t, 64)
	forEachBackend(t, func(t *testing.T, b BackendInfo) {
		r := rand.New(rand.NewPCG(5, 19))
		t.Run("float64", func(t *testing.T) { testGroupMinMax[float64](t, r) })
		t.Run("float32", func(t *testing.T) { testGroupMinMax[float32](t, r) })
		t.Run("int64", func(t *testing.T) { testGroupMinMax[int64](t, r) })
		t.Run("uint64", func(t *testing.T) { testGroupMinMax[uint64](t, r) })
		t.Run("uint8", func(t *testing.T) { testGroupMinMax[uint8](t, r) })
		t.Run("int16", func(t *testing.T) { testGroupMinMax[int16](t, r) })
		t.Run("int32", func(t *testing.T) { testGroupMinMax[int32](t, r) })
	})
}

// TestGroupMinMaxSpecials: the cases the table's encoding turns on, per
// group against the reference: a lone +Inf (-Inf for the maximum) in a
// group, a group of NaNs only, a NaN with the empty mark's payload (which
// must come out as the canonical NaN, not as an empty group), NaNs with
// other payloads, ±0 in both orders, a group of nulls only, and extremes
// of the type, through the dense kernel (batches of at least 4 rows per
// group), the masked one and merges.
func TestGroupMinMaxSpecials(t *testing.T) {
	mark64 := math.Float64frombits(0x7FFC000000000000)
	mark32 := math.Float32frombits(0x7FE00000)
	nz := math.Copysign(0, -1)
	inf := math.Inf(1)
	type grp struct {
		x    []float64
		ids  []uint32
		desc string
	}
	xs := []grp{
		{[]float64{inf, inf, inf, inf, 1, 2, 3, 4}, []uint32{0, 0, 0, 0, 1, 1, 1, 1}, "lone +Inf"},
		{[]float64{-inf, -inf, 5, -inf, 1, 2, 3, 4}, []uint32{0, 0, 1, 0, 1, 1, 1, 1}, "-Inf"},
		{[]float64{mark64, 1, 2, 3, 4, 5, 6, 7}, []uint32{0, 1, 1, 1, 1, 1, 1, 1}, "mark payload alone"},
		{[]float64{1, mark64, 2, 3, 4, 5, 6, 7}, []uint32{0, 0, 1, 1, 1, 1, 1, 1}, "mark payload after a value"},
		{[]float64{math.NaN(), 1, -1, 3, 4, 5, 6, 7}, []uint32{0, 0, 0, 1, 1, 1, 1, 1}, "NaN first"},
		{[]float64{0, nz, nz, 0, 1, 2, 3, 4}, []uint32{0, 0, 1, 1, 2, 2, 2, 2}, "zeros"},
		{[]float64{math.MaxFloat64, -math.MaxFloat64, 3, 4, 5, 6, 7, 8}, []uint32{0, 1, 2, 2, 2, 2, 2, 2}, "float extremes"},
	}
	forEachBackend(t, func(t *testing.T, b BackendInfo) {
		for _, c := range xs {
			groups := int(slicesMax(c.ids)) + 2 // the last group stays empty
			for mk := range 3 {
				var m []Mask
				var rm ref.Mask
				switch mk {
				case 1: // a bitmap: rows 1 and 5 null
					bits := []byte{0xDD}
					m, rm = []Mask{Valid(bits, 0)}, ref.Mask{Bits: bits}
				case 2: // a selection, reversed
					sel := []uint32{7, 6, 5, 4, 3, 2, 1, 0}
					m, rm = []Mask{Select(sel)}, ref.Mask{Sel: sel, HasSel: true}
				}
				checkExt(t, c.desc, c.x, c.ids, groups, m, rm)
				x32 := make([]float32, len(c.x))
				for i, v := range c.x {
					x32[i] = float32(v)
					if math.Float64bits(v) == 0x7FFC000000000000 {
						x32[i] = mark32
					}
					if v == math.MaxFloat64 {
						x32[i] = math.MaxFloat32
					} else if v == -math.MaxFloat64 {
						x32[i] = -math.MaxFloat32
					}
				}
				checkExt(t, c.desc+" float32", x32, c.ids, groups, m, rm)
			}
		}
	})
}

func slicesMax(ids []uint32) uint32 {
	var m uint32
	for _, g := range ids {
		m = max(m, g)
	}
	return m
}

// checkExt checks one input through Add, Merge of the two halves and
// AddParallel against the reference.
func checkExt[T Number](t *testing.T, desc string, x []T, ids []uint32, groups int, m []Mask, rm ref.Mask) {
	t.Helper()
	wlo, whi := ref.GroupMin(x, ids, groups, rm), ref.GroupMax(x, ids, groups, rm)
	var lo, lo2 GroupMinState[T]
	var hi, hi2 GroupMaxState[T]
	lo.Grow(groups)
	hi.Grow(groups)
	lo.Add(x, ids, m...)
	hi.Add(x, ids, m...)
	lo2.Grow(groups)
	hi2.Grow(groups)
	lo2.AddParallel(x, ids, 2, m...)
	hi2.AddParallel(x, ids, 2, m...)
	for g := range groups {
		for _, got := range [][2]T{{lo.Min(g), hi.Max(g)}, {lo2.Min(g), hi2.Max(g)}} {
			if testkit.Bits(got[0]) != testkit.Bits(wlo[g]) || testkit.Bits(got[1]) != testkit.Bits(whi[g]) {
				t.Fatalf("%s mask=%v: group %d: min %v max %v, want %v %v", desc, len(m), g, got[0], got[1], wlo[g], whi[g])
			}
		}
	}
	if m != nil {
		return
	}
	// The two halves merged in input order, each half dense.
	var a, b GroupMinState[T]
	var c, d GroupMaxState[T]
	h := len(x) / 2
	a.Grow(groups)
	b.Grow(groups)
	c.Grow(groups)
	d.Grow(groups)
	a.Add(x[:h], ids[:h])
	b.Add(x[h:], ids[h:])
	c.Add(x[:h], ids[:h])
	d.Add(x[h:], ids[h:])
	a.Merge(&b)
	c.Merge(&d)
	for g := range groups {
		if testkit.Bits(a.Min(g)) != testkit.Bits(wlo[g]) || testkit.Bits(c.Max(g)) != testkit.Bits(whi[g]) {
			t.Fatalf("%s merged: group %d: min %v max %v, want %v %v", desc, g, a.Min(g), c.Max(g), wlo[g], whi[g])
		}
	}
}
