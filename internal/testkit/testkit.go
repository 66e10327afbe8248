// Package testkit makes the inputs that quiver's tests, fuzz targets and
// benchmarks share: values that stress the contract (NaN payloads, signed
// zeros, infinities, subnormals, integer limits) and validity bitmaps of a
// chosen null fraction at any bit offset.
package testkit

import (
	"math"
	"math/rand/v2"
	"unsafe"

	"github.com/quiverlabs/quiver/internal/num"
)

// Specials returns the edge values of T that the contract names.
func Specials[T num.Number]() []T {
	switch num.KindOf[T]() {
	case num.Float32:
		var out []T
		for _, b := range []uint32{
			0x7FC00000, 0xFFC00000, 0x7FC00001, 0x7F800001, 0xFFBFFFFF, // quiet/signalling NaNs, both signs, payloads
			0x00000000, 0x80000000, 0x7F800000, 0xFF800000, // ±0, ±Inf
			0x00000001, 0x80000001, 0x007FFFFF, // subnormals
			0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000,
		} {
			f := math.Float32frombits(b)
			out = append(out, T(f))
		}
		return out
	case num.Float64:
		var out []T
		for _, b := range []uint64{
			0x7FF8000000000000, 0xFFF8000000000000, 0x7FF8000000000001, 0x7FF0000000000001, 0xFFF7FFFFFFFFFFFF,
			0x0000000000000000, 0x8000000000000000, 0x7FF0000000000000, 0xFFF0000000000000,
			0x0000000000000001, 0x8000000000000001, 0x000FFFFFFFFFFFFF,
			0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF, 0x3FF0000000000000, 0xBFF0000000000000,
		} {
			f := math.Float64frombits(b)
			out = append(out, T(f))
		}
		return out
	}
	hi, lo := num.MaxOf[T](), num.LowestOf[T]()
	return []T{0, 1, hi, lo, hi - 1, lo + 1, T(hi / 2), T(lo / 2)}
}

// Bits returns the bit pattern of v, widened to 64 bits, so that results
// can be compared exactly (+0.0 differs from -0.0, NaN payloads differ).
func Bits[T num.Number](v T) uint64 {
	switch num.KindOf[T]() {
	case num.Float32:
		return uint64(math.Float32bits(float32(v)))
	case num.Float64:
		return math.Float64bits(float64(v))
	}
	return uint64(v)
}

// Style chooses what Values draws.
type Style int

const (
	// Plain values: floats of moderate magnitude (sums stay finite and
	// rounding happens), integers across their whole range.
	Plain Style = iota
	// Mixed: Plain with the contract's special values sprinkled in.
	Mixed
	// Small integers or small integral floats, so sums are exact and
	// order-independent.
	Small
	// Zeros: only +0.0 and -0.0 (ties of min and max).
	Zeros
)

// Values returns n values of T in the given style.
func Values[T num.Number](r *rand.Rand, n int, style Style) []T {
	x := make([]T, n)
	sp := Specials[T]()
	isFloat := num.IsFloat[T]()
	for i := range x {
		switch {
		case style == Zeros:
			if r.IntN(2) == 0 {
				x[i] = T(0)
			} else {
				z := math.Copysign(0, -1)
				x[i] = T(z)
			}
		case style == Small:
			x[i] = T(r.IntN(200) - 100)
			if !isFloat && num.LowestOf[T]() == 0 {
				x[i] = T(r.IntN(100))
			}
		case style == Mixed && r.IntN(8) == 0:
			x[i] = sp[r.IntN(len(sp))]
		case isFloat:
			f := (r.Float64()*2 - 1) * math.Pow(2, float64(r.IntN(40)-20))
			x[i] = T(f)
		default:
			x[i] = T(r.Uint64())
		}
	}
	return x
}

// Bitmap returns a validity bitmap for n elements at bit offset off, each
// element null with probability nullFrac. Bits outside off..off+n-1 are
// random too, so a kernel that reads them gives itself away. The slice is
// exactly as long as the contract requires.
func Bitmap(r *rand.Rand, n, off int, nullFrac float64) []byte {
	bm := make([]byte, (off+n+7)/8)
	for i := range bm {
		bm[i] = byte(r.Uint32())
	}
	for i := 0; i < n; i++ {
		p := off + i
		if r.Float64() < nullFrac {
			bm[p>>3] &^= 1 << (p & 7)
		} else {
			bm[p>>3] |= 1 << (p & 7)
		}
	}
	return bm
}

// Selection returns k random indices below n, duplicates allowed.
func Selection(r *rand.Rand, n, k int) []uint32 {
	sel := make([]uint32, k)
	for i := range sel {
		sel[i] = uint32(r.IntN(n))
	}
	return sel
}

// AlignedAt returns n elements of T that start off elements past a 64-byte
// boundary: a column that does not start on a vector boundary, as a
// sub-slice, a window or an Arrow array with an offset does. The address is
// only tested, never converted back.
func AlignedAt[T num.Number](n, off int) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	buf := make([]T, n+off+64/size)
	skip := 0
	for uintptr(unsafe.Pointer(&buf[skip]))%64 != 0 {
		skip++
	}
	return buf[skip+off : skip+off+n]
}
