package quiver

import (
	"bytes"
	"encoding/binary"
	"github.com/quiverlabs/quiver/internal/kernel"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/oracle"
	"github.com/quiverlabs/quiver/internal/ref"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// Fuzz targets: each decodes values, a bitmap and its offset from the fuzzer's
// bytes and checks every available backend's kernel against the reference
// (or, for float sums, the policy oracle of that backend). They call the
// kernels directly, not through SetBackend, so no global state changes.
// Seed corpora live in testdata/fuzz.

// fuzzBitmap returns the bitmap for n elements at off from raw, or nil
// (dense) when raw is too short.
func fuzzBitmap(raw []byte, off uint8, n int) ([]byte, int) {
	o := int(off % 64)
	need := (o + n + 7) / 8
	if len(raw) < need {
		return nil, 0
	}
	return raw[:need], o
}

func decode[T any](data []byte, size int, get func([]byte) T) []T {
	x := make([]T, len(data)/size)
	for i := range x {
		x[i] = get(data[i*size:])
	}
	return x
}

func availableBackends() []*backend {
	var out []*backend
	for _, b := range registry {
		if b.available {
			out = append(out, b)
		}
	}
	return out
}

func checkSummary[T num.Number](t *testing.T, name string, isa kernel.ISA, x []T, bits []byte, off int) {
	t.Helper()
	lo, hi, count, _ := ref.Summary(x, ref.Mask{Bits: bits, Off: off})
	gl, gh, gc := kernel.Summary(isa, x, bits, off, kernel.WantBoth)
	if testkit.Bits(gl) != testkit.Bits(lo) || testkit.Bits(gh) != testkit.Bits(hi) || gc != count {
		t.Fatalf("%s: summary = (%v, %v, %d), reference (%v, %v, %d)", name, gl, gh, gc, lo, hi, count)
	}
	{
		if g, _, c := kernel.Summary(isa, x, bits, off, kernel.WantMin); testkit.Bits(g) != testkit.Bits(lo) || c != count {
			t.Fatalf("%s: min = (%v, %d), reference (%v, %d)", name, g, c, lo, count)
		}
	}
	{
		if _, g, c := kernel.Summary(isa, x, bits, off, kernel.WantMax); testkit.Bits(g) != testkit.Bits(hi) || c != count {
			t.Fatalf("%s: max = (%v, %d), reference (%v, %d)", name, g, c, hi, count)
		}
	}
}

func FuzzFloat(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0xF8, 0x7F, 0, 0, 0, 0, 0, 0, 0, 0x80}, []byte{0xFF}, uint8(0))
	f.Fuzz(func(t *testing.T, data, rawBits []byte, off uint8) {
		x64 := decode(data, 8, func(b []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b)) })
		x32 := decode(data, 4, func(b []byte) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b)) })
		for _, b := range availableBackends() {
			bits, o := fuzzBitmap(rawBits, off, len(x64))
			if got, want := kernel.SumFloat(b.isa, x64, bits, o), oracle.Sum(x64, bits, o, b.policy64); !sameFloat(got, want) {
				t.Fatalf("%s: float64 sum = %#x, oracle %#x", b.name, testkit.Bits(got), testkit.Bits(want))
			}
			checkSummary(t, b.name+" float64", b.isa, x64, bits, o)
			bits, o = fuzzBitmap(rawBits, off, len(x32))
			if got, want := kernel.SumFloat(b.isa, x32, bits, o), oracle.Sum(x32, bits, o, b.policy32); !sameFloat(got, want) {
				t.Fatalf("%s: float32 sum = %#x, oracle %#x", b.name, testkit.Bits(got), testkit.Bits(want))
			}
			checkSummary(t, b.name+" float32", b.isa, x32, bits, o)
		}
	})
}

