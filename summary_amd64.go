//go:build amd64 && !purego

package quiver

import "github.com/quiverlabs/quiver/internal/num"

// installSummaryKernels puts the summary family's kernels for set into b.
// MinMax and Summarize run the fused summary kernel; Min and Max of floats
// run kernels that compute only their extreme (integers run the fused one).
func installSummaryKernels(b *backend, set isa) {
	if set == isaAVX512 {
		b.f32.min = floatMin(summaryAsm[float32]{summaryMinDenseF32AVX512, summaryMinMaskedF32AVX512, 16, true})
		b.f32.max = floatMax(summaryAsm[float32]{summaryMaxDenseF32AVX512, summaryMaxMaskedF32AVX512, 16, true})
		b.f64.min = floatMin(summaryAsm[float64]{summaryMinDenseF64AVX512, summaryMinMaskedF64AVX512, 8, true})
		b.f64.max = floatMax(summaryAsm[float64]{summaryMaxDenseF64AVX512, summaryMaxMaskedF64AVX512, 8, true})
		b.f32.summary = floatSummary(summaryAsm[float32]{summaryDenseF32AVX512, summaryMaskedF32AVX512, 16, true})
		b.f64.summary = floatSummary(summaryAsm[float64]{summaryDenseF64AVX512, summaryMaskedF64AVX512, 8, true})
		b.i8.summary = intSummary(summaryAsm[int8]{summaryDenseI8AVX512, summaryMaskedI8AVX512, 64, true})
		b.i16.summary = intSummary(summaryAsm[int16]{summaryDenseI16AVX512, summaryMaskedI16AVX512, 32, true})
		b.i32.summary = intSummary(summaryAsm[int32]{summaryDenseI32AVX512, summaryMaskedI32AVX512, 16, true})
		b.i64.summary = intSummary(summaryAsm[int64]{summaryDenseI64AVX512, summaryMaskedI64AVX512, 8, true})
		b.u8.summary = intSummary(summaryAsm[uint8]{summaryDenseU8AVX512, summaryMaskedU8AVX512, 64, true})
		b.u16.summary = intSummary(summaryAsm[uint16]{summaryDenseU16AVX512, summaryMaskedU16AVX512, 32, true})
		b.u32.summary = intSummary(summaryAsm[uint32]{summaryDenseU32AVX512, summaryMaskedU32AVX512, 16, true})
		b.u64.summary = intSummary(summaryAsm[uint64]{summaryDenseU64AVX512, summaryMaskedU64AVX512, 8, true})
		return
	}
	b.f32.min = floatMin(summaryAsm[float32]{summaryMinDenseF32AVX2, summaryMinMaskedF32AVX2, 8, false})
	b.f32.max = floatMax(summaryAsm[float32]{summaryMaxDenseF32AVX2, summaryMaxMaskedF32AVX2, 8, false})
	b.f64.min = floatMin(summaryAsm[float64]{summaryMinDenseF64AVX2, summaryMinMaskedF64AVX2, 4, false})
	b.f64.max = floatMax(summaryAsm[float64]{summaryMaxDenseF64AVX2, summaryMaxMaskedF64AVX2, 4, false})
	b.f32.summary = floatSummary(summaryAsm[float32]{summaryDenseF32AVX2, summaryMaskedF32AVX2, 8, false})
	b.f64.summary = floatSummary(summaryAsm[float64]{summaryDenseF64AVX2, summaryMaskedF64AVX2, 4, false})
	b.i8.summary = intSummary(summaryAsm[int8]{summaryDenseI8AVX2, summaryMaskedI8AVX2, 32, false})
	b.i16.summary = intSummary(summaryAsm[int16]{summaryDenseI16AVX2, summaryMaskedI16AVX2, 16, false})
	b.i32.summary = intSummary(summaryAsm[int32]{summaryDenseI32AVX2, summaryMaskedI32AVX2, 8, false})
	b.i64.summary = intSummary(summaryAsm[int64]{summaryDenseI64AVX2, summaryMaskedI64AVX2, 4, false})
	b.u8.summary = intSummary(summaryAsm[uint8]{summaryDenseU8AVX2, summaryMaskedU8AVX2, 32, false})
	b.u16.summary = intSummary(summaryAsm[uint16]{summaryDenseU16AVX2, summaryMaskedU16AVX2, 16, false})
	b.u32.summary = intSummary(summaryAsm[uint32]{summaryDenseU32AVX2, summaryMaskedU32AVX2, 8, false})
	b.u64.summary = intSummary(summaryAsm[uint64]{summaryDenseU64AVX2, summaryMaskedU64AVX2, 4, false})
}

// summaryAsm is one element type's pair of generated summary kernels for
// one instruction set (see internal/asm/amd64/summary for what they do).
// The min-only and max-only kernels have the same signature: the extreme
// they do not compute comes back as its start, -Inf or +Inf.
type summaryAsm[T num.Number] struct {
	dense  func(x []T) (lo, hi T, nan bool)
	masked func(x []T, bits []byte, tail uint64) (lo, hi T, valid int, nan bool)
	// lanes is the vector width in elements.
	lanes int
	// tailInAsm: the kernels finish any length with a masked vector
	// (AVX-512); otherwise they take whole steps of max(lanes, 8) elements
	// and Go finishes the rest.
	tailInAsm bool
}

