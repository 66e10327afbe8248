package quiver

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/oracle"
	"github.com/quiverlabs/quiver/internal/ref"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// cuts returns the boundaries of a random split of n elements into
// batches: 0, the cut points in order (repeats make empty batches), n.
// Cuts fall anywhere: inside blocks and bitmap bytes, next to each other,
// at the ends.
func cuts(r *rand.Rand, n int) []int {
	c := []int{0, n}
	for range r.IntN(9) {
		switch r.IntN(4) {
		case 0: // next to a multiple of 64, the largest block
			c = append(c, min(n, max(0, r.IntN(n/64+1)*64+r.IntN(3)-1)))
		case 1:
			c = append(c, min(n, r.IntN(9)))
		default:
			c = append(c, r.IntN(n+1))
		}
	}
	slices.Sort(c)
	return c
}

// streamCase is one random input for the stream tests.
type streamCase struct {
	n, off int
	bits   []byte // nil: no bitmap
	style  testkit.Style
	cuts   []int
}

func (c streamCase) String() string {
	return fmt.Sprintf("n=%d off=%d bitmap=%v style=%d cuts=%v", c.n, c.off, c.bits != nil, c.style, c.cuts)
}

func streamCases(r *rand.Rand, count int) []streamCase {
	var cs []streamCase
	for k := range count {
		n := r.IntN(700)
		switch k % 4 {
		case 0:
			n = r.IntN(70)
		case 1:
			n = r.IntN(5000)
		}
		c := streamCase{n: n, off: r.IntN(20), style: testkit.Style(r.IntN(4))}
		if k%3 != 0 {
			c.bits = testkit.Bitmap(r, n, c.off, []float64{0, 0.1, 0.5, 1}[r.IntN(4)])
		} else {
			c.off = 0
		}
		c.cuts = cuts(r, n)
		cs = append(cs, c)
	}
	return cs
}

// mask is the Mask of elements lo.. of the case: the same bitmap at a
// later offset, as a slice of an Arrow array has.
func (c streamCase) mask(lo int) Mask { return Valid(c.bits, c.off+lo) }

func TestStreamEqualsOneCall(t *testing.T) {
	count := 400
	if testing.Short() {
		count = 120
	}
	forEachBackend(t, func(t *testing.T, b BackendInfo) {
		t.Run("float32", func(t *testing.T) { streamFloat[float32](t, b, count) })
		t.Run("float64", func(t *testing.T) { streamFloat[float64](t, b, count) })
		t.Run("int8", func(t *testing.T) { streamSigned[int8](t, count) })
		t.Run("int32", func(t *testing.T) { streamSigned[int32](t, count) })
		t.Run("int64", func(t *testing.T) { streamSigned[int64](t, count) })
		t.Run("uint16", func(t *testing.T) { streamUnsigned[uint16](t, count) })
		t.Run("uint64", func(t *testing.T) { streamUnsigned[uint64](t, count) })
	})
}

func streamFloat[T constraints.Float](t *testing.T, b BackendInfo, count int) {
	r := rand.New(rand.NewPCG(7, uint64(num.KindOf[T]())))
	p := policyOf(b, num.KindOf[T]())
	for _, c := range streamCases(r, count) {
		x := testkit.Values[T](r, c.n, c.style)
		var s SumState[T]
		var ss SummaryState[T]
		var cs CountState
		for k := 1; k < len(c.cuts); k++ {
			lo, hi := c.cuts[k-1], c.cuts[k]
			s.Add(x[lo:hi], c.mask(lo))
			ss.Add(x[lo:hi], c.mask(lo))
			cs.Add(hi-lo, c.mask(lo))
			if k%2 == 1 {
				_ = s.Sum() // a result mid-stream leaves the state as it was
			}
		}
		one := Sum(x, Valid(c.bits, c.off))
		if got := s.Sum(); !sameFloat(got, one) {
			t.Fatalf("%v: stream %#x, one call %#x", c, testkit.Bits(got), testkit.Bits(one))
		}
		if want := oracle.Sum(x, c.bits, c.off, p); !sameFloat(one, want) {
			t.Fatalf("%v: one call %#x, oracle %#x", c, testkit.Bits(one), testkit.Bits(want))
		}
		checkSummaryState(t, c, &ss, x)
		if got, want := cs.Count(), CountValid(c.n, Valid(c.bits, c.off)); got != want {
			t.Fatalf("%v: CountState %d, CountValid %d", c, got, want)
		}

		// Merging the states of the pieces left to right: the strict
		// left fold of the pieces' own sums, and for the summary the
		// one-call result.
		var m SumState[T]
		var ms SummaryState[T]
		var fold T
		for k := 1; k < len(c.cuts); k++ {
			lo, hi := c.cuts[k-1], c.cuts[k]
			var piece SumState[T]
			piece.Add(x[lo:hi], c.mask(lo))
			m.Merge(&piece)
			var sp SummaryState[T]
			sp.Add(x[lo:hi], c.mask(lo))
			ms.Merge(&sp)
			if hi > lo {
				fold += Sum(x[lo:hi], c.mask(lo))
			}
		}
		if got := m.Sum(); !sameFloat(got, fold) {
			t.Fatalf("%v: merged %#x, left fold of piece sums %#x", c, testkit.Bits(got), testkit.Bits(fold))
		}
		checkSummaryState(t, c, &ms, x)
	}
}

