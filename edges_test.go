package quiver

// Edge cases of the contract that no other test pinned: each fails if
// the check or rule it names is dropped or moved by one.

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/big"
	"slices"
	"testing"

	"github.com/quiverlabs/quiver/internal/kernel"
)

// A remapping longer than the merged state's group count.
func TestEdgeMergeMappedLongRemap(t *testing.T) {
	var s, o GroupCountState
	s.Grow(3)
	o.Grow(2)
	groupPanics(t, "MergeMapped with 3 entries for 2 groups", func() { s.MergeMapped(&o, []uint32{0, 1, 2}) }, "a remapping of 3 groups for a state of 2 groups")
}

// Reset after a Merge or MergeMapped into a fresh state.
func TestEdgeResetAfterMerge(t *testing.T) {
	var o GroupIntSumState[int64]
	o.Grow(2)
	o.Add([]int64{5, 7}, []uint32{0, 1})
	var a, b GroupIntSumState[int64]
	a.Grow(2)
	a.MergeMapped(&o, []uint32{1, 0})
	a.Reset()
	b.Merge(&o)
	b.Reset()
	for g := range 2 {
		if a.Sum(g) != 0 || b.Sum(g) != 0 {
			t.Errorf("group %d after Reset: MergeMapped %d, Merge %d; want 0", g, a.Sum(g), b.Sum(g))
		}
	}
}

// A dense batch of negative values whose out-of-range id is past
// the first 2^16-row chunk: the panic leaves the sums as they were.
func TestEdgeUnaddNegative(t *testing.T) {
	var s GroupIntSumState[int64]
	s.Grow(2)
	n := 1<<16 + 10
	x := make([]int64, n)
	ids := make([]uint32, n)
	for i := range x {
		x[i] = -3
		ids[i] = uint32(i & 1)
	}
	ids[n-1] = 2 // out of range
	groupPanics(t, "Add with id 2 of 2 groups", func() { s.Add(x, ids) }, "group id 2 at row 65545")
	for g := range 2 {
		if c := s.Checked(g); c.Sum != 0 || c.Overflowed {
			t.Errorf("group %d after the panic: %+v, want 0", g, c)
		}
	}
}

func edgeHeader(k encKind, e uint8) []byte { return appendHeader(nil, k, e, 0) }

func le64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

func edgeRepro(v ...float64) []byte {
	var s SumReproducibleState[float64]
	s.Add(v)
	enc, _ := s.MarshalBinary()
	return enc
}

func edgeReproErr(t *testing.T, name string, enc []byte) {
	t.Helper()
	var u SumReproducibleState[float64]
	if err := u.UnmarshalBinary(enc); err == nil {
		re, _ := u.MarshalBinary()
		t.Errorf("%s: decoded %x, which encodes as %x", name, enc, re)
	}
}

// Non-canonical reproducible sums are rejected.
func TestEdgeReproCanonical(t *testing.T) {
	// The body: flags, N (digits), L (the lowest digit's index), N digits of 5 bytes.
	const flags, digits, lowest = encHeaderLen, encHeaderLen + 1, encHeaderLen + 2
	one := edgeRepro(1)
	if len(one) != encHeaderLen+3+5 || one[digits] != 1 {
		t.Fatalf("the encoding of 1: %x", one)
	}
	var u SumReproducibleState[float64]
	if err := u.UnmarshalBinary(one); err != nil {
		t.Fatal(err)
	}
	b := bytes.Clone(one)
	b[flags] |= 0x80
	edgeReproErr(t, "flag bit 7", b)
	b = bytes.Clone(one)
	b[lowest] = kernel.ReproDigitLimit // digit 55, one digit
	edgeReproErr(t, "lowest digit 55", b)
	edgeReproErr(t, "negative zero", slices.Concat(edgeHeader(encSumReproducible, elemCode[float64]()), []byte{reproNeg, 0}))
	b = slices.Concat(bytes.Clone(one), make([]byte, 5))
	b[digits] = 2
	edgeReproErr(t, "a zero top digit", b)
	b = slices.Concat(one[:lowest+1], make([]byte, 5), one[lowest+1:])
	b[digits], b[lowest] = 2, one[lowest]-1
	edgeReproErr(t, "a zero bottom digit", b)
	b = bytes.Clone(one)
	b[flags] &^= reproNonNegZero
	edgeReproErr(t, "no non-zero value flag", b)
}

