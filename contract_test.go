package quiver

import (
	"math"
	"os"
	"testing"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// Contract tests: each expectation below is derived by hand from the
// contract (the package documentation and ADR-013), not taken from the
// code's output, and each runs on every backend the CPU offers.

// Celsius checks that named types work and keep their type.
type Celsius float64

// ID checks a named integer type.
type ID uint32

func negZero[T constraints.Float]() T { z := math.Copysign(0, -1); return T(z) }
func posInf[T constraints.Float]() T  { f := math.Inf(1); return T(f) }

// nanWithPayload returns a NaN of T that is not the canonical one: negative,
// with a payload.
func nanWithPayload[T constraints.Float]() T {
	if num.KindOf[T]() == num.Float32 {
		return T(math.Float32frombits(0xFFC00123))
	}
	return T(math.Float64frombits(0xFFF8000000000123))
}

// bitmapOf builds a bitmap at offset 0 from booleans.
func bitmapOf(valid ...bool) []byte {
	bm := make([]byte, (len(valid)+7)/8)
	for i, v := range valid {
		if v {
			bm[i>>3] |= 1 << (i & 7)
		}
	}
	return bm
}

func wantBits[T Number](t *testing.T, what string, got, want T) {
	t.Helper()
	if testkit.Bits(got) != testkit.Bits(want) {
		t.Errorf("%s = %v (bits %#x), want %v (bits %#x)", what, got, testkit.Bits(got), want, testkit.Bits(want))
	}
}

func TestContractFloat(t *testing.T) {
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		t.Run("float64", contractFloat[float64])
		t.Run("float32", contractFloat[float32])
		t.Run("Celsius", contractFloat[Celsius])
	})
}

