package quiver

import (
	"fmt"
	"math/bits"
	"slices"
	"sync/atomic"
	"unsafe"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/kernel"
	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/oracle"
)

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

// A backend is one instruction set the kernels run on, registered by
// name, in the spirit of the standard library's crypto/internal/impl: its
// kernel.ISA value, which every kernel family's dispatch switches on
// (internal/kernel/dispatch_<arch>.go), and what the API needs to know
// about it. Adding a backend means a new kernel.ISA with its cases in the
// dispatch switches and registering it in a backend_*.go file; the public
// API and the tests do not change, because the tests run every
// registered backend that the CPU offers.
//
// Kernels are only called with validated input: bits is nil (all valid)
// or the exact span of the elements' bits from bit off < 8; selection
// indices are checked by the selection kernels themselves.
type backend struct {
	name      string
	priority  int  // higher wins among available backends
	available bool // the CPU (and build) can run it
	isa       kernel.ISA

	// Float sum layouts under ADR-013, reproduced by oracle.Sum (from
	// the ISA; set by register).
	policy32, policy64 oracle.Policy
	// cut32 and cut64 are the lengths below which a float sum runs the
	// inline strict loop (kernel/short.go): kernel.SmallCut, or the
	// policy's block if shorter. Set by register.
	cut32, cut64 int
	// lanes32 and lanes64 are the policies' W when a dense float sum of
	// one block up to two runs kernel.BlockSum (see
	// kernel.ISA.BlockSumsInGo), else 0. Set by register.
	lanes32, lanes64 int
	// intSumCuts[k] is kernel.ISA.DenseIntSumCut for elements of 1<<k
	// bytes: the length from which a dense SumInt or SumUint runs the
	// backend's kernel instead of the inline loop. Set by register.
	intSumCuts [4]int
	// wideWordCut is the length from which a masked sum of 32- or 64-bit
	// integers (SumInt, SumUint), and a checked sum with or without a
	// bitmap, runs the backend's kernel instead of the inline loops (see
	// kernel.ISA.WideWordCut). Set by register.
	wideWordCut int
}

var (
	registry []*backend
	active   atomic.Pointer[backend]
)

// register adds the backend for isa to the registry. Backends register
// from package-level variable initializers, which all run before init, so
// the init below sees every one of them.
func register(name string, priority int, available bool, isa kernel.ISA) *backend {
	b := &backend{name: name, priority: priority, available: available, isa: isa,
		policy32: isa.Policy32(), policy64: isa.Policy64(), wideWordCut: isa.WideWordCut()}
	for k := range b.intSumCuts {
		b.intSumCuts[k] = isa.DenseIntSumCut(1 << k)
	}
	for _, p := range []oracle.Policy{b.policy32, b.policy64} {
		// SumState cuts whole blocks with a mask, not a division.
		if blk := p.Block(); blk&(blk-1) != 0 || blk > maxBlock {
			panic(fmt.Sprintf("quiver: backend %s: float block %d is not a power of two up to %d", b.name, blk, maxBlock))
		}
	}
	b.cut32, b.cut64 = floatCut(b.policy32), floatCut(b.policy64)
	if isa.BlockSumsInGo() && b.policy32.A == 4 && b.policy64.A == 4 &&
		b.cut32 == b.policy32.Block() && b.cut64 == b.policy64.Block() {
		b.lanes32, b.lanes64 = b.policy32.W, b.policy64.W
	}
	registry = append(registry, b)
	slices.SortStableFunc(registry, func(x, y *backend) int { return y.priority - x.priority })
	return b
}

// floatCut is the length below which a float sum under policy p is the
// strict fold: its block, where the blocked order starts, or
// kernel.SmallCut for a strict backend (one lane), whose order is the
// strict fold at every length.
func floatCut(p oracle.Policy) int {
	if p.Block() == 1 {
		return kernel.SmallCut
	}
	return min(kernel.SmallCut, p.Block())
}

// floatSmallCut is the length below which a float sum runs the strict
// loop on b: the smaller of kernel.SmallCut and b's block for T.
func floatSmallCut[T constraints.Float](b *backend) int {
	var zero T
	if unsafe.Sizeof(zero) == 4 { // a constant of T's shape: this inlines
		return b.cut32
	}
	return b.cut64
}

// blockLanes is b's lanes32 or lanes64 for T: with w > 0 a dense float
// sum of 4*w <= n < 8*w elements runs kernel.BlockSum(x, w), but for
// n = 4*w with w >= 8 (see kernel.ISA.BlockSumsInGo).
func blockLanes[T constraints.Float](b *backend) int {
	var zero T
	if unsafe.Sizeof(zero) == 4 { // a constant of T's shape: this inlines
		return b.lanes32
	}
	return b.lanes64
}

// wordCut is the length below which a masked integer sum of T runs the
// inline loop over one validity word on b (see backend.wideWordCut).
func wordCut[T Number](b *backend) int {
	var zero T
	if unsafe.Sizeof(zero) >= 4 { // a constant of T's shape: this inlines
		return b.wideWordCut
	}
	return kernel.SmallCut
}

// intSumCut is the length from which a dense SumInt or SumUint of T runs
// b's kernel instead of the inline loop (kernel.ISA.DenseIntSumCut, read
// from b's fields: the method itself stayed a call in the API's
// instantiations). It inlines, with T's size a constant.
func intSumCut[T Number](b *backend) int {
	var zero T
	return b.intSumCuts[bits.TrailingZeros(uint(unsafe.Sizeof(zero)))&3]
}

// denseCut is the length below which a dense Min, Max, MinMax or
// Summarize of T runs the inline loops on b: kernel.ISA.ExtremeCut of b's
// ISA for T, of both extremes when both is true (MinMax, Summarize), else
// of one (Min, Max). It inlines, with T's size and kind constants.
func denseCut[T Number](b *backend, both bool) int {
	var zero T
	return b.isa.ExtremeCut(int(unsafe.Sizeof(zero)), num.IsFloat[T](), both)
}

// maskedCut is denseCut for an input with a validity bitmap: the length
// below which a masked Min, Max (both false), MinMax or Summarize (both
// true) of T runs the loops over one validity word on b instead of b's
// masked kernels (kernel.ISA.MaskedExtremeCut). It inlines, as denseCut.
func maskedCut[T Number](b *backend, both bool) int {
	var zero T
	return b.isa.MaskedExtremeCut(int(unsafe.Sizeof(zero)), num.IsFloat[T](), both)
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
// reference reduces to. It is always available and is the only backend
// built with -tags purego.
var scalarBackend = register("scalar", 0, true, kernel.Scalar)