// Unsigned sums with the top word -1.
func TestEdgeUintNegativeMinusOne(t *testing.T) {
	neg := slices.Concat(le64(0), le64(^uint64(0)))
	var u UintSumState[uint64]
	if err := u.UnmarshalBinary(slices.Concat(edgeHeader(encUintSum, elemCode[uint64]()), neg)); err == nil {
		t.Errorf("UintSumState with Hi -1: decoded, Checked %+v", u.Checked())
	}
	var g GroupUintSumState[uint64]
	if err := g.UnmarshalBinary(slices.Concat(edgeHeader(encGroupUintSum, elemCode[uint64]()), le64(1), neg)); err == nil {
		t.Errorf("GroupUintSumState with Hi -1: decoded, Checked %+v", g.Checked(0))
	}
}

// A NaN flag with a count of 0.
func TestEdgeSummaryNaNCountZero(t *testing.T) {
	var s SummaryState[float64]
	if err := s.UnmarshalBinary(slices.Concat(edgeHeader(encSummary, elemCode[float64]()), []byte{summaryNaN}, le64(0), le64(0))); err == nil {
		t.Errorf("a NaN with a count of 0: decoded, Summary %+v", s.Summary())
	}
}

func f64bytes(v float64) []byte { return le64(math.Float64bits(v)) }
func i64bytes(v int64) []byte   { return le64(uint64(v)) }

// Group summary cells that disagree with their flags.
func TestEdgeGroupSummaryFlags(t *testing.T) {
	var f GroupSummaryState[float64]
	enc := slices.Concat(edgeHeader(encGroupSummary, elemCode[float64]()), le64(1), []byte{0}, le64(1), le64(0), f64bytes(1), f64bytes(2))
	if err := f.UnmarshalBinary(enc); err == nil {
		t.Errorf("a count of 1 without the values flag: decoded, %+v", f.Summary(0))
	}
	var i GroupSummaryState[int64]
	enc = slices.Concat(edgeHeader(encGroupSummary, elemCode[int64]()), le64(1), []byte{cellValues | cellNaN}, le64(1), le64(0), i64bytes(5), i64bytes(3))
	if err := i.UnmarshalBinary(enc); err == nil {
		t.Errorf("an int64 cell with a NaN flag and min 5 > max 3: decoded, %+v", i.Summary(0))
	}
}

// A group whose only values are NaN round-trips.
func TestEdgeGroupSummaryOnlyNaN(t *testing.T) {
	var s GroupSummaryState[float64]
	s.Grow(2)
	s.Add([]float64{math.NaN(), 1}, []uint32{0, 1})
	enc, _ := s.MarshalBinary()
	var u GroupSummaryState[float64]
	if err := u.UnmarshalBinary(enc); err != nil {
		t.Errorf("decoding a group of NaN only: %v", err)
	}
}

// A group count of 2^63.
func TestEdgeGroupCountTwo63(t *testing.T) {
	var s GroupCountState
	if err := s.UnmarshalBinary(slices.Concat(edgeHeader(encGroupCount, 0), le64(1), le64(1<<63))); err == nil {
		t.Errorf("a count of 2^63: decoded, Count(0) = %d", s.Count(0))
	}
}

// More than 2^20 subnormal values (each deposited on its own):
// the digits are normalised on the way, and the sum is exact.
func TestEdgeReproManySubnormals(t *testing.T) {
	if testing.Short() {
		t.Skip("9M values: too slow under emulation")
	}
	check := func(name string, v float64, n int) {
		x := make([]float64, n)
		for i := range x {
			x[i] = v
		}
		mant := new(big.Int).Mul(big.NewInt(int64(n)), big.NewInt(int64(math.Float64bits(math.Abs(v)))))
		want, _ := new(big.Float).SetMantExp(new(big.Float).SetInt(mant), -1074).Float64()
		if v < 0 {
			want = -want
		}
		var s SumReproducibleState[float64]
		s.Add(x)
		if got := s.Sum(); got != want {
			t.Errorf("%s: SumReproducibleState of %d × %g = %g, want %g", name, n, v, got, want)
		}
		if got := SumReproducible(x); got != want {
			t.Errorf("%s: SumReproducible of %d × %g = %g, want %g", name, n, v, got, want)
		}
	}
	check("negative", -math.SmallestNonzeroFloat64, 1<<20+100)
	check("full digits", math.Float64frombits(1<<40-1), 1<<23+1<<20)
}

// A NaN under the value flag of a grouped minimum.
func TestEdgeGroupMinNaNUnderValueFlag(t *testing.T) {
	var s GroupMinState[float64]
	enc := slices.Concat(edgeHeader(encGroupMin, elemCode[float64]()), le64(1), []byte{extValue}, f64bytes(math.NaN()))
	if err := s.UnmarshalBinary(enc); err == nil {
		t.Errorf("a NaN under flag 1: decoded, Min(0) = %v", s.Min(0))
	}
}
