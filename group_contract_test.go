package quiver

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/quiverlabs/quiver/internal/ref"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// groupPanics checks that f panics with a quiver: message containing
// every word of want.
func groupPanics(t *testing.T, what string, f func(), want ...string) {
	t.Helper()
	msg := quiverPanic(t, what, f)
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("%s: message %q does not contain %q", what, msg, w)
		}
	}
}

// TestGroupContract: every bad input panics with a quiver: message that
// names the argument and the numbers, and the state is unchanged.
func TestGroupContract(t *testing.T) {
	x := []float64{1, 2, 3, 4}
	ids := []uint32{0, 1, 2, 1}
	var s GroupSumState[float64]
	s.Grow(3)
	s.Add(x, ids)
	before := s.Sums(nil)
	var sm GroupSummaryState[float64]
	sm.Grow(3)
	var is GroupIntSumState[int32]
	is.Grow(3)
	var us GroupUintSumState[uint8]
	us.Grow(3)
	var cs GroupCountState
	cs.Grow(3)
	var rs GroupSumReproducibleState[float32]
	rs.Grow(3)
	var mn GroupMinState[float64]
	mn.Grow(3)
	mn.Add([]float64{5, 6, 7}, []uint32{0, 1, 2})
	var mx GroupMaxState[int32]
	mx.Grow(3)
	mx.Add([]int32{5, 6, 7}, []uint32{0, 1, 2})
	mnBefore, mxBefore := mn.Mins(nil), mx.Maxs(nil)

	groupPanics(t, "short ids", func() { s.Add(x, ids[:3]) }, "GroupSumState.Add", "3 group ids for 4 values")
	groupPanics(t, "id out of range", func() { s.Add(x, []uint32{0, 1, 3, 0}) }, "group id 3 at row 2", "3 groups")
	groupPanics(t, "huge id", func() { s.Add(x, []uint32{0, math.MaxUint32, 1, 0}) }, "group id 4294967295 at row 1")
	groupPanics(t, "short bitmap", func() { s.Add(x, ids, Valid([]byte{0xFF}, 5)) }, "bitmap has 3 bits from its offset to its end, need 4")
	groupPanics(t, "bad selection", func() { s.Add(x, ids, Select([]uint32{0, 4})) }, "selection index 4 at position 1", "4 elements")
	groupPanics(t, "two masks", func() { s.Add(x, ids, Mask{}, Mask{}) }, "2 masks")
	groupPanics(t, "parallel id", func() { s.AddParallel(x, []uint32{0, 1, 9, 0}, 2) }, "AddParallel", "group id 9")
	if got := s.Sums(nil); !slices.Equal(got, before) {
		t.Fatalf("a rejected batch changed the state: %v, want %v", got, before)
	}
	groupPanics(t, "summary id", func() { sm.Add(x, []uint32{5, 0, 0, 0}) }, "GroupSummaryState.Add", "group id 5 at row 0")
	groupPanics(t, "summary parallel", func() { sm.AddParallel(x, ids[:1], 2) }, "1 group ids for 4 values")
	groupPanics(t, "int id", func() { is.Add([]int32{1, 2}, []uint32{0, 3}) }, "GroupIntSumState.Add", "group id 3 at row 1")
	groupPanics(t, "int parallel", func() { is.AddParallel([]int32{1, 2}, []uint32{0}, 2) }, "1 group ids for 2 values")
	groupPanics(t, "uint id", func() { us.Add([]uint8{1}, []uint32{7}) }, "GroupUintSumState.Add", "group id 7")
	groupPanics(t, "uint parallel", func() { us.AddParallel([]uint8{1}, []uint32{7}, 2) }, "group id 7")
	groupPanics(t, "count id", func() { cs.Add([]uint32{0, 3}) }, "GroupCountState.Add", "group id 3 at row 1")
	groupPanics(t, "count bitmap", func() { cs.Add(ids, Valid(nil, 0).Select([]uint32{9})) }, "selection index 9")
	groupPanics(t, "count parallel", func() { cs.AddParallel([]uint32{4}, 2) }, "group id 4")
	groupPanics(t, "repro id", func() { rs.Add([]float32{1}, []uint32{3}) }, "GroupSumReproducibleState.Add", "group id 3")
	groupPanics(t, "repro parallel", func() { rs.AddParallel([]float32{1}, []uint32{3}, 2) }, "group id 3")
	// Dense batches of at least 4 rows per group (checked in the updating
	// loop, the table restored before the panic) and shorter ones (a pass
	// over the ids first), with the bad id early and late.
	long := make([]float64, 40)
	longIDs := make([]uint32, 40)
	for i := range long {
		long[i], longIDs[i] = -float64(i), uint32(i%3)
	}
	longIDs[37] = 3
	groupPanics(t, "min id late", func() { mn.Add(long, longIDs) }, "GroupMinState.Add", "group id 3 at row 37", "3 groups")
	groupPanics(t, "min id", func() { mn.Add(x, []uint32{0, 1, 3, 0}) }, "GroupMinState.Add", "group id 3 at row 2")
	groupPanics(t, "min short ids", func() { mn.Add(x, ids[:3]) }, "GroupMinState.Add", "3 group ids for 4 values")
	groupPanics(t, "min bitmap", func() { mn.Add(x, ids, Valid([]byte{0xFF}, 5)) }, "bitmap has 3 bits from its offset to its end, need 4")
	groupPanics(t, "min selection", func() { mn.Add(x, ids, Select([]uint32{0, 4})) }, "selection index 4 at position 1")
	groupPanics(t, "min parallel", func() { mn.AddParallel(x, []uint32{0, 1, 9, 0}, 2) }, "GroupMinState.AddParallel", "group id 9")
	longI := make([]int32, 40)
	for i := range longI {
		longI[i] = int32(100 + i)
	}
	longIDs[37], longIDs[2] = 0, math.MaxUint32
	groupPanics(t, "max id", func() { mx.Add(longI, longIDs) }, "GroupMaxState.Add", "group id 4294967295 at row 2")
	groupPanics(t, "max id masked", func() { mx.Add(longI, longIDs, Valid(make([]byte, 5), 0)) }, "GroupMaxState.Add", "group id 4294967295 at row 2")
	groupPanics(t, "max parallel", func() { mx.AddParallel([]int32{1}, []uint32{}, 2) }, "GroupMaxState.AddParallel", "0 group ids for 1 values")
	if !slices.Equal(mn.Mins(nil), mnBefore) || !slices.Equal(mx.Maxs(nil), mxBefore) {
		t.Fatalf("a rejected batch changed the state: %v %v, want %v %v", mn.Mins(nil), mx.Maxs(nil), mnBefore, mxBefore)
	}
	for _, c := range []func(){
		func() { mn.Min(3) }, func() { mn.Min(-1) }, func() { mx.Max(3) }, func() { mx.Max(-1) },
		func() { s.Sum(3) }, func() { s.Sum(-1) }, func() { sm.Min(3) }, func() { sm.Max(3) }, func() { sm.MinMax(3) },
		func() { sm.Summary(3) }, func() { is.Sum(3) }, func() { is.Checked(3) }, func() { is.Exact(3) },
		func() { us.Sum(3) }, func() { us.Checked(3) }, func() { us.Exact(3) }, func() { cs.Count(3) }, func() { rs.Sum(3) },
	} {
		groupPanics(t, "result of a group out of range", c, "group", "out of range for 3 groups")
	}
	groupPanics(t, "negative Grow", func() { s.Grow(-1) }, "group count -1")
	groupPanics(t, "negative Grow min", func() { mn.Grow(-1) }, "GroupMinState.Grow", "group count -1")
	groupPanics(t, "negative Grow max", func() { mx.Grow(-1) }, "GroupMaxState.Grow", "group count -1")
	if strconv.IntSize == 64 {
		sh := 32          // a variable shift: the constant would not compile for 32-bit ints
		huge := 1<<sh + 1 // above what uint32 ids can name; checked before any allocation
		groupPanics(t, "huge Grow", func() { s.Grow(huge) }, "group count 4294967297")
		groupPanics(t, "huge Grow summary", func() { sm.Grow(math.MaxInt) }, "GroupSummaryState.Grow")
		groupPanics(t, "huge Grow min", func() { mn.Grow(huge) }, "GroupMinState.Grow", "group count 4294967297")
		groupPanics(t, "huge Grow max", func() { mx.Grow(math.MaxInt) }, "GroupMaxState.Grow")
	}
	// Nothing changed in the other states either.
	if c := cs.Counts(nil); !slices.Equal(c, []int{0, 0, 0}) {
		t.Fatalf("counts changed: %v", c)
	}
	if v := is.Sums(nil); !slices.Equal(v, []int64{0, 0, 0}) {
		t.Fatalf("sums changed: %v", v)
	}
}

