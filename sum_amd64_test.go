//go:build amd64 && !purego

package quiver

import (
	"github.com/quiverlabs/quiver/internal/kernel"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver/internal/oracle"
	"github.com/quiverlabs/quiver/internal/ref"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// Edge cases of the amd64 sum kernels that random differential inputs do
// not reach: checked sums at the int64/uint64 limits, the chunking of the
// checked kernels, every bitmap offset against every block phase, and the
// loops of the valid-count kernels.

// simdBackends returns the amd64 SIMD backends this CPU can run.
func simdBackends(t *testing.T) []*backend {
	t.Helper()
	var out []*backend
	for _, b := range []*backend{avx512Backend, avx2Backend} {
		if !b.available {
			t.Logf("backend %s: not available on this CPU, not tested", b.name)
			continue
		}
		out = append(out, b)
	}
	return out
}

// allValid returns a bitmap of n set bits starting at bit off, exactly
// (off+n+7)/8 bytes long.
func allValid(n, off int) []byte {
	bm := make([]byte, (off+n+7)/8)
	for i := range n {
		p := off + i
		bm[p>>3] |= 1 << (p & 7)
	}
	return bm
}

// checkedCases are int64 inputs whose exact sum sits at, just inside or
// just outside the int64 range, with the deciding element placed at every
// position of a kernel block and of the Go tail.
func checkedCasesSigned() [][]int64 {
	var out [][]int64
	for _, n := range []int{1, 2, 7, 8, 9, 31, 32, 33, 64, 65, 100} {
		for pos := range n {
			fill := func(v, at int64) []int64 {
				x := make([]int64, n)
				for i := range x {
					x[i] = v
				}
				x[pos] = at
				return x
			}
			// All zeros but one limit, then one more +1 or -1 somewhere.
			x := fill(0, math.MaxInt64)
			x[(pos+1)%n] += 1 // overflow when n > 1, exact MaxInt64 when n == 1 (x[pos] += 1 wraps: also tested)
			out = append(out, x, fill(0, math.MaxInt64), fill(0, math.MinInt64))
			y := fill(0, math.MinInt64)
			y[(pos+1)%n] -= 1
			out = append(out, y)
			// Excursions that come back: many MaxInt64 then as many MinInt64
			// plus a correction, and the reverse.
			z := make([]int64, n)
			for i := range z {
				if (i+pos)%2 == 0 {
					z[i] = math.MaxInt64
				} else {
					z[i] = math.MinInt64
				}
			}
			out = append(out, z)
			big := fill(math.MaxInt64, math.MaxInt64)
			out = append(out, big, fill(math.MinInt64, math.MinInt64), fill(math.MinInt64, 0))
		}
	}
	return out
}

func checkedCasesUnsigned() [][]uint64 {
	var out [][]uint64
	for _, n := range []int{1, 2, 7, 8, 9, 31, 32, 33, 64, 65, 100} {
		for pos := range n {
			x := make([]uint64, n)
			x[pos] = math.MaxUint64
			out = append(out, x)
			y := make([]uint64, n)
			y[pos] = math.MaxUint64
			y[(pos+1)%n]++ // overflows unless n == 1 (then it wraps the element itself)
			out = append(out, y)
			z := make([]uint64, n)
			for i := range z {
				z[i] = math.MaxUint64 >> (i % 3)
			}
			out = append(out, z)
			w := make([]uint64, n)
			w[pos] = math.MaxUint64 - uint64(n) + 1
			for i := range w {
				if i != pos {
					w[i] = 1 // sum exactly MaxUint64 + (n-1) - n + 1 = MaxUint64
				}
			}
			out = append(out, w)
		}
	}
	return out
}

func TestCheckedKernelLimits(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, b := range simdBackends(t) {
		for _, x := range checkedCasesSigned() {
			for _, masked := range []bool{false, true} {
				var bm []byte
				off := 0
				if masked {
					off = r.IntN(64)
					bm = testkit.Bitmap(r, len(x), off, 0.2)
				}
				gs, go_ := kernel.CheckedI64(b.isa, x, bm, off).Int64()
				ws, wo := ref.SumCheckedSigned(x, ref.Mask{Bits: bm, Off: off})
				if gs != ws || go_ != wo {
					t.Fatalf("%s: checkedI64(%v, off %d, masked %v) = %d, %v; reference %d, %v", b.name, x, off, masked, gs, go_, ws, wo)
				}
			}
		}
		for _, x := range checkedCasesUnsigned() {
			for _, masked := range []bool{false, true} {
				var bm []byte
				off := 0
				if masked {
					off = r.IntN(64)
					bm = testkit.Bitmap(r, len(x), off, 0.2)
				}
				gs, go_ := kernel.CheckedU64(b.isa, x, bm, off).Uint64()
				ws, wo := ref.SumCheckedUnsigned(x, ref.Mask{Bits: bm, Off: off})
				if gs != ws || go_ != wo {
					t.Fatalf("%s: checkedU64(%v, off %d, masked %v) = %d, %v; reference %d, %v", b.name, x, off, masked, gs, go_, ws, wo)
				}
			}
		}
	}
}

// TestCheckedKernelOverflowFlags pins a few sums whose answer is known
// without the reference, so that a reference bug cannot hide a kernel bug.
func TestCheckedKernelOverflowFlags(t *testing.T) {
	maxes := make([]int64, 40)
	for i := range maxes {
		maxes[i] = math.MaxInt64
	}
	mins := make([]int64, 40)
	for i := range mins {
		mins[i] = math.MinInt64
	}
	for _, b := range simdBackends(t) {
		// 40 × MaxInt64 = 20×2^64 - 40: wrapped -40, overflowed.
		if s, o := kernel.CheckedI64(b.isa, maxes, nil, 0).Int64(); s != -40 || !o {
			t.Errorf("%s: 40×MaxInt64 = %d, %v; want -40, true", b.name, s, o)
		}
		// 40 × MinInt64 = -20×2^64: wrapped 0, overflowed.
		if s, o := kernel.CheckedI64(b.isa, mins, nil, 0).Int64(); s != 0 || !o {
			t.Errorf("%s: 40×MinInt64 = %d, %v; want 0, true", b.name, s, o)
		}
		// 32 × MaxInt64 then 32 × MinInt64 = -32: representable.
		mixed := append(append([]int64{}, maxes[:32]...), mins[:32]...)
		if s, o := kernel.CheckedI64(b.isa, mixed, nil, 0).Int64(); s != -32 || o {
			t.Errorf("%s: 32×MaxInt64 + 32×MinInt64 = %d, %v; want -32, false", b.name, s, o)
		}
		// Only the first element valid: MaxInt64 exactly.
		bm := make([]byte, 5)
		bm[0] = 1
		if s, o := kernel.CheckedI64(b.isa, maxes, bm, 0).Int64(); s != math.MaxInt64 || o {
			t.Errorf("%s: one valid MaxInt64 = %d, %v; want MaxInt64, false", b.name, s, o)
		}
		// MaxInt64 and a valid +1 at bit offset 9, inside the first block.
		x := make([]int64, 40)
		x[3], x[17] = math.MaxInt64, 1
		bm = allValid(40, 9)
		if s, o := kernel.CheckedI64(b.isa, x, bm, 9).Int64(); s != math.MinInt64 || !o {
			t.Errorf("%s: MaxInt64+1 = %d, %v; want MinInt64, true", b.name, s, o)
		}
		x[17] = 0
		x[20] = math.MinInt64
		x[21] = -1
		if s, o := kernel.CheckedI64(b.isa, x, bm, 9).Int64(); s != -2 || o {
			t.Errorf("%s: MaxInt64+MinInt64-1 = %d, %v; want -2, false", b.name, s, o)
		}
		u := make([]uint64, 40)
		u[5], u[30] = math.MaxUint64, 1
		if s, o := kernel.CheckedU64(b.isa, u, nil, 0).Uint64(); s != 0 || !o {
			t.Errorf("%s: MaxUint64+1 = %d, %v; want 0, true", b.name, s, o)
		}
		u[30] = 0
		if s, o := kernel.CheckedU64(b.isa, u, nil, 0).Uint64(); s != math.MaxUint64 || o {
			t.Errorf("%s: MaxUint64 = %d, %v; want MaxUint64, false", b.name, s, o)
		}
	}
}

// TestCheckedKernelChunks runs the checked sums with tiny chunks, so that
// the 128-bit combination of several kernel calls (and their 2^63 offsets
// for int64) is exercised; real chunks hold 2^31 elements.
func TestCheckedKernelChunks(t *testing.T) {
	defer func(c int) { kernel.CheckedChunk = c }(kernel.CheckedChunk)
	r := rand.New(rand.NewPCG(13, 14))
	for _, b := range simdBackends(t) {
		for _, chunk := range []int{5, 8, 12, 16, 64} {
			kernel.CheckedChunk = chunk
			for _, n := range []int{0, 7, 8, 9, 15, 16, 17, 63, 64, 65, 200, 1000} {
				for _, style := range []testkit.Style{testkit.Plain, testkit.Mixed} {
					xs := testkit.Values[int64](r, n, style)
					xu := testkit.Values[uint64](r, n, style)
					for _, f := range []float64{-1, 0.3} {
						var bm []byte
						off := r.IntN(64)
						if f >= 0 {
							bm = testkit.Bitmap(r, n, off, f)
						}
						m := ref.Mask{Bits: bm, Off: off}
						gs, gsOver := kernel.CheckedI64(b.isa, xs, bm, off).Int64()
						ws, wsOver := ref.SumCheckedSigned(xs, m)
						if gs != ws || gsOver != wsOver {
							t.Fatalf("%s chunk %d n %d: checkedI64 = %d, %v; reference %d, %v", b.name, chunk, n, gs, gsOver, ws, wsOver)
						}
						gu, guOver := kernel.CheckedU64(b.isa, xu, bm, off).Uint64()
						wu, wuOver := ref.SumCheckedUnsigned(xu, m)
						if gu != wu || guOver != wuOver {
							t.Fatalf("%s chunk %d n %d: checkedU64 = %d, %v; reference %d, %v", b.name, chunk, n, gu, guOver, wu, wuOver)
						}
					}
				}
			}
		}
	}
}

// TestSumKernelOffsets checks every bitmap offset 0..63 against lengths
// that give several whole blocks, a partial one, and short bitmaps, with
// bitmaps exactly as long as needed and with slack after them.
func TestSumKernelOffsets(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	lengths := []int{1, 15, 16, 17, 31, 32, 33, 47, 64, 65, 96, 127, 128, 129, 200, 255, 256, 257, 300}
	if !testing.Short() {
		lengths = append(lengths, 511, 512, 700, 1025)
	}
	for _, b := range simdBackends(t) {
		for _, n := range lengths {
			f64 := testkit.Values[float64](r, n, testkit.Mixed)
			f32 := testkit.Values[float32](r, n, testkit.Mixed)
			i8 := testkit.Values[int8](r, n, testkit.Plain)
			u8 := testkit.Values[uint8](r, n, testkit.Plain)
			i16 := testkit.Values[int16](r, n, testkit.Plain)
			u16 := testkit.Values[uint16](r, n, testkit.Plain)
			i32 := testkit.Values[int32](r, n, testkit.Plain)
			u32 := testkit.Values[uint32](r, n, testkit.Plain)
			i64 := testkit.Values[int64](r, n, testkit.Plain)
			u64 := testkit.Values[uint64](r, n, testkit.Plain)
			for off := range 64 {
				bm := testkit.Bitmap(r, n, off, 0.3)
				if off%3 == 0 {
					bm = append(bm, 0xFF, 0xFF) // slack after the bitmap: still only bits off..off+n-1 count
				}
				if g, w := kernel.SumFloat(b.isa, f64, bm, off), oracle.Sum(f64, bm, off, b.policy64); !sameFloat(g, w) {
					t.Fatalf("%s n=%d off=%d: float64 sum %#x, oracle %#x", b.name, n, off, testkit.Bits(g), testkit.Bits(w))
				}
				if g, w := kernel.SumFloat(b.isa, f32, bm, off), oracle.Sum(f32, bm, off, b.policy32); !sameFloat(g, w) {
					t.Fatalf("%s n=%d off=%d: float32 sum %#x, oracle %#x", b.name, n, off, testkit.Bits(g), testkit.Bits(w))
				}
				m := ref.Mask{Bits: bm, Off: off}
				check := func(kind string, g, w uint64) {
					t.Helper()
					if g != w {
						t.Fatalf("%s n=%d off=%d: %s sum %d, reference %d", b.name, n, off, kind, g, w)
					}
				}
				check("int8", uint64(kernel.SumInt[int8, int64](b.isa, i8, bm, off)), uint64(ref.SumInt[int8, int64](i8, m)))
				check("uint8", kernel.SumInt[uint8, uint64](b.isa, u8, bm, off), ref.SumInt[uint8, uint64](u8, m))
				check("int16", uint64(kernel.SumInt[int16, int64](b.isa, i16, bm, off)), uint64(ref.SumInt[int16, int64](i16, m)))
				check("uint16", kernel.SumInt[uint16, uint64](b.isa, u16, bm, off), ref.SumInt[uint16, uint64](u16, m))
				check("int32", uint64(kernel.SumInt[int32, int64](b.isa, i32, bm, off)), uint64(ref.SumInt[int32, int64](i32, m)))
				check("uint32", kernel.SumInt[uint32, uint64](b.isa, u32, bm, off), ref.SumInt[uint32, uint64](u32, m))
				check("int64", uint64(kernel.SumInt[int64, int64](b.isa, i64, bm, off)), uint64(ref.SumInt[int64, int64](i64, m)))
				check("uint64", kernel.SumInt[uint64, uint64](b.isa, u64, bm, off), ref.SumInt[uint64, uint64](u64, m))
				check("count", uint64(kernel.CountValid(b.isa, bm, off, n)), uint64(ref.CountValid(n, m)))
			}
		}
	}
}

// TestSignedByteBias pins the bias correction of the signed byte kernels:
// all -128 and all 127, dense and with every other element invalid.
func TestSignedByteBias(t *testing.T) {
	for _, b := range simdBackends(t) {
		for _, n := range []int{64, 256, 1000, 4096} {
			lo, hi := make([]int8, n), make([]int8, n)
			for i := range lo {
				lo[i], hi[i] = math.MinInt8, math.MaxInt8
			}
			if g := kernel.SumInt[int8, int64](b.isa, lo, nil, 0); g != int64(-128*n) {
				t.Errorf("%s: %d × -128 = %d", b.name, n, g)
			}
			if g := kernel.SumInt[int8, int64](b.isa, hi, nil, 0); g != int64(127*n) {
				t.Errorf("%s: %d × 127 = %d", b.name, n, g)
			}
			bm := make([]byte, (n+7)/8+1)
			for i := range bm {
				bm[i] = 0x55 // elements at even bit positions
			}
			if g := kernel.SumInt[int8, int64](b.isa, lo, bm, 0); g != int64(-128*(n/2)) {
				t.Errorf("%s: %d × -128 (half valid) = %d", b.name, n/2, g)
			}
			if g := kernel.SumInt[int8, int64](b.isa, hi, bm, 1); g != int64(127*(n/2)) {
				t.Errorf("%s: %d × 127 (half valid, offset 1) = %d", b.name, n/2, g)
			}
		}
	}
}

// TestCountValidKernelLoops covers each loop of the count kernels (four
// vectors, one vector, 8-byte words) and the Go head and tail, at every
// bit offset.
func TestCountValidKernelLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for _, b := range simdBackends(t) {
		for _, n := range []int{0, 1, 63, 64, 65, 511, 512, 513, 2047, 2048, 2049, 4096 + 512 + 64 + 7, 20000} {
			for off := range 64 {
				bm := testkit.Bitmap(r, n, off, 0.5)
				if g, w := kernel.CountValid(b.isa, bm, off, n), ref.CountValid(n, ref.Mask{Bits: bm, Off: off}); g != w {
					t.Fatalf("%s n=%d off=%d: countValid = %d, reference %d", b.name, n, off, g, w)
				}
			}
		}
	}
}

