package quiver

import (
	"fmt"
	"github.com/quiverlabs/quiver/internal/kernel"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/ref"
	"github.com/quiverlabs/quiver/internal/testkit"
)

type selCelsius float64

// selLengths are the input lengths of the selection suite: every length
// up to 70 (every tail of the Go loops' steps and of gather steps up to
// 32 lanes, twice) and lengths around larger steps.
func selLengths(short bool) []int {
	var ns []int
	for n := 0; n <= 70; n++ {
		if !short || n < 40 || n%3 == 0 {
			ns = append(ns, n)
		}
	}
	return append(ns, 127, 128, 129, 255, 256, 257, 1000)
}

// selShapes returns the selections the suite runs over n elements: empty,
// single, sorted subsets, random order, with duplicates, and longer than n.
func selShapes(r *rand.Rand, n int) map[string][]uint32 {
	out := map[string][]uint32{"empty": {}, "nil": nil}
	if n == 0 {
		return out
	}
	out["single"] = []uint32{uint32(r.IntN(n))}
	var sorted []uint32
	for i := range n {
		if r.IntN(10) == 0 {
			sorted = append(sorted, uint32(i))
		}
	}
	out["sorted10"] = sorted
	var half []uint32
	for i := range n {
		if r.IntN(2) == 0 {
			half = append(half, uint32(i))
		}
	}
	out["sorted50"] = half
	all := make([]uint32, n)
	for i := range all {
		all[i] = uint32(i)
	}
	out["all"] = all
	perm := slices.Clone(all)
	r.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	out["random"] = perm
	out["dups"] = testkit.Selection(r, n, 2*n+3)
	for k := 1; k <= 9; k++ {
		out[fmt.Sprintf("len%d", 8*k-1)] = testkit.Selection(r, n, 8*k-1)
	}
	return out
}

// checkSelected compares every operation on x under bits/off and sel with
// the reference, bit for bit.
func checkSelected[T Number](t *testing.T, what string, x []T, bits []byte, off int, sel []uint32) {
	t.Helper()
	m := Valid(bits, off).Select(sel)
	if bits == nil && off == 0 {
		m = Select(sel)
	}
	rm := ref.Mask{Bits: bits, Off: off, Sel: sel, HasSel: true}
	lo, hi, count, nulls := ref.Summary(x, rm)
	got := Summarize(x, m)
	if testkit.Bits(got.Min) != testkit.Bits(lo) || testkit.Bits(got.Max) != testkit.Bits(hi) || got.Count != count || got.Nulls != nulls {
		t.Fatalf("%s: Summarize = %+v, reference %v %v %d %d", what, got, lo, hi, count, nulls)
	}
	if g := Min(x, m); testkit.Bits(g) != testkit.Bits(lo) {
		t.Fatalf("%s: Min = %v, reference %v", what, g, lo)
	}
	if g := Max(x, m); testkit.Bits(g) != testkit.Bits(hi) {
		t.Fatalf("%s: Max = %v, reference %v", what, g, hi)
	}
	if gl, gh := MinMax(x, m); testkit.Bits(gl) != testkit.Bits(lo) || testkit.Bits(gh) != testkit.Bits(hi) {
		t.Fatalf("%s: MinMax = %v %v, reference %v %v", what, gl, gh, lo, hi)
	}
	if g, w := CountValid(len(x), m), ref.CountValid(len(x), rm); g != w {
		t.Fatalf("%s: CountValid = %d, reference %d", what, g, w)
	}
	switch num.KindOf[T]() {
	case num.Float32:
		f := num.Cast[float32](x)
		if g, w := Sum(f, m), ref.SumFloat(f, rm); math.Float32bits(g) != math.Float32bits(w) && !(g != g && w != w) {
			t.Fatalf("%s: Sum = %v, reference %v", what, g, w)
		}
	case num.Float64:
		f := num.Cast[float64](x)
		if g, w := Sum(f, m), ref.SumFloat(f, rm); math.Float64bits(g) != math.Float64bits(w) && !(g != g && w != w) {
			t.Fatalf("%s: Sum = %v, reference %v", what, g, w)
		}
	case num.Int8:
		checkSelectedSigned(t, what, num.Cast[int8](x), m, rm)
	case num.Int16:
		checkSelectedSigned(t, what, num.Cast[int16](x), m, rm)
	case num.Int32:
		checkSelectedSigned(t, what, num.Cast[int32](x), m, rm)
	case num.Int64:
		checkSelectedSigned(t, what, num.Cast[int64](x), m, rm)
	case num.Uint8:
		checkSelectedUnsigned(t, what, num.Cast[uint8](x), m, rm)
	case num.Uint16:
		checkSelectedUnsigned(t, what, num.Cast[uint16](x), m, rm)
	case num.Uint32:
		checkSelectedUnsigned(t, what, num.Cast[uint32](x), m, rm)
	case num.Uint64:
		checkSelectedUnsigned(t, what, num.Cast[uint64](x), m, rm)
	}
}

