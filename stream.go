package quiver

import (
	"github.com/quiverlabs/quiver/internal/kernel"
	"math"
	"math/big"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/oracle"
)

// Partial states. Each reduction has a state type that takes its input in
// batches (Add, with the same optional Mask and the same panics as the
// one-call function), merges with the state of the piece that follows it
// (Merge), and gives the result so far at any time. The zero value is an
// empty state, ready to use; Add and the result methods never allocate.
// A state is not safe for concurrent use: give each goroutine its own and
// merge them, or use AddParallel. The design is in docs/adr/104.

// maxBlock is the largest float block of any backend (AVX-512 float32:
// 4 accumulators of 16 lanes).
const maxBlock = 64

// SumState is the partial state of [Sum]: feeding the batches of a split
// input to Add, in order, gives the same bits as one Sum call over the
// whole input on the same backend, wherever the splits fall. The state
// carries the backend's ADR-013 lane accumulators and the unfinished block
// from one batch to the next, so that blocks start where one call would
// start them.
//
// Runs, merges and selections. The elements fed by Add without a
// selection form a run, summed in the ADR-013 order of the backend that
// was active when the run began. A state's sum is its carry (+0.0 at
// first) plus the sum of its run. [SumState.Merge] and a batch with a
// selection end the run: Merge makes the carry the sum so far plus the
// merged state's carry and continues with the merged state's run; a
// selected batch adds its elements to the sum so far one at a time in
// selection order, the strict fold of Sum over a selection, continued.
// So merging the states of consecutive pieces, left to right, gives the
// strict left fold of the pieces' sums, a result that depends on where
// the pieces were cut (ADR-104); use [SumReproducibleState] for a float
// sum that does not.
type SumState[T constraints.Float] struct {
	b       *backend    // the backend of the current run; nil until it has an element
	carry   T           // the sum of what came before the current run
	carried bool        // the state has a carry: a merge or a selected batch
	npend   int         // elements in the unfinished block
	lanes   [maxBlock]T // the run's A×W accumulators, +0.0 at first
	pend    [maxBlock]T // the unfinished block: values, -0.0 where not participating
}

// Add feeds the batch x, with the optional Mask m, to the state. It panics
// as [Sum] does, before changing the state.
func (s *SumState[T]) Add(x []T, m ...Mask) {
	if bits, off, ok := bitmapSpan(len(x), m); ok {
		s.addRun(active.Load(), x, bits, off)
		return
	}
	bits, off, sel, hasSel := maskOfInLoop(len(x), m) // addSelected checks sel
	if hasSel {
		s.addSelected(x, bits, off, sel)
		return
	}
	s.addRun(active.Load(), x, bits, off)
}

// addRun adds x to the current run, starting one on b if there is none.
func (s *SumState[T]) addRun(b *backend, x []T, bits []byte, off int) {
	if len(x) == 0 {
		return
	}
	if s.b == nil {
		s.b = b
	}
	block := floatBlock[T](s.b)
	negZero := T(math.Copysign(0, -1))
	i := 0
	if s.npend > 0 {
		// Complete the unfinished block first; a completed block goes
		// through the lanes as the block it is in one call.
		for ; i < len(x) && s.npend < block; i++ {
			v := x[i]
			if p := off + i; bits != nil && bits[p>>3]>>(p&7)&1 == 0 {
				v = negZero
			}
			s.pend[s.npend] = v
			s.npend++
		}
		if s.npend < block {
			return
		}
		sumLanesOn(s.b, s.lanes[:block], s.pend[:block], nil, 0)
		s.npend = 0
	}
	if full := (len(x) - i) &^ (block - 1); full > 0 { // blocks are powers of two (register)
		bs, o := bitSpan(bits, off+i, full)
		sumLanesOn(s.b, s.lanes[:block], x[i:i+full], bs, o)
		i += full
	}
	for ; i < len(x); i++ {
		v := x[i]
		if p := off + i; bits != nil && bits[p>>3]>>(p&7)&1 == 0 {
			v = negZero
		}
		s.pend[s.npend] = v
		s.npend++
	}
}