// TestWindowContract: boundaries out of order or out of range, a
// selection and a bad bitmap panic before anything is appended.
func TestWindowContract(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5}
	groupPanics(t, "out of order", func() { SumWindows(nil, x, []int{0, 3, 2, 5}) }, "SumWindows", "boundary 2 at position 2 is below the previous boundary 3")
	groupPanics(t, "past the end", func() { MinWindows(nil, x, []int{0, 6}) }, "MinWindows", "boundary 6 at position 1 is out of range for 5 values")
	groupPanics(t, "negative", func() { MaxWindows(nil, x, []int{-1, 2}) }, "boundary -1 at position 0")
	groupPanics(t, "selection", func() { SummarizeWindows(nil, x, []int{0, 2}, Select([]uint32{1})) }, "not a selection")
	groupPanics(t, "bitmap", func() { SumReproducibleWindows(nil, x, []int{0, 2}, Valid([]byte{1}, 4)) }, "bitmap has 4 bits from its offset to its end, need 5")
	groupPanics(t, "int", func() { SumIntWindows(nil, []int8{1}, []int{1, 0}) }, "SumIntWindows", "below the previous")
	groupPanics(t, "uint", func() { SumUintWindows(nil, []uint8{1}, []int{0, 2}) }, "SumUintWindows", "out of range for 1 values")
	groupPanics(t, "checked", func() { SumCheckedWindows(nil, []int8{1}, []int{2}) }, "SumCheckedWindows")
	groupPanics(t, "checked uint", func() { SumCheckedUintWindows(nil, []uint8{1}, []int{2}) }, "SumCheckedUintWindows")
	groupPanics(t, "minmax", func() { MinMaxWindows(nil, nil, x, []int{0, 9}) }, "MinMaxWindows")
	groupPanics(t, "count", func() { CountValidWindows(nil, -1, nil) }, "negative number of values -1")
	groupPanics(t, "count bounds", func() { CountValidWindows(nil, 3, []int{0, 4}) }, "out of range for 3 values")
	groupPanics(t, "RunBounds order", func() { RunBounds(nil, []uint32{0, 2, 1}, 3) }, "RunBounds", "group id 1 at row 2 is below the id 2 before it")
	groupPanics(t, "RunBounds range", func() { RunBounds(nil, []uint32{0, 2, 5, 5}, 3) }, "group id 5 at row 2 is out of range for 3 groups")
	// An out-of-order id at every position of inputs up to 20 rows (every
	// lane of the unrolled check and its tail).
	for n := 2; n <= 20; n++ {
		for p := 1; p < n; p++ {
			ids := make([]uint32, n)
			for i := range ids {
				ids[i] = uint32(i + 1)
			}
			ids[p] = ids[p-1] - 1
			groupPanics(t, fmt.Sprintf("RunBounds n=%d descent at %d", n, p), func() { RunBounds(nil, ids, 100) },
				fmt.Sprintf("at row %d is below", p))
		}
	}
	// The same on long runs (checked window by window): 64 rows in 2
	// groups with a descent or an id out of range at every position.
	for p := 1; p < 64; p++ {
		ids := make([]uint32, 64)
		for i := range ids {
			ids[i] = uint32(i / 32)
		}
		if ids[p-1] > 0 {
			ids[p] = ids[p-1] - 1
		} else {
			ids[p-1], ids[p] = 1, 0
		}
		groupPanics(t, fmt.Sprintf("RunBounds long runs, descent at %d", p), func() { RunBounds(nil, ids, 2) }, "is below the id")
		big := make([]uint32, 64)
		for i := range big {
			big[i] = uint32(i / 32)
			if i >= p {
				big[i] = 2
			}
		}
		groupPanics(t, fmt.Sprintf("RunBounds long runs, id 2 from row %d", p), func() { RunBounds(nil, big, 2) },
			fmt.Sprintf("group id 2 at row %d is out of range for 2 groups", p))
	}
	dst := []float64{42}
	func() {
		defer func() { recover() }()
		dst = SumWindows(dst, x, []int{0, 2, 1})
	}()
	if len(dst) != 1 {
		t.Fatalf("a rejected call appended: %v", dst)
	}
}