func FuzzInt(f *testing.F) {
	f.Add([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 1, 0, 0, 0, 0, 0, 0, 0}, []byte{0x03}, uint8(0))
	f.Fuzz(func(t *testing.T, data, rawBits []byte, off uint8) {
		i64 := decode(data, 8, func(b []byte) int64 { return int64(binary.LittleEndian.Uint64(b)) })
		u64 := decode(data, 8, func(b []byte) uint64 { return binary.LittleEndian.Uint64(b) })
		i8 := decode(data, 1, func(b []byte) int8 { return int8(b[0]) })
		u8 := decode(data, 1, func(b []byte) uint8 { return b[0] })
		i16 := decode(data, 2, func(b []byte) int16 { return int16(binary.LittleEndian.Uint16(b)) })
		u32 := decode(data, 4, func(b []byte) uint32 { return binary.LittleEndian.Uint32(b) })
		for _, b := range availableBackends() {
			bits, o := fuzzBitmap(rawBits, off, len(i64))
			m := ref.Mask{Bits: bits, Off: o}
			if got, want := kernel.SumInt[int64, int64](b.isa, i64, bits, o), ref.SumInt[int64, int64](i64, m); got != want {
				t.Fatalf("%s: int64 sum = %d, reference %d", b.name, got, want)
			}
			gs, go_ := kernel.CheckedI64(b.isa, i64, bits, o).Int64()
			if ws, wo := ref.SumCheckedSigned(i64, m); gs != ws || go_ != wo {
				t.Fatalf("%s: int64 checked = (%d, %v), reference (%d, %v)", b.name, gs, go_, ws, wo)
			}
			gu, gou := kernel.CheckedU64(b.isa, u64, bits, o).Uint64()
			if wu, wou := ref.SumCheckedUnsigned(u64, m); gu != wu || gou != wou {
				t.Fatalf("%s: uint64 checked = (%d, %v), reference (%d, %v)", b.name, gu, gou, wu, wou)
			}
			lo, hi, c, _ := ref.Summary(i64, m)
			if gl, gh, gc := kernel.Summary(b.isa, i64, bits, o, kernel.WantBoth); gl != lo || gh != hi || gc != c {
				t.Fatalf("%s: int64 summary = (%d, %d, %d), reference (%d, %d, %d)", b.name, gl, gh, gc, lo, hi, c)
			}

			bits, o = fuzzBitmap(rawBits, off, len(i8))
			m = ref.Mask{Bits: bits, Off: o}
			if got, want := kernel.SumInt[int8, int64](b.isa, i8, bits, o), ref.SumInt[int8, int64](i8, m); got != want {
				t.Fatalf("%s: int8 sum = %d, reference %d", b.name, got, want)
			}
			if got, want := kernel.SumInt[uint8, uint64](b.isa, u8, bits, o), ref.SumInt[uint8, uint64](u8, m); got != want {
				t.Fatalf("%s: uint8 sum = %d, reference %d", b.name, got, want)
			}
			lo8, hi8, c8, _ := ref.Summary(u8, m)
			if gl, gh, gc := kernel.Summary(b.isa, u8, bits, o, kernel.WantBoth); gl != lo8 || gh != hi8 || gc != c8 {
				t.Fatalf("%s: uint8 summary = (%d, %d, %d), reference (%d, %d, %d)", b.name, gl, gh, gc, lo8, hi8, c8)
			}
			if bits != nil { // the kernel's contract: a bitmap is present
				if got, want := kernel.CountValid(b.isa, bits, o, len(i8)), ref.CountValid(len(i8), m); got != want {
					t.Fatalf("%s: countValid = %d, reference %d", b.name, got, want)
				}
			}

			bits, o = fuzzBitmap(rawBits, off, len(i16))
			m = ref.Mask{Bits: bits, Off: o}
			if got, want := kernel.SumInt[int16, int64](b.isa, i16, bits, o), ref.SumInt[int16, int64](i16, m); got != want {
				t.Fatalf("%s: int16 sum = %d, reference %d", b.name, got, want)
			}
			bits, o = fuzzBitmap(rawBits, off, len(u32))
			m = ref.Mask{Bits: bits, Off: o}
			lo32, hi32, c32, _ := ref.Summary(u32, m)
			if gl, gh, gc := kernel.Summary(b.isa, u32, bits, o, kernel.WantBoth); gl != lo32 || gh != hi32 || gc != c32 {
				t.Fatalf("%s: uint32 summary = (%d, %d, %d), reference (%d, %d, %d)", b.name, gl, gh, gc, lo32, hi32, c32)
			}
		}
	})
}