// addSelected ends the run and adds the selected valid elements to the sum
// so far in selection order. It checks each index as it reads it, and
// panics before it changes the state.
func (s *SumState[T]) addSelected(x []T, bits []byte, off int, sel []uint32) {
	s.endRun(kernel.FoldSelected(s.Sum(), x, bits, off, sel))
}

// endRun makes c the state's carry and starts an empty run.
func (s *SumState[T]) endRun(c T) {
	if s.b != nil {
		s.lanes = [maxBlock]T{}
		s.b, s.npend = nil, 0
	}
	s.carry, s.carried = c, true
}

// Merge adds to s the state next of the piece of input that follows s's,
// as described at [SumState]: s's sum so far becomes the carry, plus next's
// carry, and s continues with next's run. Merging a state that was never
// fed anything changes nothing. next is not modified.
func (s *SumState[T]) Merge(next *SumState[T]) {
	if next.b == nil && !next.carried {
		return
	}
	c := s.Sum()
	if s.b != nil || s.carried {
		c += next.carry // +0.0 when next has no carry: c is never -0.0
	} else {
		c = next.carry
	}
	carried := s.carried || s.b != nil || next.carried
	*s = *next
	s.carry, s.carried = c, carried
}

// Sum returns the sum of everything fed so far: with no merge and no
// selection, exactly what Sum returns for the concatenated batches on the
// backend the run began on.
func (s *SumState[T]) Sum() T {
	if s.b == nil {
		return s.carry
	}
	v := s.runSum()
	if s.carried {
		return s.carry + v
	}
	return v
}

// runSum is the run's sum in ADR-013 order: the lanes folded, then the
// unfinished block in index order.
func (s *SumState[T]) runSum() T {
	acc := s.lanes // a copy: the run goes on after Sum
	v := kernel.FoldLanes(acc[:], floatPolicy[T](s.b))
	for _, e := range s.pend[:s.npend] {
		v += e
	}
	return v
}

// Reset empties the state.
func (s *SumState[T]) Reset() { *s = SumState[T]{} }

// IntSumState is the partial state of [SumInt] and [SumChecked]: it keeps
// the exact sum of everything fed so far in 128 bits, so that its results
// are those of one call over the concatenated batches whatever the
// splits, and merges exactly in any order. The exact total is available
// even where it leaves 64 bits; 128 bits hold the sum of fewer than 2^63
// elements of any integer type.
type IntSumState[T constraints.Signed] struct {
	sum num.Int128
}

// Add feeds the batch x, with the optional Mask m, to the state. It panics
// as [SumInt] does, before changing the state.
func (s *IntSumState[T]) Add(x []T, m ...Mask) {
	if len(m) == 0 && len(x) < kernel.SmallCut {
		s.sum = s.sum.Add128(kernel.CheckedInts(x))
		return
	}
	if bits, off, ok := bitmapSpan(len(x), m); ok {
		s.sum = s.sum.Add128(exactOn(active.Load(), x, bits, off, nil, false))
		return
	}
	bits, off, sel, hasSel := maskOf(len(x), m)
	s.sum = s.sum.Add128(exactOn(active.Load(), x, bits, off, sel, hasSel))
}

// Merge adds the state other to s. Integer sums are exact, so the order
// of merges does not matter. other is not modified.
func (s *IntSumState[T]) Merge(other *IntSumState[T]) { s.sum = s.sum.Add128(other.sum) }

// Sum returns the sum so far wrapped to int64, as [SumInt] does.
func (s *IntSumState[T]) Sum() int64 { return int64(s.sum.Lo) }

