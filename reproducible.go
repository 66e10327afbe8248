package quiver

import (
	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/kernel"
)

// SumReproducible returns the sum of the participating elements of a float
// slice, correctly rounded: the exact mathematical sum of the values,
// rounded once to T (to nearest, ties to even). The result is therefore a
// function of the multiset of participating values alone: the same bits
// on every backend and platform, for any order of the values, and for any
// split into batches, merge order or worker count through
// [SumReproducibleState].
//
// Special values, decided on the multiset too: a NaN among the values, or
// both +Inf and -Inf, gives the canonical quiet NaN (0x7FF8000000000000,
// 0x7FC00000 for float32); otherwise an infinity gives itself; otherwise
// an exact sum beyond the largest finite value rounds to ±Inf. An exact
// zero is -0.0 if every participating value is -0.0, and +0.0 otherwise,
// including when nothing participates.
//
// Choose [Sum] for speed with reproducibility per (version, backend); choose
// SumReproducible when the bits must agree across machines, orders,
// batches or core counts, or when accuracy matters. Its cost depends on
// where the input is: on the SIMD backends several times Sum's time in
// cache, close to it from DRAM, where both wait for memory (float64 on an
// AMD EPYC of the Zen 5 class: 5–7× at 4096 elements, 1.6× on AVX-512 and
// 2.8× on AVX2 at 1M, 1.2× on AVX-512 at 16M); in portable Go two to four
// times the plain loop. With a bitmap or a selection the participating
// values are first gathered into a buffer for the same kernels (see
// ADR-105 and docs/ledger.md). Float64 values more than 2^90 below the
// largest of their block of 4096 take a slower exact path.
//
// It panics as [Sum] does: if more than one Mask is given, if m's bitmap
// is too short for len(x) elements at its offset (see [Valid]), or if a
// selection index is len(x) or more.
func SumReproducible[T constraints.Float](x []T, m ...Mask) T {
	var s SumReproducibleState[T]
	s.Add(x, m...)
	return s.Sum()
}

// SumReproducibleState is the partial state of [SumReproducible]: feed it
// batches with Add or AddParallel, combine states with Merge in any order,
// and read the sum with Sum. Because the state holds the exact sum of what
// it was fed, Sum gives the bits SumReproducible gives over all the values
// at once, however they were cut, ordered, merged or spread over
// goroutines, on every backend and platform.
//
// The zero value is an empty state, ready to use. A state is about 460
// bytes and allocates nothing; it is not safe for concurrent use (give
// each goroutine its own and merge them).
type SumReproducibleState[T constraints.Float] struct {
	acc kernel.ReproAcc
}

// Add feeds the participating elements of x to the state, with the same
// Mask rules and panics as [Sum]. It does not allocate.
func (s *SumReproducibleState[T]) Add(x []T, m ...Mask) {
	bits, off, sel, hasSel := maskOf(len(x), m)
	s.add(active.Load(), x, bits, off, sel, hasSel)
}

// add feeds validated input to the state on backend b.
func (s *SumReproducibleState[T]) add(b *backend, x []T, bits []byte, off int, sel []uint32, hasSel bool) {
	kernel.ReproAdd(b.isa, &s.acc, x, bits, off, sel, hasSel)
}

// Merge adds other's values to s, as if they had been fed to s; other is
// unchanged. Merging is exact, so states merge in any order and any
// grouping with the same result. A nil other adds nothing.
func (s *SumReproducibleState[T]) Merge(other *SumReproducibleState[T]) {
	if other == nil {
		return
	}
	if other == s {
		o := *other
		s.acc.Merge(&o.acc)
		return
	}
	s.acc.Merge(&other.acc)
}

// Sum returns the sum of every value fed to the state, as
// [SumReproducible] defines it. It does not change the state, so feeding
// can go on.
func (s *SumReproducibleState[T]) Sum() T { return kernel.ReproSum[T](&s.acc) }

// Reset empties the state.
func (s *SumReproducibleState[T]) Reset() { *s = SumReproducibleState[T]{} }

// reproMinPerWorker is the input, in elements, that each goroutine of
// AddParallel must have at least. The exact sum costs several times Sum
// per element, so a goroutine pays for itself much earlier than for the
// other states: measured with float64 on the ledger's 2-vCPU machine, two
// workers were 26% slower than one at 131072 elements and 10% faster at
// 262144, 36% at 1048576. A variable so that tests can push small inputs
// through the goroutines; it never affects the result, which is exact.
var reproMinPerWorker = 1 << 17

// AddParallel feeds x to the state as [SumReproducibleState.Add] does, on
// up to workers goroutines (GOMAXPROCS when workers <= 0): x (or its
// selection) is cut into one part per goroutine, each part is summed into
// a state of its own, and the states are merged into s. The result is the
// same for every worker count and every cut, since merging is exact.
// Below 131072 elements per worker it runs on the calling goroutine. It
// panics as [Sum] does, before any goroutine starts, and returns when
// every goroutine has finished.
func (s *SumReproducibleState[T]) AddParallel(x []T, workers int, m ...Mask) {
	bits, off, sel, hasSel := maskOf(len(x), m)
	b := active.Load()
	for _, p := range reduceParts(x, bits, off, sel, hasSel, workers, reproMinPerWorker,
		func(x []T, bits []byte, off int, sel []uint32, hasSel bool) (p SumReproducibleState[T]) {
			p.add(b, x, bits, off, sel, hasSel)
			return p
		}) {
		s.Merge(&p)
	}
}
