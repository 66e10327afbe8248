//go:build arm64 && !purego

package quiver

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/quiverlabs/quiver/internal/kernel"
)

// traceReps is how many times each traced call runs, each bracketed: the
// trace of a run that the runtime interrupted (the scheduler, or another
// thread's code in the same trace) is left out.
const traceReps = 5

// traceSink keeps the traced calls' results alive.
var traceSink int64

// traceMark brackets a traced call: an instruction trace of the test
// binary (qemu-aarch64's -d exec) finds the call between two executions
// of it. It must stay a call of its own.
//
//go:noinline
func traceMark(id int) { traceSink += int64(id) }

// TestNEONCallTrace runs the calls whose simulated cost chooses the NEON
// crossovers (scripts/neon-mca.sh, docs/neon.md): the masked 32- and
// 64-bit sums, the checked sums, dense Min and the masked Min and MinMax
// at lengths below
// kernel.SmallCut, each once through the inline loop and once through the
// kernel (with the backend's wideWordCut set to reach each, or Min's
// kernel call made directly), traceReps times between
// two traceMark calls, after one untraced call that warms the path. It
// logs one line per traced call, in order, for the script to label the
// trace's segments. It only runs with QUIVER_NEON_TRACE set: the trace, not the
// test, is the measurement.
func TestNEONCallTrace(t *testing.T) {
	if os.Getenv("QUIVER_NEON_TRACE") == "" {
		t.Skip("QUIVER_NEON_TRACE not set: run by scripts/neon-mca.sh")
	}
	b := active.Load()
	if b.isa != kernel.NEON {
		t.Skipf("backend %s, not neon", b.name)
	}
	saved := b.wideWordCut
	defer func() { b.wideWordCut = saved }()
	r := rand.New(rand.NewPCG(1, 2))
	bm := make([]byte, 16)
	for i := range bm {
		bm[i] = byte(r.Uint32()) // about half the elements valid
	}
	x64 := make([]int64, 2*kernel.SmallCut)
	x32 := make([]int32, kernel.SmallCut)
	for i := range x64 {
		x64[i] = int64(r.Uint64() >> 8)
	}
	for i := range x32 {
		x32[i] = int32(r.Uint32() >> 8)
	}
	f64 := make([]float64, 2*kernel.SmallCut)
	for i := range f64 {
		f64[i] = r.NormFloat64()
	}
	// call is the operation as a user calls it, which takes the word
	// loop below wideWordCut; for Min, whose cut (SmallCut) no backend
	// field moves, call is the inline loop Min runs below SmallCut and
	// kernel what it calls from there, each called directly so that both
	// can run at every length up to max.
	ops := []struct {
		name   string
		max    int
		call   func(n int) int64
		kernel func(n int) int64
	}{
		{"SumInt-int64-masked", kernel.SmallCut, func(n int) int64 { return SumInt(x64[:n], Valid(bm, 0)) }, nil},
		{"SumInt-int32-masked", kernel.SmallCut, func(n int) int64 { return SumInt(x32[:n], Valid(bm, 0)) }, nil},
		{"SumChecked-int64-masked", kernel.SmallCut, func(n int) int64 { return SumChecked(x64[:n], Valid(bm, 0)).Sum }, nil},
		{"SumChecked-int64-dense", kernel.SmallCut, func(n int) int64 { return SumChecked(x64[:n]).Sum }, nil},
		{"Min-float64-dense", 2 * kernel.SmallCut,
			func(n int) int64 {
				lo, _, _ := kernel.FloatExtremes(f64[:n], kernel.WantMin)
				return int64(math.Float64bits(lo))
			},
			func(n int) int64 {
				lo, _, _ := kernel.Summary(b.isa, f64[:n], nil, 0, kernel.WantMin)
				return int64(math.Float64bits(lo))
			}},
		{"Min-int64-dense", 2 * kernel.SmallCut,
			func(n int) int64 { return kernel.ChainMin(x64[:n]) },
			func(n int) int64 {
				lo, _, _ := kernel.Summary(b.isa, x64[:n], nil, 0, kernel.WantMin)
				return lo
			}},
		// The masked extremes (kernel.ISA.MaskedExtremeCut): the call
		// takes the word loops below SmallCut on NEON; kernel is the
		// masked kernels' call the API makes from its cut, over the
		// bitmap span of n elements.
		{"Min-float64-masked", kernel.SmallCut,
			func(n int) int64 { return int64(math.Float64bits(Min(f64[:n], Valid(bm, 0)))) },
			func(n int) int64 {
				lo, _, _ := kernel.Summary(b.isa, f64[:n], bm[:(n+7)/8], 0, kernel.WantMin)
				return int64(math.Float64bits(lo))
			}},
		{"MinMax-float64-masked", kernel.SmallCut,
			func(n int) int64 {
				lo, hi := MinMax(f64[:n], Valid(bm, 0))
				return int64(math.Float64bits(lo) ^ math.Float64bits(hi))
			},
			func(n int) int64 {
				lo, hi, _ := kernel.Summary(b.isa, f64[:n], bm[:(n+7)/8], 0, kernel.WantBoth)
				return int64(math.Float64bits(lo) ^ math.Float64bits(hi))
			}},
		{"Min-int64-masked", kernel.SmallCut,
			func(n int) int64 { return Min(x64[:n], Valid(bm, 0)) },
			func(n int) int64 {
				lo, _, _ := kernel.Summary(b.isa, x64[:n], bm[:(n+7)/8], 0, kernel.WantMin)
				return lo
			}},
		{"MinMax-int64-masked", kernel.SmallCut,
			func(n int) int64 { lo, hi := MinMax(x64[:n], Valid(bm, 0)); return lo ^ hi },
			func(n int) int64 {
				lo, hi, _ := kernel.Summary(b.isa, x64[:n], bm[:(n+7)/8], 0, kernel.WantBoth)
				return lo ^ hi
			}},
	}
	id := 0
	for _, op := range ops {
		for n := 8; n < op.max; n += 8 {
			for _, path := range []string{"word", "kernel"} {
				b.wideWordCut = kernel.SmallCut // the word loop below SmallCut
				call := op.call
				if path == "kernel" {
					b.wideWordCut = 0
					if op.kernel != nil {
						call = op.kernel
					}
				}
				want := call(n)
				for range traceReps {
					traceMark(id)
					got := call(n)
					traceMark(id)
					if got != want {
						t.Fatalf("%s n=%d %s: %d, then %d", op.name, n, path, want, got)
					}
				}
				t.Logf("trace %d %s %d %s", id, op.name, n, path)
				id++
			}
		}
	}
}
