package quiver

import (
	"fmt"
	"slices"
	"sync/atomic"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/oracle"
	"github.com/quiverlabs/quiver/internal/ref"
)

// A backend is one complete set of kernels, registered by name, in the
// spirit of the standard library's crypto/internal/impl. Adding a backend
// means filling one of these in a backend_*.go file and registering it;
// the public API and the tests do not change, because the tests run every
// registered backend that the CPU offers.
//
// Kernels are only called with validated input: bits is nil (all valid)
// or the exact span of the elements' bits from bit off < 8; selection
// indices are checked by the selection kernels themselves (see selSum).
// The selection kernels start as the Go loops of select.go on every
// backend.
type backend struct {
	name      string
	priority  int  // higher wins among available backends
	available bool // the CPU (and build) can run it

	// Float sum layouts under ADR-013, reproduced by oracle.Sum.
	policy32, policy64 oracle.Policy
	// lanes names the backend's lane-carrying float sums (see
	// sumLanesOn): the block phase of its float sum kernels on
	// accumulators that a SumState keeps from one batch to the next.
	lanes lanesKernel
	// cut32 and cut64 are the lengths below which a float sum runs the
	// inline strict loop (small.go): smallCut, or the policy's block if
	// shorter. Set by register.
	cut32, cut64 int
	// wideWordCut is the length from which a masked sum of 32- or 64-bit
	// integers (SumInt, SumUint), and a checked sum with or without a
	// bitmap, runs the backend's kernel instead of the inline loops of
	// small.go: smallCut (never) unless the backend has SIMD sum kernels.
	// Narrower elements fill less than one kernel step below smallCut
	// and keep the loops.
	wideWordCut int

	f32 kernelSet[float32, float32]
	f64 kernelSet[float64, float64]
	i8  kernelSet[int8, int64]
	i16 kernelSet[int16, int64]
	i32 kernelSet[int32, int64]
	i64 kernelSet[int64, int64]
	u8  kernelSet[uint8, uint64]
	u16 kernelSet[uint16, uint64]
	u32 kernelSet[uint32, uint64]
	u64 kernelSet[uint64, uint64]

	// Exact sums of 64-bit elements, in 128 bits. Narrower types need no
	// kernel of their own: SumChecked adds exact chunk sums (see checked.go).
	checkedI64 func(x []int64, bits []byte, off int) num.Int128
	checkedU64 func(x []uint64, bits []byte, off int) num.Int128

	// countValid counts the set bits among bits off..off+n-1.
	countValid func(bits []byte, off, n int) int

	// selCount counts the selected entries whose bit is set (all of them
	// when bits is nil).
	selCount func(bits []byte, off int, sel []uint32) int
	// selMax is an optional kernel for the largest index of a non-empty
	// selection, behind the index check; nil means the Go loop.
	selMax func(sel []uint32) uint32

	// Kernels of the reproducible float sum (reproducible.go, ADR-105);
	// the portable ones unless the backend installs its own.
	repro32 reproKernels[float32]
	repro64 reproKernels[float64]
}

// kernelSet holds a backend's kernels for element type T with sum type S.
type kernelSet[T num.Number, S int64 | uint64 | float32 | float64] struct {
	// sum adds the valid elements: wrapping for integers, the backend's
	// float policy for floats.
	sum func(x []T, bits []byte, off int) S
	// summary returns the min and max of the valid elements under the
	// rules of ref.Summary (canonical NaN, first of equal values, identities
	// when empty) and the number of valid elements.
	summary func(x []T, bits []byte, off int) (lo, hi T, valid int)
	// min and max are optional single-extreme kernels for Min and Max:
	// the lo or hi that summary would return, under the same rules, and the
	// valid count. Computing one extreme costs less than both. nil means
	// Min and Max run summary.
	min func(x []T, bits []byte, off int) (lo T, valid int)
	max func(x []T, bits []byte, off int) (hi T, valid int)

	// selSum and selSummary are sum and summary over the selection sel,
	// in selection order: the Go loops of select.go, or gather kernels
	// where a backend has faster ones. selSummary computes what want asks
	// for; valid is the participating count with wantBoth (with wantMin
	// or wantMax it may be any positive number when something took part).
	// Both must check each selection index themselves before reading it
	// (see maskOfInLoop): the Go loops in the loop that reads, a gather
	// kernel's wrapper before the gathers.
	selSum     func(x []T, bits []byte, off int, sel []uint32) S
	selSummary func(x []T, bits []byte, off int, sel []uint32, want extremes) (lo, hi T, valid int)
}

var (
	registry []*backend
	active   atomic.Pointer[backend]
)

// register adds b to the registry. Backends register from package-level
// variable initializers, which all run before init, so the init below sees
// every one of them.
func register(b *backend) *backend {
	for _, p := range []oracle.Policy{b.policy32, b.policy64} {
		// SumState cuts whole blocks with a mask, not a division.
		if blk := p.Block(); blk&(blk-1) != 0 || blk > maxBlock {
			panic(fmt.Sprintf("quiver: backend %s: float block %d is not a power of two up to %d", b.name, blk, maxBlock))
		}
	}
	b.cut32, b.cut64 = floatCut(b.policy32), floatCut(b.policy64)
	if b.wideWordCut == 0 {
		b.wideWordCut = smallCut
	}
	registry = append(registry, b)
	slices.SortStableFunc(registry, func(x, y *backend) int { return y.priority - x.priority })
	return b
}