func contractFloat[T constraints.Float](t *testing.T) {
	nan, canon, inf, nz := nanWithPayload[T](), num.NaN[T](), posInf[T](), negZero[T]()
	maxT, lowT := num.MaxOf[T](), num.LowestOf[T]()
	allNull := Valid(bitmapOf(false, false, false), 0)

	// Sums.
	wantBits(t, "Sum(empty)", Sum([]T{}), 0)
	wantBits(t, "Sum(nil)", Sum[T](nil), 0)
	wantBits(t, "Sum(all null)", Sum([]T{1, 2, 3}, allNull), 0)
	wantBits(t, "Sum(-0) (fold starts at +0)", Sum([]T{nz}), 0)
	wantBits(t, "Sum(single)", Sum([]T{2.5}), 2.5)
	wantBits(t, "Sum(NaN only in an invalid slot)", Sum([]T{1, nan, 2}, Valid(bitmapOf(true, false, true), 0)), 3)
	wantBits(t, "Sum(NaN only in an unselected slot)", Sum([]T{1, nan, 2}, Select([]uint32{2, 0})), 3)
	wantBits(t, "Sum(+Inf, 1)", Sum([]T{inf, 1}), inf)
	if s := Sum([]T{inf, -inf}); s == s {
		t.Errorf("Sum(+Inf, -Inf) = %v, want NaN", s)
	}
	if s := Sum([]T{1, nan, 2}); s == s {
		t.Errorf("Sum with a valid NaN = %v, want NaN", s)
	}
	sub := T(math.SmallestNonzeroFloat64)
	if num.KindOf[T]() == num.Float32 {
		sub = T(math.SmallestNonzeroFloat32)
	}
	wantBits(t, "Sum(subnormals)", Sum([]T{sub, sub, sub}), 3*sub)
	wantBits(t, "Sum(selection with duplicates)", Sum([]T{1, 10, 100}, Select([]uint32{2, 2, 0})), 201)

	// Identities.
	for name, m := range map[string][]Mask{"empty": nil, "all null": {allNull}, "nothing selected": {Select(nil)}} {
		x := []T{1, 2, 3}
		if name == "empty" {
			x = nil
		}
		wantBits(t, "Min("+name+")", Min(x, m...), maxT)
		wantBits(t, "Max("+name+")", Max(x, m...), lowT)
		s := Summarize(x, m...)
		if !s.Empty() || s.Count != 0 {
			t.Errorf("Summarize(%s) = %+v, want Empty", name, s)
		}
	}

	// NaN anywhere that participates gives the canonical NaN, for min and max.
	for i := 0; i < 5; i++ {
		x := []T{3, 1, 4, 1, 5}
		x[i] = nan
		lo, hi := MinMax(x)
		wantBits(t, "Min(NaN at position)", lo, canon)
		wantBits(t, "Max(NaN at position)", hi, canon)
	}
	// ... and never when it does not participate.
	x := []T{3, nan, 4, nan}
	lo, hi := MinMax(x, Valid(bitmapOf(true, false, true, false), 0))
	wantBits(t, "Min(NaN only invalid)", lo, 3)
	wantBits(t, "Max(NaN only invalid)", hi, 4)
	lo, hi = MinMax(x, Select([]uint32{2, 0}))
	wantBits(t, "Min(NaN only unselected)", lo, 3)
	wantBits(t, "Max(NaN only unselected)", hi, 4)
	wantBits(t, "Min(signalling NaN)", Min([]T{T(math.Float64frombits(0x7FF0000000000001))}), canon)

	// ±0: the first encountered wins.
	wantBits(t, "Min(+0, -0)", Min([]T{0, nz}), 0)
	wantBits(t, "Max(+0, -0)", Max([]T{0, nz}), 0)
	wantBits(t, "Min(-0, +0)", Min([]T{nz, 0}), nz)
	wantBits(t, "Max(-0, +0)", Max([]T{nz, 0}), nz)
	wantBits(t, "Min(-0 invalid, +0)", Min([]T{nz, 0}, Valid(bitmapOf(false, true), 0)), 0)
	wantBits(t, "Min(+0,-0 selected reversed)", Min([]T{0, nz}, Select([]uint32{1, 0})), nz)
	zeros := make([]T, 100)
	zeros[57] = nz
	wantBits(t, "Min(+0 ... -0 ...)", Min(zeros), 0)
	zeros[0] = nz
	wantBits(t, "Max(-0 ... +0 ...)", Max(zeros), nz)

	// Infinities are values, not identities.
	wantBits(t, "Min(+Inf)", Min([]T{inf}), inf)
	wantBits(t, "Max(-Inf)", Max([]T{-inf}), -inf)
	lo, hi = MinMax([]T{5, -inf, inf, 7})
	wantBits(t, "Min(±Inf)", lo, -inf)
	wantBits(t, "Max(±Inf)", hi, inf)
	wantBits(t, "Min(MaxFloat, +Inf)", Min([]T{inf, maxT}), maxT)

	// Summary counts.
	s := Summarize([]T{1, nan, 2, 7}, Valid(bitmapOf(true, false, true, false), 0))
	if s.Count != 2 || s.Nulls != 2 || s.Min != 1 || s.Max != 2 {
		t.Errorf("Summarize(masked) = %+v, want {Min:1 Max:2 Count:2 Nulls:2}", s)
	}
	s = Summarize([]T{1, 2, 3}, Valid(bitmapOf(true, false, true), 0).Select([]uint32{1, 1, 0}))
	if s.Count != 1 || s.Nulls != 2 || s.Min != 1 || s.Max != 1 {
		t.Errorf("Summarize(selected, duplicated nulls) = %+v, want {Min:1 Max:1 Count:1 Nulls:2}", s)
	}
	s = Summarize([]T{nan})
	if s.Count != 1 || testkit.Bits(s.Min) != testkit.Bits(canon) {
		t.Errorf("Summarize(NaN) = %+v, want Count 1 and canonical NaN", s)
	}
}

func TestContractInt(t *testing.T) {
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		t.Run("int8", contractSigned[int8])
		t.Run("int16", contractSigned[int16])
		t.Run("int32", contractSigned[int32])
		t.Run("int64", contractSigned[int64])
		t.Run("int", contractSigned[int])
		t.Run("uint8", contractUnsigned[uint8])
		t.Run("uint16", contractUnsigned[uint16])
		t.Run("uint32", contractUnsigned[uint32])
		t.Run("uint64", contractUnsigned[uint64])
		t.Run("ID", contractUnsigned[ID])
		t.Run("checked64", contractChecked64)
	})
}