// TestGroupEmpty: the one-call results over nothing for groups that saw
// nothing, the first of ±0, and the canonical NaN per group.
func TestGroupEmpty(t *testing.T) {
	negZero := math.Copysign(0, -1)
	x := []float64{negZero, 0, math.Float64frombits(0x7FF0000000000001), 5, 0, negZero}
	ids := []uint32{0, 0, 1, 1, 3, 3}
	var s GroupSummaryState[float64]
	s.Grow(4)
	s.Add(x, ids)
	got := s.Summaries(nil)
	if testkit.Bits(got[0].Min) != testkit.Bits(negZero) || testkit.Bits(got[0].Max) != testkit.Bits(negZero) ||
		testkit.Bits(got[3].Min) != 0 || testkit.Bits(got[3].Max) != 0 {
		t.Errorf("first of equal zeros: %+v %+v", got[0], got[3])
	}
	if testkit.Bits(got[1].Min) != 0x7FF8000000000000 || testkit.Bits(got[1].Max) != 0x7FF8000000000000 || got[1].Count != 2 {
		t.Errorf("canonical NaN: %+v", got[1])
	}
	if got[2] != (Summary[float64]{Min: math.MaxFloat64, Max: -math.MaxFloat64}) {
		t.Errorf("empty group: %+v", got[2])
	}
	// The same through the min-only and max-only states, and the empty
	// group of each type's identity (+-MaxFloat, not +-Inf).
	var mn GroupMinState[float64]
	var mx GroupMaxState[float64]
	mn.Grow(4)
	mx.Grow(4)
	mn.Add(x, ids)
	mx.Add(x, ids)
	lows, highs := mn.Mins(nil), mx.Maxs(nil)
	for g, w := range got {
		if testkit.Bits(lows[g]) != testkit.Bits(w.Min) || testkit.Bits(highs[g]) != testkit.Bits(w.Max) {
			t.Errorf("group %d: min-only %v, max-only %v; summary %+v", g, lows[g], highs[g], w)
		}
	}
	var m8 GroupMinState[uint8]
	var x8 GroupMaxState[int8]
	var m32 GroupMinState[float32]
	m8.Grow(1)
	x8.Grow(1)
	m32.Grow(1)
	m8.Add(nil, nil)
	x8.Add([]int8{1}, []uint32{0}, Valid([]byte{0}, 0))
	if m8.Min(0) != math.MaxUint8 || x8.Max(0) != math.MinInt8 || m32.Min(0) != math.MaxFloat32 {
		t.Errorf("empty groups: %v %v %v", m8.Min(0), x8.Max(0), m32.Min(0))
	}
	var is GroupIntSumState[int8]
	is.Grow(2)
	is.Add([]int8{1}, []uint32{1})
	if is.Checked(0) != (CheckedSum[int64]{}) || is.Exact(0).Sign() != 0 {
		t.Errorf("empty int group: %v", is.Checked(0))
	}
	var fs GroupSumState[float64]
	fs.Grow(2)
	fs.Add([]float64{negZero}, []uint32{1})
	if testkit.Bits(fs.Sum(0)) != 0 || testkit.Bits(fs.Sum(1)) != 0 {
		t.Errorf("float sums of nothing and of -0.0: %v %v (Sum gives +0.0 for both)", fs.Sum(0), fs.Sum(1))
	}
	var rs GroupSumReproducibleState[float64]
	rs.Grow(2)
	rs.Add([]float64{negZero}, []uint32{1})
	if testkit.Bits(rs.Sum(0)) != 0 || testkit.Bits(rs.Sum(1)) != 1<<63 {
		t.Errorf("reproducible sums of nothing and of -0.0: %v %v", rs.Sum(0), rs.Sum(1))
	}
	var is64 GroupIntSumState[int64]
	is64.Grow(1)
	is64.Add([]int64{math.MaxInt64, math.MaxInt64, math.MinInt64}, []uint32{0, 0, 0})
	if c := is64.Checked(0); c != (CheckedSum[int64]{math.MaxInt64 - 1, false}) {
		t.Errorf("int64 excursion: %v", c)
	}
	is64.Add([]int64{math.MaxInt64}, []uint32{0})
	if c := is64.Checked(0); !c.Overflowed || is64.Exact(0).String() != "18446744073709551613" {
		t.Errorf("int64 overflow: %v %v", c, is64.Exact(0))
	}
}