// floatCut is the length below which a float sum under policy p is the
// strict fold: its block, where the blocked order starts, or smallCut
// for a strict backend (one lane), whose order is the strict fold at
// every length.
func floatCut(p oracle.Policy) int {
	if p.Block() == 1 {
		return smallCut
	}
	return min(smallCut, p.Block())
}

func init() {
	for _, b := range registry {
		if b.available {
			active.Store(b)
			return
		}
	}
}

// The scalar backend is the reference: strict float sums (A=1), one
// accumulator everywhere, with the dense sum written as the plain loop the
// reference reduces to (scalarSum). It is always available and is the only
// backend built with -tags purego.
var scalarBackend = register(&backend{
	name:      "scalar",
	priority:  0,
	available: true,
	policy32:  oracle.Policy{A: 1, W: 1},
	policy64:  oracle.Policy{A: 1, W: 1},
	f32:       scalarFloatKernels[float32](),
	f64:       scalarFloatKernels[float64](),
	i8:        scalarIntKernels[int8, int64](),
	i16:       scalarIntKernels[int16, int64](),
	i32:       scalarIntKernels[int32, int64](),
	i64:       scalarIntKernels[int64, int64](),
	u8:        scalarIntKernels[uint8, uint64](),
	u16:       scalarIntKernels[uint16, uint64](),
	u32:       scalarIntKernels[uint32, uint64](),
	u64:       scalarIntKernels[uint64, uint64](),
	checkedI64: func(x []int64, bits []byte, off int) num.Int128 {
		return ref.SumExact(x, ref.Mask{Bits: bits, Off: off})
	},
	checkedU64: func(x []uint64, bits []byte, off int) num.Int128 {
		return ref.SumExact(x, ref.Mask{Bits: bits, Off: off})
	},
	countValid: func(bits []byte, off, n int) int { return ref.CountValid(n, ref.Mask{Bits: bits, Off: off}) },
	selCount:   selCount,
})

func scalarFloatKernels[T float32 | float64]() kernelSet[T, T] {
	return kernelSet[T, T]{sum: scalarSum[T, T], summary: scalarSummary[T],
		selSum: selSumFloat[T], selSummary: selSummaryFloat[T]}
}

func scalarIntKernels[T constraints.Integer, S int64 | uint64]() kernelSet[T, S] {
	return kernelSet[T, S]{sum: scalarSum[T, S], summary: scalarSummary[T],
		selSum: selSumInt[T, S], selSummary: selSummaryInt[T]}
}

// scalarSum is the reference sum. Without a bitmap the reference's fold is
// exactly the plain loop below (same order, one accumulator), written out
// so that the strict path, and every speedup quoted against it, is not
// slowed by per-element participation tests that cannot fail.
func scalarSum[T num.Number, S int64 | uint64 | float32 | float64](x []T, bits []byte, off int) S {
	if bits == nil {
		var s S
		for _, v := range x {
			s += S(v)
		}
		return s
	}
	var s S
	for i, v := range x {
		if ref.Valid(bits, off, i) {
			s += S(v)
		}
	}
	return s
}

func scalarSummary[T num.Number](x []T, bits []byte, off int) (lo, hi T, valid int) {
	lo, hi, valid, _ = ref.Summary(x, ref.Mask{Bits: bits, Off: off})
	return lo, hi, valid
}

// FloatPolicy is a backend's float summation layout under ADR-013: blocks
// of Accumulators × Lanes elements go into Accumulators vector registers of
// Lanes lanes each. The scalar backend's {1, 1} is the strict left fold.
type FloatPolicy struct {
	Accumulators int
	Lanes        int
}

// BackendInfo describes one compiled-in backend.
type BackendInfo struct {
	Name      string      // "scalar", "generic", "avx2", "avx512", "neon"
	Available bool        // whether this CPU can run it
	Float32   FloatPolicy // float32 sum layout
	Float64   FloatPolicy // float64 sum layout
}

func (b *backend) info() BackendInfo {
	return BackendInfo{
		Name:      b.name,
		Available: b.available,
		Float32:   FloatPolicy{b.policy32.A, b.policy32.W},
		Float64:   FloatPolicy{b.policy64.A, b.policy64.W},
	}
}

// ActiveBackend describes the backend that reductions run on: the best
// available one, unless [SetBackend] chose another.
func ActiveBackend() BackendInfo {
	return active.Load().info()
}

// Backends lists every backend compiled into this build, most preferred
// first, available or not.
func Backends() []BackendInfo {
	out := make([]BackendInfo, len(registry))
	for i, b := range registry {
		out[i] = b.info()
	}
	return out
}

// SetBackend makes every later reduction run on the named backend, for
// benchmarks and tests that compare backends. It fails if the backend is
// not compiled in or the CPU cannot run it. Reductions already running
// finish on the backend they started with.
func SetBackend(name string) error {
	for _, b := range registry {
		if b.name == name {
			if !b.available {
				return fmt.Errorf("quiver: backend %q is not available on this CPU", name)
			}
			active.Store(b)
			return nil
		}
	}
	return fmt.Errorf("quiver: no backend %q in this build", name)
}