// run returns the min and max over the valid elements, folded from the
// order's extremes (±Inf for floats: see floatSummary), the valid count,
// and whether a valid element is NaN. A bitmap offset that is not a
// multiple of 8 is handled by folding the elements before the next byte
// boundary here, so the kernels see a byte-aligned bitmap without a copy.
func (k summaryAsm[T]) run(x []T, bits []byte, off int) (lo, hi T, valid int, nan bool) {
	lo, hi = summaryStart[T]()
	if bits == nil {
		m := len(x)
		if !k.tailInAsm {
			m &^= max(k.lanes, 8) - 1 // lanes is a power of two
		}
		if m > 0 {
			lo, hi, nan = k.dense(x[:m])
		}
		for _, v := range x[m:] {
			lo, hi, nan = summaryFold(lo, hi, nan, v)
		}
		return lo, hi, len(x), nan
	}
	h := min((8-off&7)&7, len(x))
	for i, v := range x[:h] {
		if p := off + i; bits[p>>3]>>(p&7)&1 != 0 {
			lo, hi, nan = summaryFold(lo, hi, nan, v)
			valid++
		}
	}
	x, bits = x[h:], bits[(off+h)>>3:]
	if len(x) == 0 {
		return lo, hi, valid, nan
	}
	m, tail := len(x), uint64(0)
	if k.tailInAsm {
		// The validity of the last len(x) mod lanes elements travels in
		// tail, read here byte by byte, so the kernel never loads a mask
		// wider than the bitmap that is left.
		r := len(x) % k.lanes
		full := len(x) - r
		for i := range (r + 7) / 8 {
			tail |= uint64(bits[full/8+i]) << (8 * i)
		}
		tail &= 1<<r - 1
	} else {
		m &^= max(k.lanes, 8) - 1
	}
	if m > 0 {
		l, h, c, n := k.masked(x[:m], bits, tail)
		lo, hi, nan = summaryMerge(lo, hi, nan, l, h, n)
		valid += c
	}
	for i, v := range x[m:] {
		if p := m + i; bits[p>>3]>>(p&7)&1 != 0 {
			lo, hi, nan = summaryFold(lo, hi, nan, v)
			valid++
		}
	}
	return lo, hi, valid, nan
}

// summaryFold folds one valid element into a partial result.
func summaryFold[T num.Number](lo, hi T, nan bool, v T) (T, T, bool) {
	if v != v {
		return lo, hi, true
	}
	return min(lo, v), max(hi, v), nan
}

// summaryMerge merges two partial results. Which of two equal zeros wins
// does not matter here: floatSummary settles it afterwards.
func summaryMerge[T num.Number](lo, hi T, nan bool, l, h T, n bool) (T, T, bool) {
	if l < lo {
		lo = l
	}
	if h > hi {
		hi = h
	}
	return lo, hi, nan || n
}

// intSummary wraps integer kernels: integer min and max are exact in any
// order, and the extremes the kernels start from are the identities.
func intSummary[T num.Number](k summaryAsm[T]) func(x []T, bits []byte, off int) (lo, hi T, valid int) {
	return func(x []T, bits []byte, off int) (lo, hi T, valid int) {
		lo, hi, valid, _ = k.run(x, bits, off)
		return lo, hi, valid
	}
}

// floatSummary wraps float kernels with the two rescues that make lane
// blocking bit-identical to the reference's left fold (canonical NaN, the
// first participating zero), and the identities when nothing is valid: see
// settleFloatSummary.
func floatSummary[T float32 | float64](k summaryAsm[T]) func(x []T, bits []byte, off int) (lo, hi T, valid int) {
	return func(x []T, bits []byte, off int) (lo, hi T, valid int) {
		lo, hi, valid, nan := k.run(x, bits, off)
		return settleFloatSummary(x, bits, off, lo, hi, valid, nan)
	}
}

// floatMin wraps min-only float kernels: settleFloatSummary's rescues for
// the one extreme, passed as both lo and hi (the max the kernel did not
// compute must not trigger the zero rescan). A dense column takes
// denseExtreme.
func floatMin[T float32 | float64](k summaryAsm[T]) func(x []T, bits []byte, off int) (lo T, valid int) {
	return func(x []T, bits []byte, off int) (lo T, valid int) {
		if bits == nil && len(x) > 0 {
			return k.denseExtreme(x, wantMin), len(x)
		}
		lo, _, valid, nan := k.run(x, bits, off)
		lo, _, valid = settleFloatSummary(x, bits, off, lo, lo, valid, nan)
		return lo, valid
	}
}

// floatMax is floatMin for max-only kernels.
func floatMax[T float32 | float64](k summaryAsm[T]) func(x []T, bits []byte, off int) (hi T, valid int) {
	return func(x []T, bits []byte, off int) (hi T, valid int) {
		if bits == nil && len(x) > 0 {
			return k.denseExtreme(x, wantMax), len(x)
		}
		_, hi, valid, nan := k.run(x, bits, off)
		_, hi, valid = settleFloatSummary(x, bits, off, hi, hi, valid, nan)
		return hi, valid
	}
}

// denseExtreme is the min (want == wantMin) or max (wantMax) of a
// non-empty dense column by a single-extreme kernel, called straight away
// (AVX2 kernels take whole steps, the rest is folded here): at L1 sizes
// the layers of run and settleFloatSummary cost as much as a tenth of the
// kernel, and neither rescue is needed unless the column has a NaN or a
// zero extreme.
func (k summaryAsm[T]) denseExtreme(x []T, want extremes) T {
	lo, hi := summaryStart[T]()
	nan := false
	m := len(x)
	if !k.tailInAsm {
		m &^= max(k.lanes, 8) - 1
	}
	if m > 0 {
		lo, hi, nan = k.dense(x[:m])
	}
	for _, v := range x[m:] {
		nan = nan || v != v
		lo, hi = min(lo, v), max(hi, v) // a NaN here is settled below
	}
	e := lo
	if want == wantMax {
		e = hi
	}
	if nan || e == 0 {
		e, _, _ = settleSummary(x, nil, 0, e, e, len(x), nan)
	}
	return e
}