func checkSummaryState[T Number](t *testing.T, c streamCase, ss *SummaryState[T], x []T) {
	t.Helper()
	want := Summarize(x, Valid(c.bits, c.off))
	got := ss.Summary()
	if testkit.Bits(got.Min) != testkit.Bits(want.Min) || testkit.Bits(got.Max) != testkit.Bits(want.Max) ||
		got.Count != want.Count || got.Nulls != want.Nulls {
		t.Fatalf("%v: summary state %+v, one call %+v", c, got, want)
	}
	if lo, hi := ss.MinMax(); testkit.Bits(lo) != testkit.Bits(ss.Min()) || testkit.Bits(hi) != testkit.Bits(ss.Max()) {
		t.Fatalf("%v: MinMax %v %v, Min %v, Max %v", c, lo, hi, ss.Min(), ss.Max())
	}
}

// exact is the exact sum of the valid elements of x as a big.Int.
func exact[T constraints.Integer](x []T, bits []byte, off int) *big.Int {
	z := new(big.Int)
	for i, v := range x {
		if ref.Valid(bits, off, i) {
			if v < 0 {
				z.Add(z, big.NewInt(int64(v)))
			} else {
				z.Add(z, new(big.Int).SetUint64(uint64(v)))
			}
		}
	}
	return z
}

func streamSigned[T constraints.Signed](t *testing.T, count int) {
	r := rand.New(rand.NewPCG(8, uint64(num.KindOf[T]())))
	for _, c := range streamCases(r, count) {
		x := testkit.Values[T](r, c.n, c.style)
		var s, m IntSumState[T]
		var ss, ms SummaryState[T]
		pieces := make([]IntSumState[T], len(c.cuts)-1)
		summaries := make([]SummaryState[T], len(c.cuts)-1)
		for k := 1; k < len(c.cuts); k++ {
			lo, hi := c.cuts[k-1], c.cuts[k]
			s.Add(x[lo:hi], c.mask(lo))
			ss.Add(x[lo:hi], c.mask(lo))
			pieces[k-1].Add(x[lo:hi], c.mask(lo))
			summaries[k-1].Add(x[lo:hi], c.mask(lo))
		}
		// Integer sums and integer summaries (no signed zeros) merge in
		// any order.
		for _, k := range r.Perm(len(pieces)) {
			m.Merge(&pieces[k])
			ms.Merge(&summaries[k])
		}
		want := exact(x, c.bits, c.off)
		for _, st := range []*IntSumState[T]{&s, &m} {
			if got := st.Exact(); got.Cmp(want) != 0 {
				t.Fatalf("%v: Exact %v, want %v", c, got, want)
			}
			if got, want := st.Sum(), SumInt(x, Valid(c.bits, c.off)); got != want {
				t.Fatalf("%v: Sum %d, SumInt %d", c, got, want)
			}
			if got, want := st.Checked(), SumChecked(x, Valid(c.bits, c.off)); got != want {
				t.Fatalf("%v: Checked %v, SumChecked %v", c, got, want)
			}
		}
		checkSummaryState(t, c, &ss, x)
		checkSummaryState(t, c, &ms, x)
	}
}

