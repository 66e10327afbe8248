package quiver

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/oracle"
	"github.com/quiverlabs/quiver/internal/ref"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// forEachBackend runs f once per backend that this CPU can run, with that
// backend active, and restores the default afterwards. Backends the CPU
// lacks are logged, so a run says what it did not cover.
//
// The race detector's short run (scripts/test.sh) runs f on the
// dispatched backend and the generic one only: it looks for data races
// in the Go code above the kernels and for misused pointers (checkptr) in
// the Go loops, which those two reach, and every backend's results are
// checked in the runs without the detector. With each backend it took
// the longest of the suite's groups.
func forEachBackend(t *testing.T, f func(t *testing.T, b BackendInfo)) {
	t.Helper()
	prev := ActiveBackend().Name
	t.Cleanup(func() {
		if err := SetBackend(prev); err != nil {
			t.Fatal(err)
		}
	})
	for _, b := range Backends() {
		if !b.Available {
			t.Logf("backend %s: not available on this CPU, not tested", b.Name)
			continue
		}
		if raceEnabled && testing.Short() && b.Name != prev && b.Name != "generic" {
			t.Logf("backend %s: not run under the race detector with -short", b.Name)
			continue
		}
		if err := SetBackend(b.Name); err != nil {
			t.Fatal(err)
		}
		t.Run(b.Name, func(t *testing.T) { f(t, b) })
	}
}

// diffCase is one input shape of the differential suite.
type diffCase struct {
	n, off   int
	nullFrac float64 // < 0: no bitmap
	style    testkit.Style
}

func (c diffCase) String() string {
	return fmt.Sprintf("n=%d off=%d nulls=%v style=%d", c.n, c.off, c.nullFrac, c.style)
}

// diffCases covers every length up to 300 (so every tail length of every
// block size up to 256 elements), lengths around larger block multiples,
// bitmap offsets 0..63 and null fractions from none to all.
func diffCases(short bool) []diffCase {
	var lengths []int
	for n := 0; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	for _, b := range []int{512, 1024, 4096} {
		lengths = append(lengths, b-1, b, b+1, b+63)
	}
	fracs := []float64{-1, 0, 0.1, 0.5, 1}
	styles := []testkit.Style{testkit.Plain, testkit.Mixed, testkit.Small, testkit.Zeros}
	var cases []diffCase
	for i, n := range lengths {
		if short && i%7 != 0 && n > 70 {
			continue
		}
		for j, f := range fracs {
			cases = append(cases, diffCase{n: n, off: (i*7 + j*13) % 64, nullFrac: f, style: styles[(i+j)%len(styles)]})
		}
	}
	return cases
}

func (c diffCase) inputs(r *rand.Rand) (bits []byte, off int) {
	if c.nullFrac < 0 {
		return nil, 0
	}
	return testkit.Bitmap(r, c.n, c.off, c.nullFrac), c.off
}

func policyOf(b BackendInfo, k num.Kind) oracle.Policy {
	if k == num.Float32 {
		return oracle.Policy{A: b.Float32.Accumulators, W: b.Float32.Lanes}
	}
	return oracle.Policy{A: b.Float64.Accumulators, W: b.Float64.Lanes}
}

// sameFloat reports whether two float results are identical: the same bits,
// or both NaN (NaN sums compare as a class: the payload depends on which
// operand the hardware saw first).
func sameFloat[T constraints.Float](a, b T) bool {
	return testkit.Bits(a) == testkit.Bits(b) || (a != a && b != b)
}