// TestGroupNoAlloc: once the groups are sized, Add and the result methods
// allocate nothing, with and without a Mask; windows with room in dst
// neither.
func TestGroupNoAlloc(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 19))
	n := 5000
	x := testkit.Values[float64](r, n, testkit.Plain)
	xi := testkit.Values[int64](r, n, testkit.Plain)
	xu := testkit.Values[uint32](r, n, testkit.Plain)
	ids := make([]uint32, n)
	for i := range ids {
		ids[i] = uint32(r.IntN(100))
	}
	bits := testkit.Bitmap(r, n, 3, 0.1)
	sel := testkit.Selection(r, n, 100)
	var s GroupSumState[float64]
	var rs GroupSumReproducibleState[float64]
	var is GroupIntSumState[int64]
	var us GroupUintSumState[uint32]
	var sm GroupSummaryState[float64]
	var cs GroupCountState
	var mn GroupMinState[float64]
	var mx GroupMaxState[int64]
	mn.Grow(100)
	mx.Grow(100)
	s.Grow(100)
	rs.Grow(100)
	is.Grow(100)
	us.Grow(100)
	sm.Grow(100)
	cs.Grow(100)
	dst := make([]float64, 0, 200)
	sdst := make([]Summary[float64], 0, 200)
	bounds := []int{0, 10, 100, 1000, 1000, 5000}
	for name, f := range map[string]func(){
		"sum":          func() { s.Add(x, ids); s.Add(x, ids, Valid(bits, 3)); s.Add(x, ids, Select(sel)) },
		"reproducible": func() { rs.Add(x, ids); rs.Add(x, ids, Valid(bits, 3).Select(sel)) },
		"int":          func() { is.Add(xi, ids); is.Add(xi, ids, Valid(bits, 3)) },
		"uint":         func() { us.Add(xu, ids, Select(sel)) },
		"summary":      func() { sm.Add(x, ids); sm.Add(x, ids, Valid(bits, 3)) },
		"count":        func() { cs.Add(ids, Valid(bits, 3)) },
		"min":          func() { mn.Add(x, ids); mn.Add(x, ids, Valid(bits, 3)); mn.Add(x, ids, Select(sel)) },
		"max":          func() { mx.Add(xi, ids); mx.Add(xi[:150], ids[:150], Valid(bits, 3)) },
		"min results":  func() { dst = mn.Mins(dst[:0]); _ = mn.Min(3) + float64(mx.Max(4)) },
		"results": func() {
			_ = s.Sum(3) + rs.Sum(4) + sm.Min(5) + float64(is.Sum(6)+is.Checked(7).Sum+int64(us.Sum(1))+int64(cs.Count(2)))
			dst = s.Sums(dst[:0])
			sdst = sm.Summaries(sdst[:0])
		},
		"windows": func() {
			dst = SumWindows(dst[:0], x, bounds, Valid(bits, 3))
			dst = MinWindows(dst[:0], x, bounds)
			sdst = SummarizeWindows(sdst[:0], x, bounds)
		},
	} {
		if a := testing.AllocsPerRun(20, f); a != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, a)
		}
	}
}