func streamUnsigned[T constraints.Unsigned](t *testing.T, count int) {
	r := rand.New(rand.NewPCG(9, uint64(num.KindOf[T]())))
	for _, c := range streamCases(r, count) {
		x := testkit.Values[T](r, c.n, c.style)
		var s, m UintSumState[T]
		for k := 1; k < len(c.cuts); k++ {
			lo, hi := c.cuts[k-1], c.cuts[k]
			s.Add(x[lo:hi], c.mask(lo))
			var p UintSumState[T]
			p.Add(x[lo:hi], c.mask(lo))
			p.Merge(&m) // the other order
			m = p
		}
		want := exact(x, c.bits, c.off)
		for _, st := range []*UintSumState[T]{&s, &m} {
			if got := st.Exact(); got.Cmp(want) != 0 {
				t.Fatalf("%v: Exact %v, want %v", c, got, want)
			}
			if got, want := st.Sum(), SumUint(x, Valid(c.bits, c.off)); got != want {
				t.Fatalf("%v: Sum %d, SumUint %d", c, got, want)
			}
			if got, want := st.Checked(), SumCheckedUint(x, Valid(c.bits, c.off)); got != want {
				t.Fatalf("%v: Checked %v, SumCheckedUint %v", c, got, want)
			}
		}
	}
}

// TestStreamOverflowAndBack feeds int64 batches whose running sum leaves
// int64 and comes back, and one that stays outside: the state is exact
// throughout, where combining per-batch SumChecked results is not.
func TestStreamOverflowAndBack(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b BackendInfo) {
		big2 := make([]int64, 300)
		for i := range big2 {
			big2[i] = math.MaxInt64
		}
		neg := make([]int64, 300)
		for i := range neg {
			neg[i] = -math.MaxInt64
		}
		var s IntSumState[int64]
		s.Add(big2)
		if got := s.Checked(); !got.Overflowed {
			t.Fatalf("300 × MaxInt64: Checked %+v, want an overflow", got)
		}
		want := new(big.Int).Mul(big.NewInt(300), big.NewInt(math.MaxInt64))
		if got := s.Exact(); got.Cmp(want) != 0 {
			t.Fatalf("Exact %v, want %v", got, want)
		}
		s.Add(neg[:299])
		if got := s.Checked(); got.Overflowed || got.Sum != math.MaxInt64 {
			t.Fatalf("back in range: Checked %+v, want MaxInt64", got)
		}
		var u UintSumState[uint64]
		for range 5 {
			u.Add([]uint64{math.MaxUint64, math.MaxUint64, 3}, Valid([]byte{0b101}, 0))
		}
		want = new(big.Int).Mul(big.NewInt(5), new(big.Int).Add(new(big.Int).SetUint64(math.MaxUint64), big.NewInt(3)))
		if got := u.Exact(); got.Cmp(want) != 0 || !u.Checked().Overflowed || u.Sum() != 5*2 {
			t.Fatalf("uint64: Exact %v Checked %+v, want %v", got, u.Checked(), want)
		}
	})
}

// TestStreamSelections feeds batches that carry selections: each ends the
// run and continues the strict fold, so a stream of selected batches on a
// fresh state is the strict fold of the whole selection, and the exact
// states match the reference over the concatenated selection.
func TestStreamSelections(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b BackendInfo) {
		r := rand.New(rand.NewPCG(10, 0))
		for _, c := range streamCases(r, 100) {
			if c.n == 0 {
				continue
			}
			x := testkit.Values[float64](r, c.n, c.style)
			xi := testkit.Values[int32](r, c.n, c.style)
			var s SumState[float64]
			var si IntSumState[int32]
			var ss SummaryState[float64]
			var cs CountState
			var all []uint32
			for k := 1; k < len(c.cuts); k++ {
				sel := testkit.Selection(r, c.n, c.cuts[k]-c.cuts[k-1])
				all = append(all, sel...)
				m := Valid(c.bits, c.off).Select(sel)
				s.Add(x, m)
				si.Add(xi, m)
				ss.Add(x, m)
				cs.Add(c.n, m)
			}
			rm := ref.Mask{Bits: c.bits, Off: c.off, Sel: all, HasSel: true}
			if got, want := s.Sum(), ref.SumFloat(x, rm); !sameFloat(got, want) {
				t.Fatalf("%v: selected stream %#x, strict fold %#x", c, testkit.Bits(got), testkit.Bits(want))
			}
			if got, want := si.Sum(), ref.SumInt[int32, int64](xi, rm); got != want {
				t.Fatalf("%v: selected int stream %d, reference %d", c, got, want)
			}
			lo, hi, count, nulls := ref.Summary(x, rm)
			if got := ss.Summary(); testkit.Bits(got.Min) != testkit.Bits(lo) || testkit.Bits(got.Max) != testkit.Bits(hi) || got.Count != count || got.Nulls != nulls {
				t.Fatalf("%v: selected summary %+v, reference %v %v %d %d", c, got, lo, hi, count, nulls)
			}
			if got, want := cs.Count(), ref.CountValid(c.n, rm); got != want {
				t.Fatalf("%v: selected count %d, reference %d", c, got, want)
			}
		}
	})
}