func contractSigned[T constraints.Signed](t *testing.T) {
	hi, lo := num.MaxOf[T](), num.LowestOf[T]()
	if got := SumInt([]T{}); got != 0 {
		t.Errorf("SumInt(empty) = %d", got)
	}
	if got := SumInt([]T{hi, hi, lo}); got != int64(hi)+int64(hi)+int64(lo) {
		t.Errorf("SumInt(widened) = %d, want %d", got, int64(hi)*2+int64(lo))
	}
	x := []T{lo, 5, hi, -3, 0}
	if mn, mx := MinMax(x); mn != lo || mx != hi {
		t.Errorf("MinMax = %d, %d, want %d, %d", mn, mx, lo, hi)
	}
	if mn, mx := MinMax(x, Valid(bitmapOf(false, true, false, true, true), 0)); mn != -3 || mx != 5 {
		t.Errorf("MinMax(masked) = %d, %d, want -3, 5", mn, mx)
	}
	if mn, mx := MinMax([]T{}); mn != hi || mx != lo {
		t.Errorf("MinMax(empty) = %d, %d, want identities %d, %d", mn, mx, hi, lo)
	}
	// Narrow sums cannot overflow int64 for any length a test can build,
	// so checked sums of them report no overflow.
	big := make([]T, 1000)
	for i := range big {
		big[i] = lo
	}
	wantOverflow := num.KindOf[T]() == num.Int64 // 1000 × MinInt64 does not fit
	if got := SumChecked(big); got.Overflowed != wantOverflow || got.Sum != 1000*int64(lo) {
		t.Errorf("SumChecked(1000×lowest) = %+v, want {%d %v}", got, 1000*int64(lo), wantOverflow)
	}
}

func contractUnsigned[T constraints.Unsigned](t *testing.T) {
	hi := num.MaxOf[T]()
	if got := SumUint([]T{hi, hi, 1}); got != 2*uint64(hi)+1 {
		t.Errorf("SumUint(widened) = %d, want %d", got, 2*uint64(hi)+1)
	}
	if mn, mx := MinMax([]T{7, hi, 0, 3}); mn != 0 || mx != hi {
		t.Errorf("MinMax = %d, %d", mn, mx)
	}
	if mn, mx := MinMax([]T{7, 1}, Valid(bitmapOf(false, false), 0)); mn != hi || mx != 0 {
		t.Errorf("MinMax(all null) = %d, %d, want identities %d, 0", mn, mx, hi)
	}
}

// contractChecked64 pins exact overflow at the boundaries of the 64-bit
// sum types, and wrapping of the unchecked sums.
func contractChecked64(t *testing.T) {
	const maxI, minI = math.MaxInt64, math.MinInt64
	cases := []struct {
		x    []int64
		want CheckedSum[int64]
	}{
		{[]int64{maxI}, CheckedSum[int64]{maxI, false}},
		{[]int64{maxI, 1}, CheckedSum[int64]{minI, true}},
		{[]int64{minI, -1}, CheckedSum[int64]{maxI, true}},
		{[]int64{minI}, CheckedSum[int64]{minI, false}},
		{[]int64{maxI, 1, -1}, CheckedSum[int64]{maxI, false}}, // the excursion comes back
		{[]int64{minI, minI, maxI, maxI, 1, 1}, CheckedSum[int64]{0, false}},
		{[]int64{maxI, maxI, maxI}, CheckedSum[int64]{maxI - 2, true}},
	}
	for _, c := range cases {
		if got := SumChecked(c.x); got != c.want {
			t.Errorf("SumChecked(%v) = %+v, want %+v", c.x, got, c.want)
		}
		if got := SumInt(c.x); got != c.want.Sum {
			t.Errorf("SumInt(%v) = %d, want the wrapped %d", c.x, got, c.want.Sum)
		}
	}
	// A masked-out element does not count towards overflow.
	if got := SumChecked([]int64{maxI, 1}, Valid(bitmapOf(true, false), 0)); got != (CheckedSum[int64]{maxI, false}) {
		t.Errorf("SumChecked(masked) = %+v", got)
	}
	const maxU = math.MaxUint64
	ucases := []struct {
		x    []uint64
		want CheckedSum[uint64]
	}{
		{[]uint64{maxU}, CheckedSum[uint64]{maxU, false}},
		{[]uint64{maxU, 1}, CheckedSum[uint64]{0, true}},
		{[]uint64{maxU, maxU, 2}, CheckedSum[uint64]{0, true}},
		{[]uint64{1 << 63, 1<<63 - 1}, CheckedSum[uint64]{maxU, false}},
	}
	for _, c := range ucases {
		if got := SumCheckedUint(c.x); got != c.want {
			t.Errorf("SumCheckedUint(%v) = %+v, want %+v", c.x, got, c.want)
		}
	}
	// Long inputs, so that vector kernels see the boundary in their main loop.
	long := make([]int64, 1000)
	long[0], long[999] = maxI, 1
	if got := SumChecked(long); got != (CheckedSum[int64]{minI, true}) {
		t.Errorf("SumChecked(long, MaxInt64 ... 1) = %+v", got)
	}
	long[999] = -1
	long[500] = 1
	if got := SumChecked(long); got != (CheckedSum[int64]{maxI, false}) {
		t.Errorf("SumChecked(long, excursion) = %+v", got)
	}
	ulong := make([]uint64, 1000)
	part := uint64(maxU / 1000)
	for i := range ulong {
		ulong[i] = part
	}
	ulong[3] += 1000 // the total is part*1000 + 1000 > maxU
	wrapped := part*1000 + 1000
	if got := SumCheckedUint(ulong); !got.Overflowed || got.Sum != wrapped {
		t.Errorf("SumCheckedUint(long) = %+v, want overflow with sum %d", got, wrapped)
	}
}