// FuzzSelection checks the selected shapes through the public API against
// the reference, and that out-of-range selections panic instead of
// reading out of bounds.
func FuzzSelection(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, []byte{0, 3, 3, 9}, []byte{0xAA, 0x55})
	f.Fuzz(func(t *testing.T, data, rawSel, rawBits []byte) {
		x := decode(data, 1, func(b []byte) int8 { return int8(b[0]) })
		sel := decode(rawSel, 1, func(b []byte) uint32 { return uint32(b[0]) })
		bits, _ := fuzzBitmap(rawBits, 0, len(x))
		m := Valid(bits, 0).Select(sel)
		for _, s := range sel {
			if int(s) >= len(x) {
				defer func() {
					if recover() == nil {
						t.Fatalf("selection index %d of %d elements did not panic", s, len(x))
					}
				}()
				SumInt(x, m)
				return
			}
		}
		rm := ref.Mask{Bits: bits, Sel: sel, HasSel: true}
		if got, want := SumInt(x, m), ref.SumInt[int8, int64](x, rm); got != want {
			t.Fatalf("SumInt = %d, reference %d", got, want)
		}
		lo, hi, c, nulls := ref.Summary(x, rm)
		if s := Summarize(x, m); s != (Summary[int8]{lo, hi, c, nulls}) {
			t.Fatalf("Summarize = %+v, reference %v %v %v %v", s, lo, hi, c, nulls)
		}
		if got, want := CountValid(len(x), m), ref.CountValid(len(x), rm); got != want {
			t.Fatalf("CountValid = %d, reference %d", got, want)
		}
		// Every backend's selection kernels on wider types, the gathered
		// ones included: the same bytes as int64 and float64 elements.
		wide := make([]int64, len(x))
		for i, v := range x {
			wide[i] = int64(v) << (8 * (i % 8))
		}
		f := make([]float64, len(x))
		for i, v := range wide {
			f[i] = float64(v)
			if v%17 == 0 {
				f[i] = -f[i] * 0 // zeros of both signs
			}
		}
		wsum := ref.SumInt[int64, int64](wide, rm)
		flo, fhi, fc, _ := ref.Summary(f, rm)
		for _, b := range availableBackends() {
			if got := kernel.SelSumInt[int64, int64](b.isa, wide, bits, 0, sel); got != wsum {
				t.Fatalf("%s: int64 selSum = %d, reference %d", b.name, got, wsum)
			}
			if got := kernel.SelSumInt[uint64, uint64](b.isa, num.Cast[uint64](wide), bits, 0, sel); got != uint64(wsum) {
				t.Fatalf("%s: uint64 selSum = %d, reference %d", b.name, got, uint64(wsum))
			}
			if l, h, c := kernel.SelSummary(b.isa, f, bits, 0, sel, kernel.WantBoth); testkit.Bits(l) != testkit.Bits(flo) || testkit.Bits(h) != testkit.Bits(fhi) || c != fc {
				t.Fatalf("%s: float64 selSummary = %v %v %d, reference %v %v %d", b.name, l, h, c, flo, fhi, fc)
			}
			for _, want := range []kernel.Extremes{kernel.WantMin, kernel.WantMax} {
				l, h, _ := kernel.SelSummary(b.isa, f, bits, 0, sel, want)
				if (want == kernel.WantMin && testkit.Bits(l) != testkit.Bits(flo)) || (want == kernel.WantMax && testkit.Bits(h) != testkit.Bits(fhi)) {
					t.Fatalf("%s: float64 selSummary(%d) = %v %v, reference %v %v", b.name, want, l, h, flo, fhi)
				}
			}
			f32 := make([]float32, len(f))
			n32 := make([]int32, len(f))
			for i, v := range f {
				f32[i], n32[i] = float32(v), int32(wide[i]>>16)
			}
			slo, shi, sc, _ := ref.Summary(f32, rm)
			nlo, nhi, nc, _ := ref.Summary(n32, rm)
			ulo, uhi, uc, _ := ref.Summary(num.Cast[uint64](wide), rm)
			ilo, ihi, ic, _ := ref.Summary(wide, rm)
			for _, want := range []kernel.Extremes{kernel.WantBoth, kernel.WantMin, kernel.WantMax} {
				ok := func(l, h, wl, wh uint64, c, wc int) bool {
					return (want == kernel.WantMax || l == wl) && (want == kernel.WantMin || h == wh) && (want != kernel.WantBoth || c == wc)
				}
				if l, h, c := kernel.SelSummary(b.isa, f32, bits, 0, sel, want); !ok(testkit.Bits(l), testkit.Bits(h), testkit.Bits(slo), testkit.Bits(shi), c, sc) {
					t.Fatalf("%s: float32 selSummary(%d) = %v %v %d, reference %v %v %d", b.name, want, l, h, c, slo, shi, sc)
				}
				if l, h, c := kernel.SelSummary(b.isa, n32, bits, 0, sel, want); !ok(uint64(l), uint64(h), uint64(nlo), uint64(nhi), c, nc) {
					t.Fatalf("%s: int32 selSummary(%d) = %v %v %d, reference %v %v %d", b.name, want, l, h, c, nlo, nhi, nc)
				}
				if l, h, c := kernel.SelSummary(b.isa, num.Cast[uint64](wide), bits, 0, sel, want); !ok(l, h, ulo, uhi, c, uc) {
					t.Fatalf("%s: uint64 selSummary(%d) = %v %v %d, reference %v %v %d", b.name, want, l, h, c, ulo, uhi, uc)
				}
				if l, h, c := kernel.SelSummary(b.isa, wide, bits, 0, sel, want); !ok(uint64(l), uint64(h), uint64(ilo), uint64(ihi), c, ic) {
					t.Fatalf("%s: int64 selSummary(%d) = %v %v %d, reference %v %v %d", b.name, want, l, h, c, ilo, ihi, ic)
				}
			}
			if len(sel) > 0 {
				// The index check (the selMax kernel where the backend
				// has one) must find the largest index exactly.
				top := slices.Max(sel)
				if !kernel.SelInRange(b.isa, sel, int(top)+1) || kernel.SelInRange(b.isa, sel, int(top)) {
					t.Fatalf("%s: selection check wrong around its largest index %d", b.name, top)
				}
			}
		}
	})
}

