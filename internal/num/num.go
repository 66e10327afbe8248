// Package num holds the element-type facts that every other part of quiver
// needs: which machine type a type parameter stands for, its identities for
// min and max, and the canonical NaN.
package num

import (
	"math"
	"math/bits"
	"unsafe"

	"golang.org/x/exp/constraints"
)

// Number is every element type quiver reduces.
type Number interface {
	constraints.Integer | constraints.Float
}

// Kind names the machine representation behind a type parameter. Named
// types (type Celsius float64) share the kind of their underlying type.
type Kind uint8

// The kinds, one per machine representation.
const (
	Int8 Kind = iota
	Int16
	Int32
	Int64
	Uint8
	Uint16
	Uint32
	Uint64
	Float32
	Float64
)

var kindNames = [...]string{"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"}

func (k Kind) String() string { return kindNames[k] }

// KindOf reports the machine representation of T from three facts the
// compiler folds per instantiation: its size, whether it keeps a fraction,
// and whether it goes below zero. No reflection is involved, and it is
// small enough to inline, so that a test of the kind in a short loop's
// caller costs nothing (a call here cost more than a short loop's work).
func KindOf[T Number]() Kind {
	var zero T
	size := unsafe.Sizeof(zero)
	if IsFloat[T]() {
		return Float32 + Kind(size>>3) // 4 bytes: Float32, 8: Float64
	}
	k := Int8 + Kind(bits.TrailingZeros(uint(size))) // 1, 2, 4, 8 bytes
	if zero-1 > 0 {
		k += Uint8 - Int8
	}
	return k
}

// IsFloat reports whether T is a floating-point type: whether it keeps
// the half of one.
func IsFloat[T Number]() bool {
	half := T(1)
	half /= 2
	return half != 0
}

// Cast reinterprets a slice of T as a slice of U. The caller guarantees that
// T and U have the same underlying type (KindOf agrees), so the two slice
// types have the same memory layout and the conversion is valid under the
// unsafe.Pointer rules; no data is copied. The result's capacity is its
// length, as the input's was cut, so that nothing below can reslice past
// what the caller passed.
//
// The slice is reinterpreted whole rather than rebuilt with unsafe.Slice:
// unsafe.Slice checks length × size for overflow and panics, which cost
// ten instructions and a branch in every kernel entry of a short call and
// kept small wrappers from inlining.
func Cast[U, T any](x []T) []U {
	y := *(*[]U)(unsafe.Pointer(&x))
	return y[:len(y):len(y)]
}

// Canonical quiet NaN bit patterns. Go's math.NaN() is 0x7FF8000000000001,
// which is not the canonical value.
const (
	CanonicalNaN32 uint32 = 0x7FC00000
	CanonicalNaN64 uint64 = 0x7FF8000000000000
)

// NaN returns the canonical quiet NaN of float type T.
func NaN[T Number]() T {
	if KindOf[T]() == Float32 {
		return T(math.Float32frombits(CanonicalNaN32))
	}
	return T(math.Float64frombits(CanonicalNaN64))
}

// MaxOf is the identity of min: the largest value of T (for floats the
// largest finite value, as C++ numeric_limits<T>::max()).
func MaxOf[T Number]() T {
	// Conversions from variables, not constants: a constant conversion must
	// be valid for every type in T's type set, which no single limit is.
	switch k := KindOf[T](); k {
	case Float32:
		f := float64(math.MaxFloat32)
		return T(f)
	case Float64:
		f := math.MaxFloat64
		return T(f)
	case Int8, Int16, Int32, Int64:
		v := int64(math.MaxInt64) >> (64 - bitsOf(k))
		return T(v)
	default:
		v := uint64(math.MaxUint64) >> (64 - bitsOf(k))
		return T(v)
	}
}

// LowestOf is the identity of max: the lowest value of T (for floats the
// most negative finite value, as C++ numeric_limits<T>::lowest()).
func LowestOf[T Number]() T {
	switch k := KindOf[T](); k {
	case Float32:
		f := -float64(math.MaxFloat32)
		return T(f)
	case Float64:
		f := -math.MaxFloat64
		return T(f)
	case Int8, Int16, Int32, Int64:
		v := int64(math.MinInt64) >> (64 - bitsOf(k))
		return T(v)
	default:
		return 0
	}
}

// bitsOf is the width of an integer kind in bits.
func bitsOf(k Kind) uint {
	return 8 << ((k - Int8) % 4)
}