func TestDifferential(t *testing.T) {
	cases := diffCases(testing.Short())
	forEachBackend(t, func(t *testing.T, b BackendInfo) {
		t.Run("float32", func(t *testing.T) { diffFloat[float32](t, b, cases) })
		t.Run("float64", func(t *testing.T) { diffFloat[float64](t, b, cases) })
		t.Run("int8", func(t *testing.T) { diffSigned[int8](t, cases) })
		t.Run("int16", func(t *testing.T) { diffSigned[int16](t, cases) })
		t.Run("int32", func(t *testing.T) { diffSigned[int32](t, cases) })
		t.Run("int64", func(t *testing.T) { diffSigned[int64](t, cases) })
		t.Run("int", func(t *testing.T) { diffSigned[int](t, cases) })
		t.Run("uint8", func(t *testing.T) { diffUnsigned[uint8](t, cases) })
		t.Run("uint16", func(t *testing.T) { diffUnsigned[uint16](t, cases) })
		t.Run("uint32", func(t *testing.T) { diffUnsigned[uint32](t, cases) })
		t.Run("uint64", func(t *testing.T) { diffUnsigned[uint64](t, cases) })
		t.Run("uint", func(t *testing.T) { diffUnsigned[uint](t, cases) })
		t.Run("count", func(t *testing.T) { diffCount(t, cases) })
	})
}

func diffFloat[T constraints.Float](t *testing.T, b BackendInfo, cases []diffCase) {
	r := rand.New(rand.NewPCG(1, uint64(num.KindOf[T]())))
	p := policyOf(b, num.KindOf[T]())
	for _, c := range cases {
		x := testkit.Values[T](r, c.n, c.style)
		bits, off := c.inputs(r)
		want := oracle.Sum(x, bits, off, p)
		if got := Sum(x, Valid(bits, off)); !sameFloat(got, want) {
			t.Fatalf("%v: Sum = %v (%#x), oracle %+v = %v (%#x)", c, got, testkit.Bits(got), p, want, testkit.Bits(want))
		}
		diffSummary(t, c, x, bits, off)
		if c.n > 0 { // selected shapes: the strict fold in selection order, on every backend
			sel := testkit.Selection(r, c.n, c.n/2+1)
			if got, want := Sum(x, Valid(bits, off).Select(sel)), ref.SumFloat(x, ref.Mask{Bits: bits, Off: off, Sel: sel, HasSel: true}); !sameFloat(got, want) {
				t.Fatalf("%v: selected Sum = %#x, reference %#x", c, testkit.Bits(got), testkit.Bits(want))
			}
			diffSelectedSummary(t, c, x, bits, off, sel)
		}
	}
}

// diffSelectedSummary checks Summarize with a selection against the reference.
func diffSelectedSummary[T Number](t *testing.T, c diffCase, x []T, bits []byte, off int, sel []uint32) {
	t.Helper()
	lo, hi, count, nulls := ref.Summary(x, ref.Mask{Bits: bits, Off: off, Sel: sel, HasSel: true})
	got := Summarize(x, Valid(bits, off).Select(sel))
	if testkit.Bits(got.Min) != testkit.Bits(lo) || testkit.Bits(got.Max) != testkit.Bits(hi) || got.Count != count || got.Nulls != nulls {
		t.Fatalf("%v: selected Summarize = %+v, reference %v %v %d %d", c, got, lo, hi, count, nulls)
	}
}

func diffSigned[T constraints.Signed](t *testing.T, cases []diffCase) {
	r := rand.New(rand.NewPCG(2, uint64(num.KindOf[T]())))
	for _, c := range cases {
		x := testkit.Values[T](r, c.n, c.style)
		bits, off := c.inputs(r)
		m := ref.Mask{Bits: bits, Off: off}
		if got, want := SumInt(x, Valid(bits, off)), ref.SumInt[T, int64](x, m); got != want {
			t.Fatalf("%v: SumInt = %d, reference %d", c, got, want)
		}
		ws, wo := ref.SumCheckedSigned(x, m)
		if got := SumChecked(x, Valid(bits, off)); got != (CheckedSum[int64]{ws, wo}) {
			t.Fatalf("%v: SumChecked = %+v, reference {%d %v}", c, got, ws, wo)
		}
		diffSummary(t, c, x, bits, off)
		if c.n > 0 {
			sel := testkit.Selection(r, c.n, c.n/2+1)
			sm := ref.Mask{Bits: bits, Off: off, Sel: sel, HasSel: true}
			if got, want := SumInt(x, Valid(bits, off).Select(sel)), ref.SumInt[T, int64](x, sm); got != want {
				t.Fatalf("%v: selected SumInt = %d, reference %d", c, got, want)
			}
			ws, wo := ref.SumCheckedSigned(x, sm)
			if got := SumChecked(x, Valid(bits, off).Select(sel)); got != (CheckedSum[int64]{ws, wo}) {
				t.Fatalf("%v: selected SumChecked = %+v, reference {%d %v}", c, got, ws, wo)
			}
			diffSelectedSummary(t, c, x, bits, off, sel)
		}
	}
}