// TestSumStateRules pins the float state's documented rules: the zero
// value, Reset, merging empty states, a selected batch ending a run, and
// the first-seen zero across batches and merges.
func TestSumStateRules(t *testing.T) {
	var s SumState[float64]
	if got := s.Sum(); math.Float64bits(got) != 0 {
		t.Fatalf("zero state: %v, want +0.0", got)
	}
	s.Add([]float64{math.Copysign(0, -1)})
	if got := s.Sum(); math.Float64bits(got) != 0 {
		t.Fatalf("-0.0 alone: %v (%#x), want +0.0 as Sum gives", got, math.Float64bits(got))
	}
	var empty SumState[float64]
	s.Add([]float64{1.5, 2})
	before := s.Sum()
	s.Merge(&empty)
	s.Add(nil)
	if got := s.Sum(); got != before {
		t.Fatalf("merging an empty state changed %v to %v", before, got)
	}
	s.Reset()
	if s.Sum() != 0 || s.b != nil || s.carried {
		t.Fatalf("Reset left %+v", s)
	}
	// First-seen zero across batches and merges.
	var lo, hi SummaryState[float32]
	neg := float32(math.Copysign(0, -1))
	lo.Add([]float32{neg})
	lo.Add([]float32{0})
	hi.Add([]float32{0})
	hi.Add([]float32{neg})
	if math.Signbit(float64(lo.Min())) != true || math.Signbit(float64(hi.Max())) != false {
		t.Fatalf("first-seen zero across batches: min %v max %v", lo.Min(), hi.Max())
	}
	var a, b SummaryState[float32]
	a.Add([]float32{0})
	b.Add([]float32{neg})
	a.Merge(&b)
	if math.Signbit(float64(a.Min())) {
		t.Fatalf("first-seen zero across a merge: min %v, want +0", a.Min())
	}
	// Identities, NaN and a lone +Inf across batches.
	var e SummaryState[float64]
	e.Add([]float64{math.NaN()}, Valid([]byte{0}, 0))
	if e.Min() != math.MaxFloat64 || e.Max() != -math.MaxFloat64 || e.Summary().Nulls != 1 {
		t.Fatalf("all null: %+v", e.Summary())
	}
	e.Add([]float64{math.Inf(1)})
	if e.Min() != math.Inf(1) || e.Max() != math.Inf(1) {
		t.Fatalf("lone +Inf after an all-null batch: %+v", e.Summary())
	}
	e.Add([]float64{nanWithPayload[float64]()})
	e.Add([]float64{1})
	if got := e.Summary(); testkit.Bits(got.Min) != testkit.Bits(num.NaN[float64]()) || got.Count != 3 {
		t.Fatalf("NaN in a batch: %+v, want the canonical NaN", got)
	}
}

// TestStreamPanics checks that a state panics as the one-call function
// does, and that the panic leaves it as it was.
func TestStreamPanics(t *testing.T) {
	var s SumState[float64]
	s.Add([]float64{1, 2, 3})
	before := s
	mustPanic(t, "quiver: validity bitmap has 8 bits from its offset to its end, need 9, one per element", func() {
		s.Add(make([]float64, 9), Valid([]byte{0xff}, 0))
	})
	mustPanic(t, "quiver: selection index 9 at position 1 is out of range for 3 elements", func() {
		s.Add([]float64{1, 2, 3}, Select([]uint32{0, 9}))
	})
	if s != before {
		t.Fatal("a panicking Add changed the state")
	}
	var i IntSumState[int16]
	mustPanic(t, "quiver: got 2 masks, want at most one", func() { i.Add(nil, Mask{}, Mask{}) })
	var c CountState
	mustPanic(t, "quiver: element count -1 is negative", func() { c.Add(-1) })
}