// Checked returns the sum so far as [SumChecked] does: the wrapped sum and
// whether the exact sum is outside int64.
func (s *IntSumState[T]) Checked() CheckedSum[int64] {
	v, o := s.sum.Int64()
	return CheckedSum[int64]{v, o}
}

// Exact returns the exact sum so far as a new big.Int.
func (s *IntSumState[T]) Exact() *big.Int { return bigOf(s.sum) }

// Reset empties the state.
func (s *IntSumState[T]) Reset() { *s = IntSumState[T]{} }

// UintSumState is [IntSumState] for unsigned elements: the partial state
// of [SumUint] and [SumCheckedUint].
type UintSumState[T constraints.Unsigned] struct {
	sum num.Int128
}

// Add feeds the batch x, with the optional Mask m, to the state. It panics
// as [SumUint] does, before changing the state.
func (s *UintSumState[T]) Add(x []T, m ...Mask) {
	if len(m) == 0 && len(x) < kernel.SmallCut {
		s.sum = s.sum.Add128(kernel.CheckedInts(x))
		return
	}
	if bits, off, ok := bitmapSpan(len(x), m); ok {
		s.sum = s.sum.Add128(exactOn(active.Load(), x, bits, off, nil, false))
		return
	}
	bits, off, sel, hasSel := maskOf(len(x), m)
	s.sum = s.sum.Add128(exactOn(active.Load(), x, bits, off, sel, hasSel))
}

// Merge adds the state other to s, exactly, in any order. other is not
// modified.
func (s *UintSumState[T]) Merge(other *UintSumState[T]) { s.sum = s.sum.Add128(other.sum) }

// Sum returns the sum so far wrapped to uint64, as [SumUint] does.
func (s *UintSumState[T]) Sum() uint64 { return s.sum.Lo }

// Checked returns the sum so far as [SumCheckedUint] does.
func (s *UintSumState[T]) Checked() CheckedSum[uint64] {
	v, o := s.sum.Uint64()
	return CheckedSum[uint64]{v, o}
}

// Exact returns the exact sum so far as a new big.Int.
func (s *UintSumState[T]) Exact() *big.Int { return bigOf(s.sum) }

// Reset empties the state.
func (s *UintSumState[T]) Reset() { *s = UintSumState[T]{} }

// bigOf returns a as a big.Int.
func bigOf(a num.Int128) *big.Int {
	z := new(big.Int).SetInt64(a.Hi)
	z.Lsh(z, 64)
	return z.Add(z, new(big.Int).SetUint64(a.Lo))
}

// SummaryState is the partial state of [Summarize], [Min], [Max] and
// [MinMax]: its results are those of one call over the concatenated
// batches, with the same rules (canonical NaN, first of equal values
// across batches too, identities when nothing participated), and merging
// the states of consecutive pieces in order gives the state of their
// concatenation. A state computes both kernel.Extremes, as Summarize does.
type SummaryState[T Number] struct {
	lo, hi       T    // the kernel.Extremes of the non-NaN participating elements
	have         bool // lo and hi hold values
	nan          bool // a participating NaN was seen
	count, nulls int
}

// Add feeds the batch x, with the optional Mask m, to the state. It panics
// as [Summarize] does, before changing the state.
func (s *SummaryState[T]) Add(x []T, m ...Mask) {
	var lo, hi T
	var count, nulls int
	if len(m) == 0 && len(x) < kernel.SmallCut {
		lo, hi, count = kernel.SummarySmall(x, nil, 0, kernel.WantBoth)
	} else if bits, off, ok := bitmapSpan(len(x), m); ok {
		lo, hi, count, nulls = summarizeOn(active.Load(), x, bits, off, nil, false, kernel.WantBoth)
	} else {
		lo, hi, count, nulls = summarize(active.Load(), x, m, kernel.WantBoth)
	}
	s.add(lo, hi, count, nulls)
}