func diffUnsigned[T constraints.Unsigned](t *testing.T, cases []diffCase) {
	r := rand.New(rand.NewPCG(3, uint64(num.KindOf[T]())))
	for _, c := range cases {
		x := testkit.Values[T](r, c.n, c.style)
		bits, off := c.inputs(r)
		m := ref.Mask{Bits: bits, Off: off}
		if got, want := SumUint(x, Valid(bits, off)), ref.SumInt[T, uint64](x, m); got != want {
			t.Fatalf("%v: SumUint = %d, reference %d", c, got, want)
		}
		ws, wo := ref.SumCheckedUnsigned(x, m)
		if got := SumCheckedUint(x, Valid(bits, off)); got != (CheckedSum[uint64]{ws, wo}) {
			t.Fatalf("%v: SumCheckedUint = %+v, reference {%d %v}", c, got, ws, wo)
		}
		diffSummary(t, c, x, bits, off)
	}
}

// diffSummary checks Summarize, Min, Max and MinMax against the reference,
// bit for bit (canonical NaN and the first of ±0 included).
func diffSummary[T Number](t *testing.T, c diffCase, x []T, bits []byte, off int) {
	t.Helper()
	lo, hi, count, nulls := ref.Summary(x, ref.Mask{Bits: bits, Off: off})
	want := Summary[T]{Min: lo, Max: hi, Count: count, Nulls: nulls}
	got := Summarize(x, Valid(bits, off))
	if testkit.Bits(got.Min) != testkit.Bits(want.Min) || testkit.Bits(got.Max) != testkit.Bits(want.Max) ||
		got.Count != want.Count || got.Nulls != want.Nulls {
		t.Fatalf("%v: Summarize = %+v (min %#x max %#x), reference %+v (min %#x max %#x)", c,
			got, testkit.Bits(got.Min), testkit.Bits(got.Max), want, testkit.Bits(want.Min), testkit.Bits(want.Max))
	}
	gl, gh := MinMax(x, Valid(bits, off))
	if testkit.Bits(gl) != testkit.Bits(lo) || testkit.Bits(gh) != testkit.Bits(hi) {
		t.Fatalf("%v: MinMax = %v, %v; reference %v, %v", c, gl, gh, lo, hi)
	}
	if g := Min(x, Valid(bits, off)); testkit.Bits(g) != testkit.Bits(lo) {
		t.Fatalf("%v: Min = %v, reference %v", c, g, lo)
	}
	if g := Max(x, Valid(bits, off)); testkit.Bits(g) != testkit.Bits(hi) {
		t.Fatalf("%v: Max = %v, reference %v", c, g, hi)
	}
	if bits != nil {
		return
	}
	// The same without a Mask: the dense calls take paths of their own
	// (the short loops below each backend's cut, kernel.DenseSummary).
	if got := Summarize(x); testkit.Bits(got.Min) != testkit.Bits(want.Min) || testkit.Bits(got.Max) != testkit.Bits(want.Max) ||
		got.Count != want.Count || got.Nulls != want.Nulls {
		t.Fatalf("%v: dense Summarize = %+v, reference %+v", c, got, want)
	}
	if gl, gh := MinMax(x); testkit.Bits(gl) != testkit.Bits(lo) || testkit.Bits(gh) != testkit.Bits(hi) {
		t.Fatalf("%v: dense MinMax = %v, %v; reference %v, %v", c, gl, gh, lo, hi)
	}
	if g := Min(x); testkit.Bits(g) != testkit.Bits(lo) {
		t.Fatalf("%v: dense Min = %v, reference %v", c, g, lo)
	}
	if g := Max(x); testkit.Bits(g) != testkit.Bits(hi) {
		t.Fatalf("%v: dense Max = %v, reference %v", c, g, hi)
	}
}