func checkSelectedSigned[T int8 | int16 | int32 | int64](t *testing.T, what string, x []T, m Mask, rm ref.Mask) {
	t.Helper()
	if g, w := SumInt(x, m), ref.SumInt[T, int64](x, rm); g != w {
		t.Fatalf("%s: SumInt = %d, reference %d", what, g, w)
	}
	ws, wo := ref.SumCheckedSigned(x, rm)
	if g := SumChecked(x, m); g != (CheckedSum[int64]{ws, wo}) {
		t.Fatalf("%s: SumChecked = %+v, reference {%d %v}", what, g, ws, wo)
	}
}

func checkSelectedUnsigned[T uint8 | uint16 | uint32 | uint64](t *testing.T, what string, x []T, m Mask, rm ref.Mask) {
	t.Helper()
	if g, w := SumUint(x, m), ref.SumInt[T, uint64](x, rm); g != w {
		t.Fatalf("%s: SumUint = %d, reference %d", what, g, w)
	}
	ws, wo := ref.SumCheckedUnsigned(x, rm)
	if g := SumCheckedUint(x, m); g != (CheckedSum[uint64]{ws, wo}) {
		t.Fatalf("%s: SumCheckedUint = %+v, reference {%d %v}", what, g, ws, wo)
	}
}

// selSuite runs checkSelected over every length, selection shape, style and
// bitmap (none, and offsets 0..63 with several null fractions).
func selSuite[T Number](t *testing.T) {
	r := rand.New(rand.NewPCG(7, uint64(num.KindOf[T]())))
	styles := []testkit.Style{testkit.Plain, testkit.Mixed, testkit.Small, testkit.Zeros}
	fracs := []float64{-1, 0, 0.1, 0.5, 1}
	for i, n := range selLengths(testing.Short()) {
		shapes := selShapes(r, n)
		names := slices.Sorted(func(yield func(string) bool) {
			for k := range shapes {
				if !yield(k) {
					return
				}
			}
		})
		for j, name := range names {
			sel := shapes[name]
			style := styles[(i+j)%len(styles)]
			x := testkit.Values[T](r, n, style)
			for f, frac := range fracs {
				var bits []byte
				off := 0
				if frac >= 0 {
					off = (i*5 + j*11 + f*17) % 64
					bits = testkit.Bitmap(r, n, off, frac)
				}
				checkSelected(t, fmt.Sprintf("n=%d sel=%s style=%d off=%d nulls=%v", n, name, style, off, frac), x, bits, off, sel)
			}
		}
	}
}

// TestSelection checks every selected operation against the reference on
// every backend, for every element type and a named one.
func TestSelection(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b BackendInfo) {
		selSuite[float32](t)
		selSuite[float64](t)
		selSuite[int8](t)
		selSuite[int16](t)
		selSuite[int32](t)
		selSuite[int64](t)
		selSuite[uint8](t)
		selSuite[uint16](t)
		selSuite[uint32](t)
		selSuite[uint64](t)
		selSuite[selCelsius](t)
	})
}

