// Package oracle reproduces the float summation order of ADR-013 for any
// accumulator layout (A vector accumulators of W lanes), so that every SIMD
// backend has an exact, readable model to be tested against.
//
// The order, for n elements:
//
//  1. The first n - n%(A*W) elements form blocks of A*W. Within a block,
//     element a*W+w is added to lane w of accumulator a. Accumulators start
//     at +0.0. An element that does not participate adds -0.0, the exact
//     neutral of IEEE addition.
//  2. The accumulators combine pairwise, halving: for A=4, (0+2) and (1+3),
//     then the two results are added; for A=2, 0+1; for A=1 nothing.
//  3. The W lanes of the combined vector fold low to high into a scalar
//     that starts at +0.0.
//  4. The tail, n%(A*W) elements, is added to that scalar one element at a
//     time in index order.
//
// With A=1, W=1 this is exactly the strict left fold of package ref.
// Selected shapes are not blocked: they are the strict fold in selection
// order (ref.SumFloat).
package oracle

import (
	"math"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/ref"
)

// Policy is a backend's float accumulator layout for one element type.
type Policy struct {
	A int // vector accumulators
	W int // lanes per accumulator
}

// Block is the number of elements consumed per main-loop iteration.
func (p Policy) Block() int { return p.A * p.W }

// Sum adds the valid elements of x (bitmap bits from bit off; nil means
// all valid) in the order of policy p.
func Sum[T constraints.Float](x []T, bits []byte, off int, p Policy) T {
	if p.A < 1 || p.W < 1 || p.A&(p.A-1) != 0 {
		panic("oracle: A must be a power of two and W at least 1")
	}
	negZero := T(math.Copysign(0, -1))
	acc := make([][]T, p.A)
	for a := range acc {
		acc[a] = make([]T, p.W) // +0.0
	}
	block := p.Block()
	full := len(x) - len(x)%block
	for b := 0; b < full; b += block {
		for a := 0; a < p.A; a++ {
			for w := 0; w < p.W; w++ {
				i := b + a*p.W + w
				v := negZero
				if ref.Valid(bits, off, i) {
					v = x[i]
				}
				acc[a][w] += v
			}
		}
	}
	for half := p.A / 2; half >= 1; half /= 2 {
		for a := 0; a < half; a++ {
			for w := 0; w < p.W; w++ {
				acc[a][w] += acc[a+half][w]
			}
		}
	}
	s := T(0)
	for w := 0; w < p.W; w++ {
		s += acc[0][w]
	}
	for i := full; i < len(x); i++ {
		if ref.Valid(bits, off, i) {
			s += x[i]
		}
	}
	return s
}