// TestGroupGuardPages: grouped Adds and windows whose values, ids, bitmap
// and selection end (or start) at an inaccessible page do not fault.
func TestGroupGuardPages(t *testing.T) {
	g, gb, gs, gi := newGuarded(t), newGuarded(t), newGuarded(t), newGuarded(t)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		for _, c := range guardCases(testing.Short()) {
			x := guardedSlice[float64](g, c.n, c.dataAtEnd)
			xi := guardedSlice[int16](g, c.n, c.dataAtEnd)
			ids := guardedSlice[uint32](gi, c.n, !c.dataAtEnd)
			for i := range ids {
				ids[i] = uint32(i % 5)
			}
			m := Mask{}
			if c.bitmap {
				m = Valid(gb.bytes((c.off+c.n+7)/8, c.bitmapAtEnd), c.off)
			}
			if c.sel {
				m = m.Select(guardSelection(gs, c.n))
			}
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("%v: %v", c, r)
					}
				}()
				var s GroupSumState[float64]
				var sm GroupSummaryState[float64]
				var is GroupIntSumState[int16]
				var cs GroupCountState
				var rs GroupSumReproducibleState[float64]
				var mn GroupMinState[float64]
				var mx GroupMaxState[int16]
				mn.Grow(5)
				mx.Grow(5)
				mn.Add(x, ids, m)
				mx.Add(xi, ids, m)
				s.Grow(5)
				sm.Grow(5)
				is.Grow(5)
				cs.Grow(5)
				rs.Grow(5)
				s.Add(x, ids, m)
				sm.Add(x, ids, m)
				is.Add(xi, ids, m)
				cs.Add(ids, m)
				rs.Add(x, ids, m)
				if !c.sel {
					bounds := RunBounds(nil, nil, 0)
					bounds = append(bounds[:0], 0, c.n/3, c.n)
					sinkF64 += SumWindows(nil, x, bounds, m)[0] + SummarizeWindows(nil, x, bounds, m)[1].Max
				}
			}()
		}
	})
}