// TestSelectionOrder checks the cases where selection order shows: the
// first of ±0 in selection order (the reverse of index order), NaN
// anywhere, extremes, and checked sums that overflow on the way and come
// back, around every loop step.
func TestSelectionOrder(t *testing.T) {
	negZero := math.Copysign(0, -1)
	forEachBackend(t, func(t *testing.T, b BackendInfo) {
		for n := 1; n <= 80; n++ {
			for at := 0; at < n; at += 1 + n/9 {
				// Zeros of both signs, the selection visiting them in
				// reverse index order: -0 comes first in selection order.
				x := make([]float64, n)
				for i := range x {
					x[i] = 1 + float64(i)
				}
				sel := make([]uint32, n)
				for k := range sel {
					sel[k] = uint32(n - 1 - k)
				}
				x[at] = 0
				if at+1 < n {
					x[at+1] = negZero
				}
				for i := range x {
					if i > at+1 {
						x[i] = -x[i] // the zeros are neither min nor max ...
					}
				}
				checkSelected(t, fmt.Sprintf("zeros n=%d at=%d", n, at), x, nil, 0, sel)
				for i := range x {
					x[i] = math.Abs(x[i]) // ... and now they are the min
				}
				x[at] = 0
				if at+1 < n {
					x[at+1] = negZero
				}
				checkSelected(t, fmt.Sprintf("zeros-min n=%d at=%d", n, at), x, nil, 0, sel)
				f32 := make([]float32, n)
				for i := range x {
					f32[i] = float32(-x[i])
				}
				bits := testkit.Bitmap(rand.New(rand.NewPCG(uint64(n), uint64(at))), n, at%64, 0.2)
				checkSelected(t, fmt.Sprintf("zeros-max32 n=%d at=%d", n, at), f32, bits, at%64, sel)
				x[at] = math.NaN()
				checkSelected(t, fmt.Sprintf("nan n=%d at=%d", n, at), x, nil, 0, sel)
				checkSelected(t, fmt.Sprintf("nan-masked n=%d at=%d", n, at), x, bits, at%64, sel)
				// Integer extremes and checked sums that leave the range
				// and come back.
				i64 := make([]int64, n)
				u64 := make([]uint64, n)
				for i := range i64 {
					i64[i] = math.MaxInt64
					u64[i] = math.MaxUint64
					if i%2 == 1 {
						i64[i] = math.MinInt64
						u64[i] = 0
					}
				}
				checkSelected(t, fmt.Sprintf("extremes n=%d at=%d", n, at), i64, nil, 0, sel)
				checkSelected(t, fmt.Sprintf("extremes n=%d at=%d", n, at), u64, nil, 0, sel)
				checkSelected(t, fmt.Sprintf("extremes-masked n=%d at=%d", n, at), i64, bits, at%64, sel)
				checkSelected(t, fmt.Sprintf("extremes-masked n=%d at=%d", n, at), u64, bits, at%64, sel)
				i64[at] = -1 // an odd sum of MaxInt64s and MinInt64s that comes back
				checkSelected(t, fmt.Sprintf("comeback n=%d at=%d", n, at), i64, nil, 0, sel)
				dup := slices.Repeat(sel, 3)
				checkSelected(t, fmt.Sprintf("dups n=%d at=%d", n, at), i64, bits, at%64, dup)
				checkSelected(t, fmt.Sprintf("dups n=%d at=%d", n, at), u64, bits, at%64, dup)
				i8 := make([]int8, n)
				for i := range i8 {
					i8[i] = math.MinInt8
				}
				checkSelected(t, fmt.Sprintf("int8 n=%d at=%d", n, at), i8, bits, at%64, dup)
			}
		}
	})
}

// TestSelectionKernels calls every backend's selection kernels directly,
// for each want, against the reference.
func TestSelectionKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, b := range availableBackends() {
		for _, n := range selLengths(true) {
			x := testkit.Values[float64](r, n, testkit.Mixed)
			xi := testkit.Values[int64](r, n, testkit.Plain)
			for name, sel := range selShapes(r, n) {
				for _, frac := range []float64{-1, 0.1} {
					var bits []byte
					off := n % 8
					if frac >= 0 {
						bits = testkit.Bitmap(r, n, off, frac)
					} else {
						off = 0
					}
					rm := ref.Mask{Bits: bits, Off: off, Sel: sel, HasSel: true}
					lo, hi, count, _ := ref.Summary(x, rm)
					ilo, ihi, _, _ := ref.Summary(xi, rm)
					what := fmt.Sprintf("%s n=%d sel=%s nulls=%v", b.name, n, name, frac)
					if l, _, _ := kernel.SelSummary(b.isa, x, bits, off, sel, kernel.WantMin); testkit.Bits(l) != testkit.Bits(lo) {
						t.Fatalf("%s: f64 min %v, reference %v", what, l, lo)
					}
					if _, h, _ := kernel.SelSummary(b.isa, x, bits, off, sel, kernel.WantMax); testkit.Bits(h) != testkit.Bits(hi) {
						t.Fatalf("%s: f64 max %v, reference %v", what, h, hi)
					}
					if l, h, c := kernel.SelSummary(b.isa, x, bits, off, sel, kernel.WantBoth); testkit.Bits(l) != testkit.Bits(lo) || testkit.Bits(h) != testkit.Bits(hi) || c != count {
						t.Fatalf("%s: f64 summary %v %v %d, reference %v %v %d", what, l, h, c, lo, hi, count)
					}
					if l, _, _ := kernel.SelSummary(b.isa, xi, bits, off, sel, kernel.WantMin); l != ilo {
						t.Fatalf("%s: i64 min %v, reference %v", what, l, ilo)
					}
					if _, h, _ := kernel.SelSummary(b.isa, xi, bits, off, sel, kernel.WantMax); h != ihi {
						t.Fatalf("%s: i64 max %v, reference %v", what, h, ihi)
					}
					if s, w := kernel.SelSumInt[int64, int64](b.isa, xi, bits, off, sel), ref.SumInt[int64, int64](xi, rm); s != w {
						t.Fatalf("%s: i64 sum %d, reference %d", what, s, w)
					}
					if c, w := kernel.SelCount(bits, off, sel), ref.CountValid(n, rm); c != w {
						t.Fatalf("%s: count %d, reference %d", what, c, w)
					}
				}
			}
		}
	}
}