func diffCount(t *testing.T, cases []diffCase) {
	r := rand.New(rand.NewPCG(4, 4))
	for _, c := range cases {
		bits, off := c.inputs(r)
		want := ref.CountValid(c.n, ref.Mask{Bits: bits, Off: off})
		if got := CountValid(c.n, Valid(bits, off)); got != want {
			t.Fatalf("%v: CountValid = %d, reference %d", c, got, want)
		}
	}
}

// TestOracleA1IsReference pins the ADR-013 corollary that the policy oracle
// with one scalar accumulator is exactly the strict reference fold.
func TestOracleA1IsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for _, c := range diffCases(testing.Short()) {
		x := testkit.Values[float64](r, c.n, c.style)
		bits, off := c.inputs(r)
		got := oracle.Sum(x, bits, off, oracle.Policy{A: 1, W: 1})
		want := ref.SumFloat(x, ref.Mask{Bits: bits, Off: off})
		if !sameFloat(got, want) {
			t.Fatalf("%v: oracle A=1 W=1 = %#x, reference %#x", c, testkit.Bits(got), testkit.Bits(want))
		}
		x32 := testkit.Values[float32](r, c.n, c.style)
		got32 := oracle.Sum(x32, bits, off, oracle.Policy{A: 1, W: 1})
		want32 := ref.SumFloat(x32, ref.Mask{Bits: bits, Off: off})
		if !sameFloat(got32, want32) {
			t.Fatalf("%v: float32 oracle A=1 W=1 = %#x, reference %#x", c, testkit.Bits(got32), testkit.Bits(want32))
		}
	}
}

// TestSumLargeDense checks dense float sums long enough for the kernels'
// large-input loops (the AVX-512 loop over 256-bit halves takes inputs of
// 2 MB and more), in one call and through a SumState, against the oracle
// on every backend, bit for bit, at lengths around that cut and off the
// block size.
func TestSumLargeDense(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	forEachBackend(t, func(t *testing.T, b BackendInfo) {
		t.Run("float64", func(t *testing.T) { sumLarge[float64](t, b, []int{1<<18 - 32, 1 << 18, 1<<18 + 37, 600_003}) })
		t.Run("float32", func(t *testing.T) { sumLarge[float32](t, b, []int{1<<19 - 64, 1 << 19, 1<<19 + 101, 1_200_007}) })
	})
}

func sumLarge[T constraints.Float](t *testing.T, b BackendInfo, ns []int) {
	r := rand.New(rand.NewPCG(11, uint64(num.KindOf[T]())))
	p := policyOf(b, num.KindOf[T]())
	for _, n := range ns {
		for _, style := range []testkit.Style{testkit.Plain, testkit.Mixed} {
			x := testkit.Values[T](r, n, style)
			if got, want := Sum(x), oracle.Sum(x, nil, 0, p); !sameFloat(got, want) {
				t.Fatalf("n=%d style %v: Sum = %v (%#x), oracle %+v = %v (%#x)", n, style, got, testkit.Bits(got), p, want, testkit.Bits(want))
			}
			// A state fed in two batches, the first one large, takes the
			// lane kernel's large loop and must give the same bits.
			var st SumState[T]
			st.Add(x[:n-n/7])
			st.Add(x[n-n/7:])
			if got, want := st.Sum(), oracle.Sum(x, nil, 0, p); !sameFloat(got, want) {
				t.Fatalf("n=%d style %v: SumState = %v (%#x), oracle %v (%#x)", n, style, got, testkit.Bits(got), want, testkit.Bits(want))
			}
		}
	}
}