// TestBitmapOffsets runs every offset 0..63 with a known pattern: element
// i is valid iff i%3 != 0, and every element is 1, so every sum and count
// equals the number of valid elements, computed here independently.
func TestBitmapOffsets(t *testing.T) {
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		for off := 0; off < 64; off++ {
			for _, n := range []int{0, 1, 7, 8, 9, 63, 64, 65, 127, 128, 129, 255, 256, 257} {
				bm := make([]byte, (off+n+7)/8)
				want := 0
				for i := 0; i < n; i++ {
					if i%3 != 0 {
						p := off + i
						bm[p>>3] |= 1 << (p & 7)
						want++
					}
				}
				m := Valid(bm, off)
				f := make([]float64, n)
				u := make([]uint8, n)
				for i := range f {
					f[i], u[i] = 1, 1
				}
				if got := Sum(f, m); got != float64(want) {
					t.Fatalf("off=%d n=%d: Sum = %v, want %d", off, n, got, want)
				}
				if got := SumUint(u, m); got != uint64(want) {
					t.Fatalf("off=%d n=%d: SumUint = %d, want %d", off, n, got, want)
				}
				if got := CountValid(n, m); got != want {
					t.Fatalf("off=%d n=%d: CountValid = %d, want %d", off, n, got, want)
				}
				if s := Summarize(u, m); s.Count != want || s.Nulls != n-want {
					t.Fatalf("off=%d n=%d: Summarize = %+v, want Count %d Nulls %d", off, n, s, want, n-want)
				}
			}
		}
	})
}

func TestCountValidForms(t *testing.T) {
	bm := bitmapOf(true, false, true, true)
	if got := CountValid(4); got != 4 {
		t.Errorf("CountValid(4) = %d, want 4", got)
	}
	if got := CountValid(4, Valid(nil, 0)); got != 4 {
		t.Errorf("CountValid(nil bitmap) = %d, want 4", got)
	}
	if got := CountValid(4, Valid(bm, 0)); got != 3 {
		t.Errorf("CountValid(bitmap) = %d, want 3", got)
	}
	if got := CountValid(4, Valid(bm, 0).Select([]uint32{1, 1, 2, 3, 0})); got != 3 {
		t.Errorf("CountValid(selection) = %d, want 3", got)
	}
	if got := CountValid(4, Select([]uint32{1, 1})); got != 2 {
		t.Errorf("CountValid(selection, no bitmap) = %d, want 2", got)
	}
}

func TestBackendRegistry(t *testing.T) {
	bs := Backends()
	if len(bs) == 0 || bs[len(bs)-1].Name != "scalar" {
		t.Fatalf("Backends() = %+v: want the scalar backend last (least preferred)", bs)
	}
	act := ActiveBackend()
	for _, b := range bs {
		if b.Available {
			if b.Name != act.Name {
				t.Errorf("active backend %q, but %q is preferred and available", act.Name, b.Name)
			}
			break
		}
	}
	for _, b := range bs {
		if b.Float32.Accumulators < 1 || b.Float32.Lanes < 1 || b.Float64.Accumulators < 1 || b.Float64.Lanes < 1 {
			t.Errorf("backend %q has an invalid float policy %+v", b.Name, b)
		}
	}
	if err := SetBackend("no-such-backend"); err == nil {
		t.Error("SetBackend(no-such-backend) succeeded")
	}
}

// TestExpectedBackend checks dispatch on a known CPU: the test script sets
// QUIVER_EXPECT_BACKEND when it runs the suite on an emulated CPU whose
// features it chose (Haswell: avx2; Nehalem: generic; arm64: neon; any CPU
// with purego: scalar).
func TestExpectedBackend(t *testing.T) {
	want := os.Getenv("QUIVER_EXPECT_BACKEND")
	if want == "" {
		t.Skip("QUIVER_EXPECT_BACKEND not set: the CPU is not known to the test")
	}
	if got := ActiveBackend().Name; got != want {
		t.Fatalf("active backend %q on this CPU, want %q (backends: %+v)", got, want, Backends())
	}
}