// FuzzGroup decodes float64 values, ids and a group count from the
// fuzzer's bytes and checks the grouped sum, summary and count against
// the per-group reference, in one batch and in two.
func FuzzGroup(f *testing.F) {
	f.Add([]byte{}, uint8(1), uint16(0))
	f.Add(binary.LittleEndian.AppendUint64(nil, math.Float64bits(-0.0)), uint8(3), uint16(1))
	f.Add(make([]byte, 80), uint8(0), uint16(3))
	// A NaN with the payload of the min-only table's empty mark, then +Inf.
	mark := binary.LittleEndian.AppendUint64(nil, 0x7FFC000000000000)
	f.Add(append(append(mark, 0), binary.LittleEndian.AppendUint64(nil, math.Float64bits(math.Inf(1)))...), uint8(1), uint16(1))
	f.Fuzz(func(t *testing.T, data []byte, groups uint8, cut uint16) {
		n := len(data) / 9
		G := int(groups%40) + 1
		x := make([]float64, n)
		ids := make([]uint32, n)
		for i := range n {
			x[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[9*i:]))
			ids[i] = uint32(data[9*i+8]) % uint32(G)
		}
		k := int(cut) % (n + 1)
		var s GroupSumState[float64]
		var sm GroupSummaryState[float64]
		var cs GroupCountState
		var mn GroupMinState[float64]
		var mx GroupMaxState[float64]
		mn.Grow(G)
		mx.Grow(G)
		mn.Add(x[:k], ids[:k])
		mx.Add(x[:k], ids[:k])
		mn.Add(x[k:], ids[k:])
		mx.Add(x[k:], ids[k:])
		s.Grow(G)
		sm.Grow(G)
		cs.Grow(G)
		s.Add(x[:k], ids[:k])
		s.Add(x[k:], ids[k:])
		sm.Add(x[:k], ids[:k])
		sm.Add(x[k:], ids[k:])
		cs.Add(ids)
		want := ref.GroupSumFloat(x, ids, G, ref.Mask{})
		sums := ref.GroupSummary(x, ids, G, ref.Mask{})
		counts := ref.GroupCountValid(n, ids, G, ref.Mask{})
		for g := range G {
			got := sm.Summary(g)
			if !sameFloat(s.Sum(g), want[g]) || testkit.Bits(got.Min) != testkit.Bits(sums[g].Lo) ||
				testkit.Bits(got.Max) != testkit.Bits(sums[g].Hi) || got.Count != sums[g].Count || cs.Count(g) != counts[g] {
				t.Fatalf("group %d of %d (cut %d): sum %v want %v, summary %+v want %+v", g, G, k, s.Sum(g), want[g], got, sums[g])
			}
			if testkit.Bits(mn.Min(g)) != testkit.Bits(sums[g].Lo) || testkit.Bits(mx.Max(g)) != testkit.Bits(sums[g].Hi) {
				t.Fatalf("group %d of %d (cut %d): min-only %v max-only %v, want %+v", g, G, k, mn.Min(g), mx.Max(g), sums[g])
			}
		}
	})
}