// TestStreamNoAllocs checks that feeding batches allocates nothing.
func TestStreamNoAllocs(t *testing.T) {
	x := make([]float64, 1000)
	xi := make([]int64, 1000)
	bm := make([]byte, 126)
	sel := []uint32{1, 5, 9}
	var s SumState[float64]
	var si IntSumState[int64]
	var su UintSumState[uint8]
	var ss SummaryState[float64]
	var cs CountState
	u := make([]uint8, 100)
	allocs := testing.AllocsPerRun(100, func() {
		s.Add(x[:333], Valid(bm, 3))
		s.Add(x[3:])
		si.Add(xi, Valid(bm, 5))
		si.Add(xi[:10])
		su.Add(u)
		ss.Add(x, Valid(bm, 1))
		ss.Add(x[:7])
		cs.Add(1000, Valid(bm, 0))
		s.Add(x, Select(sel))
		_ = s.Sum() + ss.Min()
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per round of batches", allocs)
	}
	// A state that lives in one function stays on its stack: the
	// accumulators handed to the kernels do not escape.
	var sink float64
	allocs = testing.AllocsPerRun(100, func() {
		var s SumState[float64]
		var f SumState[float32]
		s.Add(x[:333], Valid(bm, 3))
		s.Add(x[3:])
		f.Add(make([]float32, 100))
		sink += s.Sum() + float64(f.Sum())
	})
	if allocs != 0 {
		t.Fatalf("a local SumState: %v allocations", allocs)
	}
}

// TestSumStateKeepsItsBackend switches the backend in the middle of a run:
// the run stays on the backend it began on, so its sum is still that
// backend's one-call sum.
func TestSumStateKeepsItsBackend(t *testing.T) {
	prev := ActiveBackend().Name
	t.Cleanup(func() { SetBackend(prev) })
	r := rand.New(rand.NewPCG(15, 16))
	x := testkit.Values[float32](r, 3001, testkit.Plain)
	for _, first := range Backends() {
		for _, second := range Backends() {
			if !first.Available || !second.Available {
				continue
			}
			SetBackend(first.Name)
			want := Sum(x)
			var s SumState[float32]
			s.Add(x[:1234])
			SetBackend(second.Name)
			s.Add(x[1234:])
			if got := s.Sum(); testkit.Bits(got) != testkit.Bits(want) {
				t.Errorf("run begun on %s, continued on %s: %#x, one call on %s %#x", first.Name, second.Name, testkit.Bits(got), first.Name, testkit.Bits(want))
			}
		}
	}
}

// TestSumStateMergeShapes merges every shape of SumState into every other
// on each backend and holds the result to Merge's definition: the sum so
// far of s plus next's carry becomes the carry, and s continues with
// next's run. Into a state that was never fed, the merged state must be
// next itself, down to its encoding.
func TestSumStateMergeShapes(t *testing.T) {
	x := []float64{1.5, 2.25, 0.1, 1e16, -3, 7, 0.3, 11, 13, 0.7, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53}
	shapes := []struct {
		name string
		feed func(s *SumState[float64])
	}{
		{"empty", func(*SumState[float64]) {}},
		{"run", func(s *SumState[float64]) { s.Add(x) }},
		{"pending", func(s *SumState[float64]) { s.Add(x[:3]) }},
		{"carry", func(s *SumState[float64]) { s.Add(x, Select([]uint32{4, 0, 1})) }},
		{"carry+run", func(s *SumState[float64]) {
			s.Add(x, Select([]uint32{0, 1}))
			s.Add(x[2:])
		}},
		{"carry+pending", func(s *SumState[float64]) {
			s.Add(x, Select([]uint32{3}))
			s.Add(x[5:7], Valid([]byte{0b01}, 0))
		}},
	}
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		for _, first := range shapes {
			for _, second := range shapes {
				var s, next SumState[float64]
				first.feed(&s)
				second.feed(&next)
				before := s.Sum()
				nextEnc, _ := next.MarshalBinary()
				s.Merge(&next)
				if after, _ := next.MarshalBinary(); !bytes.Equal(after, nextEnc) {
					t.Errorf("%s.Merge(%s) changed next", first.name, second.name)
				}
				want := before
				switch {
				case next.b == nil && !next.carried:
					// Merging a state never fed changes nothing.
				case first.name == "empty":
					want = next.Sum()
				default:
					want = before + next.carry
					if next.b != nil {
						want += next.runSum()
					}
				}
				if got := s.Sum(); math.Float64bits(got) != math.Float64bits(want) {
					t.Errorf("%s.Merge(%s): Sum %v (%#x), want %v (%#x)", first.name, second.name,
						got, math.Float64bits(got), want, math.Float64bits(want))
				}
				if first.name == "empty" {
					if got, _ := s.MarshalBinary(); !bytes.Equal(got, nextEnc) {
						t.Errorf("empty.Merge(%s) encodes as\n%x, not as the merged state\n%x", second.name, got, nextEnc)
					}
				}
			}
		}
	})
}

