package quiver

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestGroupMergeMapped merges states of a partition numbered on its own
// into a state through a permutation (with a group of s that other does
// not have) and compares with feeding other's rows to s under the
// remapped ids: the same results, and the float sums the left fold of
// the two pieces' sums.
func TestGroupMergeMapped(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 7))
	const n, from, to = 500, 7, 9
	x := make([]float64, n)
	xi := make([]int64, n)
	xu := make([]uint32, n)
	ids := make([]uint32, n)
	for i := range x {
		x[i] = r.NormFloat64() * 1e6
		xi[i] = r.Int64() >> 1
		xu[i] = r.Uint32()
		ids[i] = uint32(r.IntN(from))
	}
	x[3], x[4] = math.Copysign(0, -1), math.NaN()
	remap := []uint32{8, 0, 3, 2, 7, 1, 5} // group 4 and 6 of s get nothing
	mapped := make([]uint32, n)
	for i, g := range ids {
		mapped[i] = remap[g]
	}
	// s saw some rows of its own first.
	first := func() (*GroupSumState[float64], *GroupIntSumState[int64], *GroupUintSumState[uint32], *GroupSummaryState[float64], *GroupCountState, *GroupSumReproducibleState[float64]) {
		a, b, c, d, e, f := new(GroupSumState[float64]), new(GroupIntSumState[int64]), new(GroupUintSumState[uint32]),
			new(GroupSummaryState[float64]), new(GroupCountState), new(GroupSumReproducibleState[float64])
		a.Grow(to)
		b.Grow(to)
		c.Grow(to)
		d.Grow(to)
		e.Grow(to)
		f.Grow(to)
		own := []uint32{0, 4, 8, 8}
		a.Add(x[:4], own)
		b.Add(xi[:4], own)
		c.Add(xu[:4], own)
		d.Add(x[:4], own)
		e.Add(own)
		f.Add(x[:4], own)
		return a, b, c, d, e, f
	}
	// The partition, with its own ids.
	var pa GroupSumState[float64]
	var pb GroupIntSumState[int64]
	var pc GroupUintSumState[uint32]
	var pd GroupSummaryState[float64]
	var pe GroupCountState
	var pf GroupSumReproducibleState[float64]
	pa.Grow(from)
	pb.Grow(from)
	pc.Grow(from)
	pd.Grow(from)
	pe.Grow(from)
	pf.Grow(from)
	pa.Add(x, ids)
	pb.Add(xi, ids)
	pc.Add(xu, ids)
	pd.Add(x, ids)
	pe.Add(ids)
	pf.Add(x, ids)

	a, b, c, d, e, f := first()
	a.MergeMapped(&pa, remap)
	b.MergeMapped(&pb, remap)
	c.MergeMapped(&pc, remap)
	d.MergeMapped(&pd, remap)
	e.MergeMapped(&pe, remap)
	f.MergeMapped(&pf, remap)

	wa, wb, wc, wd, we, wf := first()
	wb.Add(xi, mapped)
	wc.Add(xu, mapped)
	wd.Add(x, mapped)
	we.Add(mapped)
	wf.Add(x, mapped)
	for g := range to {
		// The left fold of the pieces' sums: s's own, then the
		// partition's group that maps here.
		want := wa.Sum(g)
		for j, m := range remap {
			if int(m) == g {
				want += pa.Sum(j)
			}
		}
		if got := a.Sum(g); !sameFloat(got, want) {
			t.Errorf("group %d: float sum %v, want %v", g, got, want)
		}
		if b.Checked(g) != wb.Checked(g) || c.Checked(g) != wc.Checked(g) {
			t.Errorf("group %d: integer sums %v %v, want %v %v", g, b.Checked(g), c.Checked(g), wb.Checked(g), wc.Checked(g))
		}
		if gs, ws := d.Summary(g), wd.Summary(g); !sameFloat(gs.Min, ws.Min) || !sameFloat(gs.Max, ws.Max) || gs.Count != ws.Count || gs.Nulls != ws.Nulls {
			t.Errorf("group %d: summary %+v, want %+v", g, gs, ws)
		}
		if e.Count(g) != we.Count(g) {
			t.Errorf("group %d: count %d, want %d", g, e.Count(g), we.Count(g))
		}
		if !sameFloat(f.Sum(g), wf.Sum(g)) {
			t.Errorf("group %d: reproducible sum %v, want %v", g, f.Sum(g), wf.Sum(g))
		}
	}
}

// TestGroupMergeMappedPanics checks a remapping of the wrong length and
// one past the group count: quiver: panics, the state unchanged.
func TestGroupMergeMappedPanics(t *testing.T) {
	var s, o GroupSumState[float64]
	s.Grow(2)
	o.Grow(3)
	o.Add([]float64{1, 2, 3}, []uint32{0, 1, 2})
	msg := quiverPanic(t, "short remap", func() { s.MergeMapped(&o, []uint32{0, 1}) })
	if !strings.Contains(msg, "a remapping of 2 groups for a state of 3 groups") {
		t.Errorf("short remap: %q", msg)
	}
	msg = quiverPanic(t, "remap past the groups", func() { s.MergeMapped(&o, []uint32{0, 1, 2}) })
	if !strings.Contains(msg, "group 2 maps to group 2, out of range for 2 groups") {
		t.Errorf("remap past the groups: %q", msg)
	}
	if s.Sum(0) != 0 || s.Sum(1) != 0 {
		t.Errorf("a failed MergeMapped changed the state: %v %v", s.Sum(0), s.Sum(1))
	}
	var c, co GroupCountState
	co.Grow(1)
	quiverPanic(t, "count remap", func() { c.MergeMapped(&co, []uint32{0}) })
}