// TestLargeDenseOrderFree checks the order-free reductions (Summarize,
// MinMax, Min, Max and the wrapping integer sums) on dense inputs of 2 MB
// and more, where the AVX-512 backend runs the AVX2 kernels, against the
// reference on every backend: lengths off every kernel step, a NaN for
// the float types, and ±0 ties whose first zero must win.
func TestLargeDenseOrderFree(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	forEachBackend(t, func(t *testing.T, b BackendInfo) {
		t.Run("float64", func(t *testing.T) { largeOrderFree[float64](t) })
		t.Run("float32", func(t *testing.T) { largeOrderFree[float32](t) })
		t.Run("int64", func(t *testing.T) { largeOrderFree[int64](t) })
		t.Run("uint64", func(t *testing.T) { largeOrderFree[uint64](t) })
		t.Run("int32", func(t *testing.T) { largeOrderFree[int32](t) })
		t.Run("uint16", func(t *testing.T) { largeOrderFree[uint16](t) })
		t.Run("int8", func(t *testing.T) { largeOrderFree[int8](t) })
	})
}

func largeOrderFree[T Number](t *testing.T) {
	r := rand.New(rand.NewPCG(12, uint64(num.KindOf[T]())))
	size := int(unsafe.Sizeof(*new(T)))
	for _, n := range []int{2<<20/size - 1, 2 << 20 / size, 2<<20/size + 7} {
		c := diffCase{n: n, nullFrac: -1}
		x := testkit.Values[T](r, n, testkit.Plain)
		diffSummary(t, c, x, nil, 0)
		if num.IsFloat[T]() {
			y := append([]T(nil), x...)
			y[r.IntN(n)] = num.NaN[T]()
			diffSummary(t, c, y, nil, 0)
			for i, v := range x {
				if v < 0 {
					y[i] = -v
				} else {
					y[i] = v
				}
			}
			negZero := T(0)
			negZero = -negZero // -0.0 for floats
			y[n-1], y[n/2] = 0, negZero
			diffSummary(t, c, y, nil, 0)
			continue
		}
		if got, want := wrappingSum(x), ref.SumInt[T, uint64](x, ref.Mask{}); got != want {
			t.Fatalf("n=%d: wrapping sum %d, reference %d", n, got, want)
		}
	}
}

// wrappingSum is SumInt or SumUint of x as the bits of its 64-bit sum.
func wrappingSum[T Number](x []T) uint64 {
	switch x := any(x).(type) {
	case []int64:
		return uint64(SumInt(x))
	case []int32:
		return uint64(SumInt(x))
	case []int8:
		return uint64(SumInt(x))
	case []uint64:
		return SumUint(x)
	case []uint16:
		return SumUint(x)
	case []int16:
		return uint64(SumInt(x))
	case []uint8:
		return SumUint(x)
	case []uint32:
		return SumUint(x)
	}
	panic("wrappingSum: type not listed")
}

// TestDenseIntSumsEveryLength checks SumInt and SumUint called without a
// Mask, the API's dense prefix (the inline loop below the backend's cut,
// kernel.ISA.DenseIntSumCut, the kernel from it), at every length to
// 130 on every backend, against the reference. The differential suite
// passes a Mask, which takes another path.
func TestDenseIntSumsEveryLength(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b BackendInfo) {
		denseIntSums[int64](t)
		denseIntSums[int32](t)
		denseIntSums[int16](t)
		denseIntSums[int8](t)
		denseIntSums[uint64](t)
		denseIntSums[uint32](t)
		denseIntSums[uint16](t)
		denseIntSums[uint8](t)
	})
}

func denseIntSums[T constraints.Integer](t *testing.T) {
	r := rand.New(rand.NewPCG(21, uint64(num.KindOf[T]())))
	for n := 0; n <= 130; n++ {
		for _, style := range []testkit.Style{testkit.Plain, testkit.Mixed} {
			x := testkit.Values[T](r, n, style)
			if got, want := wrappingSum(x), ref.SumInt[T, uint64](x, ref.Mask{}); got != want {
				t.Fatalf("%T n=%d: dense sum %d, reference %d", x, n, got, want)
			}
		}
	}
}