// reproFuzzValues decodes the float values of FuzzReproducible: every 8
// bytes give a sign, a significand and an exponent field below a top the
// first two bytes choose, within a span the third byte chooses, so that
// the blocks' spreads fall around ADR-105's plan thresholds (random bits
// would give NaNs and spreads of hundreds of binades, which only the
// per-value path takes). A field at the type's maximum keeps its raw
// bits: infinities and NaNs; field 0, zeros and subnormals. The values are
// then repeated up to the length the fifth and sixth bytes choose (at
// most 20000), those of block k (of 4096 elements) scaled by 2^(k%8·s)
// with s from the fourth byte, so that blocks of different tops follow
// one another.
func reproFuzzValues[T constraints.Float](data []byte) []T {
	if len(data) < 6 {
		return nil
	}
	f32 := num.KindOf[T]() == num.Float32
	mantBits, maxField := 52, 2047
	if f32 {
		mantBits, maxField = 23, 255
	}
	top := 1 + int(binary.LittleEndian.Uint16(data))%(maxField-1)
	span := int(data[2])
	shift := int(data[3]%16) - 8
	length := min(int(binary.LittleEndian.Uint16(data[4:])), 20000)
	data = data[6:]
	var tile []T
	for ; len(data) >= 8; data = data[8:] {
		u := binary.LittleEndian.Uint64(data)
		mant := u & (1<<mantBits - 1)
		field := int(u >> 52 & 0x7FF)
		switch {
		case field == 0x7FF:
			field = maxField
		case field == 0:
		default:
			field = max(top-field%(span+1), 0)
		}
		var v T
		if f32 {
			v = T(math.Float32frombits(uint32(field)<<23 | uint32(mant)))
		} else {
			v = T(math.Float64frombits(uint64(field)<<52 | mant))
		}
		if u>>63 != 0 {
			v = -v
		}
		tile = append(tile, v)
	}
	if len(tile) == 0 {
		return nil
	}
	x := slices.Clone(tile)
	for i := len(x); i < length; i++ {
		x = append(x, tile[i%len(tile)]*T(math.Ldexp(1, i/4096%8*shift)))
	}
	return x
}