// add merges a summary whose kernel.Extremes are the canonical NaN if any element
// was NaN and are otherwise meaningful when count > 0.
func (s *SummaryState[T]) add(lo, hi T, count, nulls int) {
	s.count += count
	s.nulls += nulls
	switch {
	case count == 0 || s.nan:
	case lo != lo: // NaN; only floats
		s.nan = true
	case !s.have:
		s.lo, s.hi, s.have = lo, hi, true
	default:
		// Strict comparisons keep the earlier of equal values.
		if lo < s.lo {
			s.lo = lo
		}
		if hi > s.hi {
			s.hi = hi
		}
	}
}

// Merge adds to s the state next of the piece of input that follows s's.
// For equal kernel.Extremes (+0.0 and -0.0) s's, the earlier, wins, so merges
// must follow input order for the sign of a zero result; everything else
// is the same in any order. next is not modified.
func (s *SummaryState[T]) Merge(next *SummaryState[T]) {
	switch {
	case next.nan:
		s.add(num.NaN[T](), num.NaN[T](), next.count, next.nulls)
	case next.have:
		s.add(next.lo, next.hi, next.count, next.nulls)
	default:
		s.count += next.count
		s.nulls += next.nulls
	}
}

// Summary returns the summary so far, as [Summarize] over the
// concatenated batches.
func (s *SummaryState[T]) Summary() Summary[T] {
	lo, hi := s.MinMax()
	return Summary[T]{Min: lo, Max: hi, Count: s.count, Nulls: s.nulls}
}

// Min returns the minimum so far, as [Min] over the concatenated batches.
func (s *SummaryState[T]) Min() T { lo, _ := s.MinMax(); return lo }

// Max returns the maximum so far, as [Max] over the concatenated batches.
func (s *SummaryState[T]) Max() T { _, hi := s.MinMax(); return hi }

// MinMax returns the minimum and maximum so far, as [MinMax].
func (s *SummaryState[T]) MinMax() (lo, hi T) {
	switch {
	case s.nan:
		return num.NaN[T](), num.NaN[T]()
	case s.have:
		return s.lo, s.hi
	}
	return num.MaxOf[T](), num.LowestOf[T]()
}

// Reset empties the state.
func (s *SummaryState[T]) Reset() { *s = SummaryState[T]{} }

// CountState is the partial state of [CountValid]: the number of valid
// elements in the batches fed so far.
type CountState struct {
	count int
}

// Add counts the valid elements among n under the optional Mask m. It
// panics as [CountValid] does, before changing the state.
func (s *CountState) Add(n int, m ...Mask) { s.count += CountValid(n, m...) }

// Merge adds the count of other to s.
func (s *CountState) Merge(other *CountState) { s.count += other.count }

// Count returns the number of valid elements so far.
func (s *CountState) Count() int { return s.count }

// Reset empties the state.
func (s *CountState) Reset() { *s = CountState{} }

// floatPolicy is b's ADR-013 layout for T.
func floatPolicy[T constraints.Float](b *backend) oracle.Policy {
	if num.KindOf[T]() == num.Float32 {
		return b.policy32
	}
	return b.policy64
}

// floatBlock is b's block for T: A×W elements.
func floatBlock[T constraints.Float](b *backend) int { return floatPolicy[T](b).Block() }

// sumLanesOn adds x, whose length is a positive multiple of b's block for
// T (policy A×W), into the unfolded lane accumulators acc (A×W of them,
// accumulator a in acc[a*W:(a+1)*W]) in the order of ADR-013 step 1: the
// block phase of b's float sum, without the fold, so that a SumState can
// carry the accumulators from one batch to the next. It checks the lengths
// the kernels rely on: the caller cuts acc to b's block for T.
func sumLanesOn[T constraints.Float](b *backend, acc, x []T, bits []byte, off int) {
	if len(x) == 0 || len(x)&(len(acc)-1) != 0 {
		panic("quiver: internal error: lane accumulators or blocks of the wrong length")
	}
	kernel.SumLanes(b.isa, acc, x, bits, off)
}