// TestSumDenseOffsets holds the dense float sums of every SIMD backend to
// the ADR-013 oracle over columns that start 0 to 17 elements past a
// 64-byte boundary, at lengths around every block: the AVX-512 loop
// rebuilds an unaligned x's vectors from aligned loads (rebuiltBlocks in
// the sum generator), and a lane taken from the wrong neighbour, or a
// block's edge read wrong, changes which accumulator meets which value
// and so the bits of the sum of these widely spread values.
func TestSumDenseOffsets(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	var lengths []int
	for n := 1; n <= 80; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1000, 4099)
	for _, b := range simdBackends(t) {
		for off := range 18 {
			for _, n := range lengths {
				x64 := testkit.AlignedAt[float64](n, off)
				copy(x64, testkit.Values[float64](r, n, testkit.Plain))
				if g, w := kernel.SumFloat(b.isa, x64, nil, 0), oracle.Sum(x64, nil, 0, b.policy64); !sameFloat(g, w) {
					t.Fatalf("%s off=%d n=%d: float64 sum %#x, oracle %#x", b.name, off, n, testkit.Bits(g), testkit.Bits(w))
				}
				x32 := testkit.AlignedAt[float32](n, off)
				copy(x32, testkit.Values[float32](r, n, testkit.Plain))
				if g, w := kernel.SumFloat(b.isa, x32, nil, 0), oracle.Sum(x32, nil, 0, b.policy32); !sameFloat(g, w) {
					t.Fatalf("%s off=%d n=%d: float32 sum %#x, oracle %#x", b.name, off, n, testkit.Bits(g), testkit.Bits(w))
				}
			}
		}
	}
}