// FuzzReproducible checks SumReproducible's state on every backend against
// math/big: the exact sum it holds (its canonical form, before any
// rounding, so that a lost low bit shows even where the rounded result
// hides it), the sum rounded once, and the same encoding on every
// backend.
func FuzzReproducible(f *testing.F) {
	f.Add([]byte{0xFF, 3, 40, 9, 0x10, 0x27, 1, 2, 3, 4, 5, 6, 7, 0x3F, 8, 7, 6, 5, 4, 3, 2, 0xC1}, []byte{0xEF, 0xFF}, uint8(3))
	f.Add([]byte{0x10, 0, 95, 4, 0, 0x30, 1, 2, 3, 4, 5, 6, 7, 0x3F, 9, 9, 9, 9, 9, 9, 0xF9, 0x7F}, []byte{}, uint8(0))
	// Spreads on either side of the plans' thresholds (float64: 42 and 90
	// binades, float32: 71 and 119), at tops where the grids are clamped
	// at the smallest subnormal or not.
	r := rand.New(rand.NewPCG(5, 105))
	for _, top := range []uint16{1024, 2045, 60} {
		for _, span := range []byte{20, 41, 42, 43, 44, 70, 71, 72, 88, 89, 90, 91, 118, 119, 120, 200} {
			data := []byte{byte(top), byte(top >> 8), span, byte(r.IntN(16)), 0x10, 0x27}
			for range 8 * 256 {
				data = append(data, byte(r.Uint32()))
			}
			f.Add(data, []byte{}, uint8(0))
		}
	}
	f.Fuzz(func(t *testing.T, data, rawBits []byte, off uint8) {
		reproFuzz[float64](t, data, rawBits, off)
		reproFuzz[float32](t, data, rawBits, off)
	})
}

func reproFuzz[T constraints.Float](t *testing.T, data, rawBits []byte, off uint8) {
	x := reproFuzzValues[T](data)
	bits, o := fuzzBitmap(rawBits, off, len(x))
	var vals []T
	for i, v := range x {
		if bits == nil || bits[(o+i)/8]>>((o+i)%8)&1 != 0 {
			vals = append(vals, v)
		}
	}
	want, wantExact := exactSum(vals), finiteSum(vals)
	var enc []byte
	for _, b := range availableBackends() {
		var s SumReproducibleState[T]
		s.add(b, x, bits, o, nil, false)
		if got := canonValue(s.acc.Canon()); got.Cmp(wantExact) != 0 {
			t.Fatalf("%s: %T state of %d values is off the exact sum by %s", b.name, T(0), len(x), new(big.Float).Sub(got, wantExact).Text('g', 10))
		}
		if got := s.Sum(); testkit.Bits(got) != testkit.Bits(want) {
			t.Fatalf("%s: %T sum of %d values = %v (%#x), exact %v (%#x)", b.name, got, len(x), got, testkit.Bits(got), want, testkit.Bits(want))
		}
		e, err := s.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if enc != nil && !bytes.Equal(e, enc) {
			t.Fatalf("%s: %T state of %d values encodes as %x, the first backend's as %x", b.name, T(0), len(x), e, enc)
		}
		enc = e
	}
}

// finiteSum is the exact sum of the finite values, in math/big.
func finiteSum[T constraints.Float](vals []T) *big.Float {
	sum, v := new(big.Float).SetPrec(2400), new(big.Float)
	for _, x := range vals {
		if f := float64(x); !math.IsNaN(f) && !math.IsInf(f, 0) {
			sum.Add(sum, v.SetFloat64(f))
		}
	}
	return sum
}

// canonValue is the exact sum a state's canonical form holds:
// Mag[i]·2^(40(Bot+i)-1074), negated when Neg.
func canonValue(c kernel.ReproCanon) *big.Float {
	sum, d := new(big.Float).SetPrec(2400), new(big.Float)
	for i, m := range c.Mag[:c.N] {
		d.SetUint64(m)
		sum.Add(sum, d.SetMantExp(d, 40*(c.Bot+i)-1074))
	}
	if c.Neg {
		sum.Neg(sum)
	}
	return sum
}