// TestGroupIntSumRoom: batches whose values are small enough for the
// int64 path one at a time, but whose sum over many batches leaves int64,
// stay exact (the state flushes before the room is used up), for every
// way in: one row per batch, whole batches, and chunks.
func TestGroupIntSumRoom(t *testing.T) {
	vals := []int64{1 << 62, 1<<62 + 5, math.MaxInt64, 1 << 61, math.MinInt64 + 1}
	var s GroupIntSumState[int64]
	var u GroupUintSumState[uint64]
	s.Grow(2)
	u.Grow(2)
	want := new(big.Int).SetInt64(0)
	uwant := new(big.Int).SetInt64(0)
	for k := range 64 {
		v := vals[k%len(vals)]
		s.Add([]int64{v, 3}, []uint32{0, 1})
		want.Add(want, new(big.Int).SetInt64(v))
		w := uint64(v) >> 1
		u.Add([]uint64{w, w, w}, []uint32{1, 1, 0})
		uwant.Add(uwant, new(big.Int).SetUint64(2*w))
	}
	if got := s.Exact(0); got.Cmp(want) != 0 {
		t.Fatalf("int64 sum over 64 batches: got %v, want %v", got, want)
	}
	if got := u.Exact(1); got.Cmp(uwant) != 0 {
		t.Fatalf("uint64 sum over 64 batches: got %v, want %v", got, uwant)
	}
	if s.Sum(1) != 3*64 {
		t.Fatalf("small group: %d", s.Sum(1))
	}
}

// TestGroupCountBound: Grow takes up to 2^32 groups, the number of
// distinct uint32 ids, and panics above. The check is what Grow runs
// before it allocates; a table of 2^32 groups is not built here.
func TestGroupCountBound(t *testing.T) {
	one := uint64(1)
	if one<<32 >= math.MaxInt {
		t.Skip("int cannot hold 2^32+1 on this platform")
	}
	limit := int(one << 32)
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("2^32 groups: %v", r)
			}
		}()
		groupCount("Grow", limit)
	}()
	mustPanic(t, "quiver: Grow: group count 4294967297 is negative or above 2^32", func() { groupCount("Grow", limit+1) })
}