// TestSumStatePendingEncoding: an element of the unfinished block that
// does not participate is encoded as -0.0 (ADR-107), the neutral of the
// block's lanes, and the others as they are; an encoding whose pending
// block is full is refused.
func TestSumStatePendingEncoding(t *testing.T) {
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		var s SumState[float64]
		s.Add([]float64{1, 2, 3}, Valid([]byte{0b101}, 0))
		enc, _ := s.MarshalBinary()
		body := enc[encHeaderLen:]
		if body[0] != sumRun {
			t.Fatalf("flags %#x, want a run and no carry", body[0])
		}
		a, w, p := int(body[1]), int(body[2]), int(body[3])
		// A full pending block would have been added to the lanes: the
		// decoder refuses one.
		full := slices.Concat(enc, make([]byte, 8*(a*w-p)))
		full[encHeaderLen+3] = byte(a * w)
		var u SumState[float64]
		if err := u.UnmarshalBinary(full); err == nil || !strings.Contains(err.Error(), "pending elements") {
			t.Errorf("%d pending elements for a block of %d: %v", a*w, a*w, err)
		}
		if a*w == 1 {
			if p != 0 {
				t.Fatalf("a one-lane layout has %d pending elements", p)
			}
			return // blocks of one element: nothing is ever pending
		}
		if p != 3 {
			t.Fatalf("%d pending elements, want 3", p)
		}
		pend := body[4+8*a*w:]
		want := []uint64{math.Float64bits(1), 1 << 63, math.Float64bits(3)}
		for i, v := range want {
			if got := binary.LittleEndian.Uint64(pend[8*i:]); got != v {
				t.Errorf("pending element %d encoded as %#x, want %#x", i, got, v)
			}
		}
	})
}

// TestSumStateNullsKeepNegativeZeroLanes: an element that does not
// participate leaves its lane as it is, so a lane of -0.0 (a decoded
// state may carry one) stays -0.0, and the state encodes to the same
// bytes after a batch of nulls. A kernel that added +0.0 for a null would
// turn the lane into +0.0; that is exact only on accumulators that start
// at +0.0, as the one-call sums' do.
func TestSumStateNullsKeepNegativeZeroLanes(t *testing.T) {
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		t.Run("float64", func(t *testing.T) { nullsKeepNegativeZeroLanes[float64](t) })
		t.Run("float32", func(t *testing.T) { nullsKeepNegativeZeroLanes[float32](t) })
	})
}

func nullsKeepNegativeZeroLanes[T float32 | float64](t *testing.T) {
	var s SumState[T]
	s.Add(make([]T, 1)) // a run: one pending element, or none on a one-lane layout
	enc, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	size := elemSize[T]()
	body := enc[encHeaderLen:]
	if body[0] != sumRun {
		t.Fatalf("flags %#x, want a run and no carry", body[0])
	}
	block := int(body[1]) * int(body[2])
	negZero := T(math.Copysign(0, -1))
	for i := range block + int(body[3]) { // the lanes and the pending element
		copy(body[4+i*size:], appendValue(nil, negZero))
	}
	var u SumState[T]
	if err := u.UnmarshalBinary(enc); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{block - 1, 3 * block, 64 + 3*block} {
		u.Add(make([]T, n), Valid(make([]byte, n/8+1), 0)) // all null
		// A third valid, all -0.0: every lane stays -0.0.
		x := make([]T, n)
		bits := make([]byte, n/8+1)
		for i := range x {
			x[i] = negZero
			if i%3 == 0 {
				bits[i/8] |= 1 << (i % 8)
			}
		}
		u.Add(x, Valid(bits, 0))
	}
	got, err := u.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	gb := got[encHeaderLen:]
	if gb[0] != sumRun || gb[1] != body[1] || gb[2] != body[2] {
		t.Fatalf("after the nulls the state's head is %v, want %v", gb[:3], body[:3])
	}
	for i := range block {
		if v := valueAt[T](gb[4+i*size:]); math.Float64bits(float64(v)) != math.Float64bits(math.Copysign(0, -1)) {
			t.Errorf("lane %d is %v after nulls and -0.0 values, want -0", i, v)
		}
	}
}