// TestSelectionGatherLanes runs the cases the gathered min/max kernels
// resolve after their lanewise folds, over selection lengths around their
// steps (16 to 64 entries) and their tails: zeros of both signs in several
// lanes, the first in selection order to win; NaN first, last, alone and
// nowhere participating (invalid); integer extremes; every bitmap offset.
func TestSelectionGatherLanes(t *testing.T) {
	negZero := math.Copysign(0, -1)
	lengths := []int{1, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 95, 96, 97, 127, 128, 129, 200}
	forEachBackend(t, func(t *testing.T, b BackendInfo) {
		r := rand.New(rand.NewPCG(21, 22))
		for _, k := range lengths {
			n := 2*k + 5
			sel := testkit.Selection(r, n, k)
			off := k % 64
			bits := testkit.Bitmap(r, n, off, 0.2)
			for _, masked := range []bool{false, true} {
				bm, o := []byte(nil), 0
				if masked {
					bm, o = bits, off
				}
				what := func(s string) string { return fmt.Sprintf("%s k=%d masked=%v", s, k, masked) }
				// Zeros of both signs at several selection positions, every
				// other value positive (zeros are the min) or negative (the max).
				for _, sign := range []float64{1, -1} {
					x := make([]float64, n)
					for i := range x {
						x[i] = sign * (1 + float64(i))
					}
					for j := 0; j < 6; j++ {
						p := sel[r.IntN(k)]
						x[p] = 0
						if j%2 == 1 {
							x[p] = negZero
						}
					}
					checkSelected(t, what("zeros"), x, bm, o, sel)
					f32 := make([]float32, n)
					for i, v := range x {
						f32[i] = float32(v)
					}
					checkSelected(t, what("zeros32"), f32, bm, o, sel)
					// The first selected entry a zero of either sign.
					x[sel[0]] = negZero
					checkSelected(t, what("zero-first"), x, bm, o, sel)
					x[sel[0]] = 0
					checkSelected(t, what("zero-first+"), x, bm, o, sel)
				}
				// NaN first, last, only.
				x := testkit.Values[float64](r, n, testkit.Plain)
				for _, p := range []uint32{sel[0], sel[k-1]} {
					y := slices.Clone(x)
					y[p] = math.NaN()
					checkSelected(t, what("nan"), y, bm, o, sel)
					f32 := make([]float32, n)
					for i, v := range y {
						f32[i] = float32(v)
					}
					checkSelected(t, what("nan32"), f32, bm, o, sel)
				}
				y := slices.Clone(x)
				for i := range y {
					y[i] = math.NaN()
				}
				checkSelected(t, what("all-nan"), y, bm, o, sel)
				// Infinities and nothing else: the result is ±Inf, not the
				// identities.
				for i := range y {
					y[i] = math.Inf(1 - 2*(i%2))
				}
				checkSelected(t, what("inf"), y, bm, o, sel)
				for i := range y {
					y[i] = math.Inf(1)
				}
				checkSelected(t, what("+inf"), y, bm, o, sel)
				// Integer extremes of every gathered width.
				i64 := make([]int64, n)
				u64 := make([]uint64, n)
				i32 := make([]int32, n)
				u32 := make([]uint32, n)
				for i := range i64 {
					switch r.IntN(3) {
					case 0:
						i64[i], u64[i], i32[i], u32[i] = math.MaxInt64, math.MaxUint64, math.MaxInt32, math.MaxUint32
					case 1:
						i64[i], u64[i], i32[i], u32[i] = math.MinInt64, 0, math.MinInt32, 0
					default:
						i64[i], u64[i], i32[i], u32[i] = int64(r.Uint64()), r.Uint64(), int32(r.Uint32()), r.Uint32()
					}
				}
				checkSelected(t, what("i64"), i64, bm, o, sel)
				checkSelected(t, what("u64"), u64, bm, o, sel)
				checkSelected(t, what("i32"), i32, bm, o, sel)
				checkSelected(t, what("u32"), u32, bm, o, sel)
				for i := range i64 {
					i64[i], u64[i], i32[i], u32[i] = math.MaxInt64, math.MaxUint64, math.MaxInt32, math.MaxUint32
				}
				checkSelected(t, what("i64-max"), i64, bm, o, sel)
				checkSelected(t, what("u64-max"), u64, bm, o, sel)
				checkSelected(t, what("u32-max"), u32, bm, o, sel)
			}
			// Every bitmap offset, all entries of one null pattern.
			x := testkit.Values[float64](r, n, testkit.Mixed)
			for off := 0; off < 64; off++ {
				bits := testkit.Bitmap(r, n, off, 0.5)
				checkSelected(t, fmt.Sprintf("offsets k=%d off=%d", k, off), x, bits, off, sel)
			}
		}
	})
}
