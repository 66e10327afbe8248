package quiver

import (
	"bytes"
	"encoding"
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// Tests of the state encoding (ADR-107): round trips on every backend,
// wrong types, hostile bytes, allocation bounds. The golden files and the
// meaning of a float SumState across layouts are in
// encoding_golden_test.go; the fuzz target is in encoding_fuzz_test.go.

// encGen is a deterministic generator (splitmix64) of the test data: its
// output depends on nothing but the seed, on every platform and Go
// version, so the golden files can be regenerated from the same seeds.
type encGen struct {
	s        uint64
	dense    bool // batches without a Mask
	specials bool // draw NaN, infinities, zeros and extremes now and then
}

func (g *encGen) next() uint64 {
	g.s += 0x9E3779B97F4A7C15
	z := g.s
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

func (g *encGen) intn(n int) int { return int(g.next() % uint64(n)) }

// values draws n values of T: floats of many magnitudes and both signs,
// integers of every width; with specials, one in 16 is a special value.
func encValues[T Number](g *encGen, n int) []T {
	x := make([]T, n)
	sp := testkit.Specials[T]()
	for i := range x {
		r := g.next()
		switch {
		case g.specials && r%16 == 0:
			x[i] = sp[(r>>8)%uint64(len(sp))]
		case num.IsFloat[T]():
			m := float64(int64(r)>>11) / (1 << 52) // in [-1024, 1024)
			x[i] = T(math.Ldexp(m, int(r>>3&63)-40))
		default:
			x[i] = T(r >> (r & 7 * 8)) // every width, small and large
		}
	}
	return x
}

// encBatch draws a batch of up to 300 values and a Mask: none, a bitmap
// at an odd offset, a selection, or both.
func encBatch[T Number](g *encGen) ([]T, []Mask) {
	n := g.intn(300)
	x := encValues[T](g, n)
	if g.dense || n == 0 {
		return x, nil
	}
	var m []Mask
	switch g.intn(4) {
	case 1, 3:
		off := g.intn(13)
		bits := make([]byte, (off+n+7)/8)
		for i := range bits {
			bits[i] = byte(g.next() | g.next()) // about 3/4 valid
		}
		m = []Mask{Valid(bits, off)}
	}
	if g.intn(4) == 2 {
		sel := make([]uint32, g.intn(n+1))
		for i := range sel {
			sel[i] = uint32(g.intn(n))
		}
		if m == nil {
			m = []Mask{Select(sel)}
		} else {
			m[0] = m[0].Select(sel)
		}
	}
	return x, m
}

func encIDs(g *encGen, n, groups int) []uint32 {
	ids := make([]uint32, n)
	for i := range ids {
		ids[i] = uint32(g.intn(groups))
	}
	return ids
}

// encState is a state under test: its encoding methods, and feeding,
// merging and a rendering of every result (bits for floats).
type encState interface {
	encoding.BinaryMarshaler
	encoding.BinaryAppender
	encoding.BinaryUnmarshaler
	feed(g *encGen)
	merge(o encState)
	results() string
}

type (
	eSum[T constraints.Float]      struct{ SumState[T] }
	eRepro[T constraints.Float]    struct{ SumReproducibleState[T] }
	eInt[T constraints.Signed]     struct{ IntSumState[T] }
	eUint[T constraints.Unsigned]  struct{ UintSumState[T] }
	eSummary[T Number]             struct{ SummaryState[T] }
	eCount                         struct{ CountState }
	eGSum[T constraints.Float]     struct{ GroupSumState[T] }
	eGRepro[T constraints.Float]   struct{ GroupSumReproducibleState[T] }
	eGInt[T constraints.Signed]    struct{ GroupIntSumState[T] }
	eGUint[T constraints.Unsigned] struct{ GroupUintSumState[T] }
	eGSummary[T Number]            struct{ GroupSummaryState[T] }
	eGCount                        struct{ GroupCountState }
	eGMin[T Number]                struct{ GroupMinState[T] }
	eGMax[T Number]                struct{ GroupMaxState[T] }
)

func (w *eSum[T]) feed(g *encGen)     { x, m := encBatch[T](g); w.Add(x, m...) }
func (w *eRepro[T]) feed(g *encGen)   { x, m := encBatch[T](g); w.Add(x, m...) }
func (w *eInt[T]) feed(g *encGen)     { x, m := encBatch[T](g); w.Add(x, m...) }
func (w *eUint[T]) feed(g *encGen)    { x, m := encBatch[T](g); w.Add(x, m...) }
func (w *eSummary[T]) feed(g *encGen) { x, m := encBatch[T](g); w.Add(x, m...) }
func (w *eCount) feed(g *encGen)      { x, m := encBatch[uint8](g); w.Add(len(x), m...) }

// groupFeed grows a grouped state now and then and feeds it a batch.
// The draws do not depend on the state, so that the same generator feeds
// the same rows to any state.
func groupFeed[T Number](g *encGen, grow func(int), add func([]T, []uint32, ...Mask)) {
	groups := 3 + g.intn(8)
	grow(groups)
	x, m := encBatch[T](g)
	add(x, encIDs(g, len(x), groups), m...)
}

func (w *eGSum[T]) feed(g *encGen)     { groupFeed(g, w.Grow, w.Add) }
func (w *eGRepro[T]) feed(g *encGen)   { groupFeed(g, w.Grow, w.Add) }
func (w *eGInt[T]) feed(g *encGen)     { groupFeed(g, w.Grow, w.Add) }
func (w *eGUint[T]) feed(g *encGen)    { groupFeed(g, w.Grow, w.Add) }
func (w *eGSummary[T]) feed(g *encGen) { groupFeed(g, w.Grow, w.Add) }
func (w *eGMin[T]) feed(g *encGen)     { groupFeed(g, w.Grow, w.Add) }
func (w *eGMax[T]) feed(g *encGen)     { groupFeed(g, w.Grow, w.Add) }
func (w *eGCount) feed(g *encGen) {
	groupFeed(g, w.Grow, func(x []uint8, ids []uint32, m ...Mask) { w.Add(ids, m...) })
}

func (w *eSum[T]) merge(o encState)      { w.Merge(&o.(*eSum[T]).SumState) }
func (w *eRepro[T]) merge(o encState)    { w.Merge(&o.(*eRepro[T]).SumReproducibleState) }
func (w *eInt[T]) merge(o encState)      { w.Merge(&o.(*eInt[T]).IntSumState) }
func (w *eUint[T]) merge(o encState)     { w.Merge(&o.(*eUint[T]).UintSumState) }
func (w *eSummary[T]) merge(o encState)  { w.Merge(&o.(*eSummary[T]).SummaryState) }
func (w *eCount) merge(o encState)       { w.Merge(&o.(*eCount).CountState) }
func (w *eGSum[T]) merge(o encState)     { w.Merge(&o.(*eGSum[T]).GroupSumState) }
func (w *eGRepro[T]) merge(o encState)   { w.Merge(&o.(*eGRepro[T]).GroupSumReproducibleState) }
func (w *eGInt[T]) merge(o encState)     { w.Merge(&o.(*eGInt[T]).GroupIntSumState) }
func (w *eGUint[T]) merge(o encState)    { w.Merge(&o.(*eGUint[T]).GroupUintSumState) }
func (w *eGSummary[T]) merge(o encState) { w.Merge(&o.(*eGSummary[T]).GroupSummaryState) }
func (w *eGCount) merge(o encState)      { w.Merge(&o.(*eGCount).GroupCountState) }
func (w *eGMin[T]) merge(o encState)     { w.Merge(&o.(*eGMin[T]).GroupMinState) }
func (w *eGMax[T]) merge(o encState)     { w.Merge(&o.(*eGMax[T]).GroupMaxState) }

func bitsOf[T Number](v []T) string {
	var sb strings.Builder
	for _, e := range v {
		fmt.Fprintf(&sb, "%x,", testkit.Bits(e))
	}
	return sb.String()
}

func summaryBits[T Number](s []Summary[T]) string {
	var sb strings.Builder
	for _, e := range s {
		fmt.Fprintf(&sb, "%x %x %d %d,", testkit.Bits(e.Min), testkit.Bits(e.Max), e.Count, e.Nulls)
	}
	return sb.String()
}

func (w *eSum[T]) results() string   { return bitsOf([]T{w.Sum()}) }
func (w *eRepro[T]) results() string { return bitsOf([]T{w.Sum()}) }
func (w *eInt[T]) results() string {
	return fmt.Sprint(w.Sum(), w.Checked(), w.Exact())
}
func (w *eUint[T]) results() string {
	return fmt.Sprint(w.Sum(), w.Checked(), w.Exact())
}
func (w *eSummary[T]) results() string {
	return summaryBits([]Summary[T]{w.Summary()}) + bitsOf([]T{w.Min(), w.Max()})
}
func (w *eCount) results() string     { return fmt.Sprint(w.Count()) }
func (w *eGSum[T]) results() string   { return bitsOf(w.Sums(nil)) }
func (w *eGRepro[T]) results() string { return bitsOf(w.Sums(nil)) }
func (w *eGInt[T]) results() string {
	s := fmt.Sprint(w.Sums(nil), w.CheckedSums(nil))
	for g := range w.Groups() {
		s += " " + w.Exact(g).String()
	}
	return s
}
func (w *eGUint[T]) results() string {
	s := fmt.Sprint(w.Sums(nil), w.CheckedSums(nil))
	for g := range w.Groups() {
		s += " " + w.Exact(g).String()
	}
	return s
}
func (w *eGSummary[T]) results() string {
	return summaryBits(w.Summaries(nil)) + bitsOf(w.Mins(nil)) + bitsOf(w.Maxs(nil))
}
func (w *eGCount) results() string { return fmt.Sprint(w.Groups(), w.Counts(nil)) }

// The results of a min-only or max-only state, and of its continuation
// by an infinity in every group, which tells an empty float group from
// one whose extreme is the identity (±MaxFloat).
func (w *eGMin[T]) results() string {
	c := w.GroupMinState
	c.acc = slices.Clone(c.acc)
	c.Add(extremeRow[T](len(c.acc), 1))
	return fmt.Sprint(w.Groups(), bitsOf(w.Mins(nil)), bitsOf(c.Mins(nil)))
}
func (w *eGMax[T]) results() string {
	c := w.GroupMaxState
	c.acc = slices.Clone(c.acc)
	c.Add(extremeRow[T](len(c.acc), -1))
	return fmt.Sprint(w.Groups(), bitsOf(w.Maxs(nil)), bitsOf(c.Maxs(nil)))
}

// extremeRow is a row of sign·Inf in each of n groups (the largest or
// lowest value for integer types).
func extremeRow[T Number](n, sign int) ([]T, []uint32) {
	x := make([]T, n)
	ids := make([]uint32, n)
	v := num.MaxOf[T]()
	if sign < 0 {
		v = num.LowestOf[T]()
	}
	if num.IsFloat[T]() {
		v = T(math.Inf(sign))
	}
	for g := range x {
		x[g], ids[g] = v, uint32(g)
	}
	return x, ids
}

// encCase is one state type under test.
type encCase struct {
	name string // also the golden file's stem
	new  func() encState
}

var encCases = []encCase{
	{"sum_float32", func() encState { return new(eSum[float32]) }},
	{"sum_float64", func() encState { return new(eSum[float64]) }},
	{"repro_float32", func() encState { return new(eRepro[float32]) }},
	{"repro_float64", func() encState { return new(eRepro[float64]) }},
	{"intsum_int8", func() encState { return new(eInt[int8]) }},
	{"intsum_int64", func() encState { return new(eInt[int64]) }},
	{"uintsum_uint16", func() encState { return new(eUint[uint16]) }},
	{"uintsum_uint64", func() encState { return new(eUint[uint64]) }},
	{"summary_float32", func() encState { return new(eSummary[float32]) }},
	{"summary_float64", func() encState { return new(eSummary[float64]) }},
	{"summary_int32", func() encState { return new(eSummary[int32]) }},
	{"summary_uint8", func() encState { return new(eSummary[uint8]) }},
	{"count", func() encState { return new(eCount) }},
	{"groupsum_float32", func() encState { return new(eGSum[float32]) }},
	{"groupsum_float64", func() encState { return new(eGSum[float64]) }},
	{"grouprepro_float32", func() encState { return new(eGRepro[float32]) }},
	{"grouprepro_float64", func() encState { return new(eGRepro[float64]) }},
	{"groupintsum_int32", func() encState { return new(eGInt[int32]) }},
	{"groupintsum_int64", func() encState { return new(eGInt[int64]) }},
	{"groupuintsum_uint8", func() encState { return new(eGUint[uint8]) }},
	{"groupuintsum_uint64", func() encState { return new(eGUint[uint64]) }},
	{"groupsummary_float64", func() encState { return new(eGSummary[float64]) }},
	{"groupsummary_int16", func() encState { return new(eGSummary[int16]) }},
	{"groupcount", func() encState { return new(eGCount) }},
	{"groupmin_float64", func() encState { return new(eGMin[float64]) }},
	{"groupmin_float32", func() encState { return new(eGMin[float32]) }},
	{"groupmin_int64", func() encState { return new(eGMin[int64]) }},
	{"groupmax_float64", func() encState { return new(eGMax[float64]) }},
	{"groupmax_uint8", func() encState { return new(eGMax[uint8]) }},
}

// encFed returns a state of c fed k batches from a generator of seed.
func encFed(c encCase, seed uint64, k int, specials bool) encState {
	s := c.new()
	g := &encGen{s: seed, specials: specials}
	for range k {
		s.feed(g)
	}
	return s
}

func marshal(t *testing.T, s encState) []byte {
	t.Helper()
	b, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestEncodingRoundTrip: on every backend, for every state type and many
// random histories, the decoded state has the encoded one's results, its
// encoding, and the same results after the same further Adds and Merges;
// AppendBinary appends the same bytes after a prefix; decoding replaces a
// state that held something else.
func TestEncodingRoundTrip(t *testing.T) {
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		for _, c := range encCases {
			t.Run(c.name, func(t *testing.T) {
				for seed := range uint64(40) {
					specials := seed%3 == 0
					a := encFed(c, seed, int(seed%5), specials)
					enc := marshal(t, a)
					prefix := []byte("prefix")
					app, err := a.AppendBinary(prefix[:len(prefix):len(prefix)])
					if err != nil || !bytes.Equal(app[:len(prefix)], prefix) || !bytes.Equal(app[len(prefix):], enc) {
						t.Fatalf("seed %d: AppendBinary after a prefix = %x, %v; MarshalBinary = %x", seed, app, err, enc)
					}
					b := encFed(c, seed+1000, 2, true) // something else first
					if err := b.UnmarshalBinary(enc); err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
					if ra, rb := a.results(), b.results(); ra != rb {
						t.Fatalf("seed %d: decoded results\n%s\nwant\n%s", seed, rb, ra)
					}
					if enc2 := marshal(t, b); !bytes.Equal(enc, enc2) {
						t.Fatalf("seed %d: re-encoding\n%x\nwant\n%x", seed, enc2, enc)
					}
					// The same further history on both.
					ga, gb := &encGen{s: seed + 77, specials: specials}, &encGen{s: seed + 77, specials: specials}
					other := encFed(c, seed+500, 2, specials)
					a.feed(ga)
					b.feed(gb)
					a.merge(other)
					b.merge(other)
					a.feed(ga)
					b.feed(gb)
					if ra, rb := a.results(), b.results(); ra != rb {
						t.Fatalf("seed %d: after Add and Merge, decoded state gives\n%s\nwant\n%s", seed, rb, ra)
					}
					if ea, eb := marshal(t, a), marshal(t, b); !bytes.Equal(ea, eb) {
						t.Fatalf("seed %d: after Add and Merge, encodings differ\n%x\n%x", seed, eb, ea)
					}
					// A decoded state merged into another is the state merged.
					x, y := encFed(c, seed+9, 2, specials), encFed(c, seed+9, 2, specials)
					x.merge(a)
					y.merge(b)
					if rx, ry := x.results(), y.results(); rx != ry {
						t.Fatalf("seed %d: merging the decoded state gives\n%s\nwant\n%s", seed, ry, rx)
					}
				}
			})
		}
	})
}

// TestEncodingWrongType: every encoding is rejected, with an error that
// names both types, by every other state type and element type.
func TestEncodingWrongType(t *testing.T) {
	for _, c := range encCases {
		enc := marshal(t, encFed(c, 1, 2, false))
		for _, d := range encCases {
			if d.name == c.name {
				continue
			}
			s := d.new()
			err := s.UnmarshalBinary(enc)
			if err == nil || !strings.HasPrefix(err.Error(), "quiver: decoding ") || !strings.Contains(err.Error(), "the encoding holds a ") {
				t.Errorf("%s decoded as %s: error %v", c.name, d.name, err)
			}
		}
	}
	var s SumState[float64]
	err := s.UnmarshalBinary(marshal(t, encFed(encCases[0], 1, 2, false)))
	if want := "quiver: decoding SumState[float64]: the encoding holds a SumState[float32]"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

// encUnchanged decodes bad into a fed state of c and checks that it fails
// with a "quiver: " error and leaves the state as it was.
func encUnchanged(t *testing.T, c encCase, bad []byte, what string) error {
	t.Helper()
	s := encFed(c, 3, 3, false)
	before, res := marshal(t, s), s.results()
	err := s.UnmarshalBinary(bad)
	if err == nil {
		t.Fatalf("%s: %s decoded without an error", c.name, what)
	}
	if !strings.HasPrefix(err.Error(), "quiver: decoding ") {
		t.Errorf("%s: %s: error %q does not start with \"quiver: decoding \"", c.name, what, err)
	}
	if after := marshal(t, s); !bytes.Equal(before, after) || s.results() != res {
		t.Fatalf("%s: %s: a failed decode changed the state", c.name, what)
	}
	return err
}

// TestEncodingHostile: truncations at every length, trailing bytes, a
// bad magic, a later version, and every flipped bit of a few encodings
// either decode or fail cleanly, leaving the receiver unchanged on
// failure; group counts beyond the input fail before allocating.
func TestEncodingHostile(t *testing.T) {
	for _, c := range encCases {
		enc := marshal(t, encFed(c, 5, 3, true))
		for n := range len(enc) {
			encUnchanged(t, c, enc[:n], fmt.Sprintf("the first %d of %d bytes", n, len(enc)))
		}
		encUnchanged(t, c, append(enc[:len(enc):len(enc)], 0), "a trailing byte")
		bad := bytes.Clone(enc)
		bad[0] = 'X'
		encUnchanged(t, c, bad, "a bad magic")
		bad = bytes.Clone(enc)
		bad[2] = encVersion + 1
		if err := encUnchanged(t, c, bad, "a later version"); !strings.Contains(err.Error(), "version 2") {
			t.Errorf("%s: a later version: %v", c.name, err)
		}
		for i := encHeaderLen; i < len(enc); i++ {
			for bit := range 8 {
				bad := bytes.Clone(enc)
				bad[i] ^= 1 << bit
				s := c.new()
				if s.UnmarshalBinary(bad) == nil {
					marshal(t, s) // a state that decodes encodes and reports
					s.results()
				}
			}
		}
		if strings.HasPrefix(c.name, "group") {
			for _, groups := range []uint64{1 << 60, uint64(len(enc))} { // 2^32 and 2^32+1: TestEncodingGroupCountBound
				bad := bytes.Clone(enc)
				binary.LittleEndian.PutUint64(bad[encHeaderLen:], groups)
				err := encUnchanged(t, c, bad, fmt.Sprintf("a group count of %d", groups))
				if !strings.Contains(err.Error(), "group count") && groups != uint64(len(enc)) {
					t.Errorf("%s: %d groups: error %q does not name the group count", c.name, groups, err)
				}
			}
		}
	}
}

// TestEncodingAllocations: decoding allocates at most a small multiple
// of the input's length (plus the fixed buffer of a reproducible grouped
// state): for the largest group counts the input can claim, and for
// valid states; AppendBinary into a buffer with room does not allocate.
func TestEncodingAllocations(t *testing.T) {
	if testing.Short() && num.KindOf[int]() == num.Int32 {
		t.Skip("memory statistics are slow on 32-bit emulators")
	}
	for _, c := range encCases {
		enc := marshal(t, encFed(c, 8, 4, false))
		limit := uint64(16*len(enc) + 1024)
		if strings.HasPrefix(c.name, "grouprepro") {
			limit = uint64(256*len(enc) + 64<<10) // ~460 bytes per group of at least 2 bytes, and Grow's buffer
		}
		if got := decodeAllocBytes(c, enc); got > limit {
			t.Errorf("%s: decoding %d bytes allocated %d bytes, more than %d", c.name, len(enc), got, limit)
		}
		buf := make([]byte, 0, 2*len(enc)+64)
		s := encFed(c, 8, 4, false)
		if n := testing.AllocsPerRun(20, func() { s.AppendBinary(buf[:0]) }); n != 0 {
			t.Errorf("%s: AppendBinary into a buffer with room allocated %v times", c.name, n)
		}
	}
	// Hostile group counts: 2^32 groups of a GroupCountState claimed by
	// a short input allocate nothing.
	for _, c := range encCases {
		if !strings.HasPrefix(c.name, "group") {
			continue
		}
		enc := marshal(t, encFed(c, 8, 1, false))
		binary.LittleEndian.PutUint64(enc[encHeaderLen:], 1<<32)
		if got := decodeAllocBytes(c, enc); got > 4096 {
			t.Errorf("%s: a claim of 2^32 groups in %d bytes allocated %d bytes", c.name, len(enc), got)
		}
	}
}

// decodeAllocBytes is the number of bytes one decode of enc into a new
// state of c allocates (the smallest of three tries, against noise).
func decodeAllocBytes(c encCase, enc []byte) uint64 {
	best := uint64(math.MaxUint64)
	for range 3 {
		s := c.new()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		_ = s.UnmarshalBinary(enc)
		runtime.ReadMemStats(&m1)
		best = min(best, m1.TotalAlloc-m0.TotalAlloc)
	}
	return best
}

// TestEncodingGroupCountBound pins the decoders' two checks of a group
// count, made before anything is allocated: a count above 2^32 is
// refused as such, and one of at most 2^32 exactly when the rest of the
// input cannot hold that many groups of the state's least size per group.
func TestEncodingGroupCountBound(t *testing.T) {
	for _, c := range encCases {
		if !strings.HasPrefix(c.name, "group") {
			continue
		}
		enc := marshal(t, encFed(c, 5, 3, true))
		withCount := func(n uint64) []byte {
			bad := bytes.Clone(enc)
			binary.LittleEndian.PutUint64(bad[encHeaderLen:], n)
			return bad
		}
		err := encUnchanged(t, c, withCount(1<<32+1), "2^32+1 groups")
		if !strings.HasSuffix(err.Error(), ": group count 4294967297 is above 2^32") {
			t.Errorf("%s: 2^32+1 groups: error %q", c.name, err)
		}
		err = encUnchanged(t, c, withCount(1<<32), "2^32 groups")
		var per, left int
		msg := err.Error()
		if i := strings.Index(msg, "group count 4294967296 needs at least "); i < 0 {
			t.Errorf("%s: 2^32 groups, within the bound: error %q does not say how many bytes it needs", c.name, err)
			continue
		} else if _, err := fmt.Sscanf(msg[i:], "group count 4294967296 needs at least %d bytes per group, %d bytes are left", &per, &left); err != nil || per < 1 {
			t.Errorf("%s: 2^32 groups: %q: %v", c.name, msg, err)
			continue
		}
		fits := left / per
		err = encUnchanged(t, c, withCount(uint64(fits+1)), "one group more than the bytes hold")
		if want := fmt.Sprintf(": group count %d needs at least %d bytes per group, %d bytes are left", fits+1, per, left); !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%s: %d groups in %d bytes: error %q, want one ending in %q", c.name, fits+1, left, err, want)
		}
		s := c.new()
		if err := s.UnmarshalBinary(withCount(uint64(fits))); err != nil && strings.Contains(err.Error(), "needs at least") {
			t.Errorf("%s: %d groups of at least %d bytes in %d bytes refused: %v", c.name, fits, per, left, err)
		}
	}
}
