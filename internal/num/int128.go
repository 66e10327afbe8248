package num

import "math/bits"

// Int128 is a two's complement 128-bit integer. Every exact integer sum in
// quiver accumulates in one: fewer than 2^63 values of magnitude at most
// 2^64 cannot overflow it.
type Int128 struct {
	Hi int64
	Lo uint64
}

// Add returns a + (hi×2^64 + lo).
func (a Int128) Add(hi int64, lo uint64) Int128 {
	var carry uint64
	a.Lo, carry = bits.Add64(a.Lo, lo, 0)
	a.Hi += hi + int64(carry)
	return a
}

// Sub returns a - (hi×2^64 + lo).
func (a Int128) Sub(hi int64, lo uint64) Int128 {
	var borrow uint64
	a.Lo, borrow = bits.Sub64(a.Lo, lo, 0)
	a.Hi -= hi + int64(borrow)
	return a
}

// AddInt64 returns a + v, v sign-extended.
func (a Int128) AddInt64(v int64) Int128 { return a.Add(v>>63, uint64(v)) }

// AddUint64 returns a + v.
func (a Int128) AddUint64(v uint64) Int128 { return a.Add(0, v) }

// FitsInt64 reports whether a is representable as an int64: its high word
// is the sign extension of its low one.
func (a Int128) FitsInt64() bool { return a.Hi == int64(a.Lo)>>63 }

// FitsUint64 reports whether a is representable as a uint64.
func (a Int128) FitsUint64() bool { return a.Hi == 0 }

// Int64 returns a's low 64 bits as an int64 (a modulo 2^64, two's
// complement) and whether a does not fit in an int64.
func (a Int128) Int64() (int64, bool) { return int64(a.Lo), !a.FitsInt64() }

// Uint64 returns a's low 64 bits and whether a does not fit in a uint64.
func (a Int128) Uint64() (uint64, bool) { return a.Lo, !a.FitsUint64() }

// Add128 returns a + b.
func (a Int128) Add128(b Int128) Int128 { return a.Add(b.Hi, b.Lo) }
