package bench

// Pre-registered hypotheses for the partial states and the parallel
// reduce (stream.go, parallel.go), written on 2026-11-30 before any of
// these configurations was measured. The baseline is "call": one call of
// the state's reduction over the whole input on the dispatched backend
// (Sum for SumState, SumChecked for IntSumState, the same exact 128-bit
// work, Summarize for SummaryState); ratios are the call's time over the
// other's in the same run. "batches1024" feeds the state 1024 elements
// per Add, a vectorized engine's batch, and reads the result once; with
// nulls each batch gets quiver.Valid(bits, lo), the Arrow way of slicing.
// "workers<k>" is one AddParallel with k workers. The targets, from the
// issue: streaming costs at most 1.1x the call at n = 1M (ratio >= 0.91);
// two workers reach 1.5x the call at n = 16M on a 2-vCPU machine. One
// worker measures what the sharded path costs over the call, and an
// input that is too small to share never makes AddParallel slower than
// the call: for the float sum n = 65536 is one shard, run on the calling
// goroutine; for the exact reductions it is the smallest input that forks
// (256 KiB per worker). (Measured afterwards, the threshold became 8 MiB
// per worker, so n = 65536 runs on the calling goroutine for every state.)
//
//	H70: SumState float64 n=1048576 nulls=0%: batches1024 >= 0.91x call       lanes carried across batches
//	H71: SumState float64 n=1048576 nulls=10%: batches1024 >= 0.91x call      each batch its Valid(bits, lo)
//	H72: IntSumState int64 n=1048576 nulls=0%: batches1024 >= 0.91x call      exact 128-bit state vs SumChecked
//	H73: SummaryState float64 n=1048576 nulls=0%: batches1024 >= 0.91x call
//	H74: SumState float64 n=16777216 nulls=0%: workers2 >= 1.5x call          65536-element shards on 2 workers
//	H75: IntSumState int64 n=16777216 nulls=0%: workers2 >= 1.5x call         one half per worker
//	H76: SummaryState float64 n=16777216 nulls=0%: workers2 >= 1.5x call
//	H77: SumState float64 n=16777216 nulls=0%: workers1 >= 0.95x call         the cost of the sharded path
//	H78: IntSumState int64 n=16777216 nulls=0%: workers1 >= 0.95x call
//	H79: SummaryState float64 n=16777216 nulls=0%: workers1 >= 0.95x call
//	H80: SumState float64 n=65536 nulls=0%: workers2 >= 0.95x call            one shard: never slower than the call
//	H81: IntSumState int64 n=65536 nulls=0%: workers2 >= 0.95x call           the smallest input that forks
//	H82: SummaryState float64 n=65536 nulls=0%: workers2 >= 0.95x call
//
// Added on 2026-11-30, before it was measured, with the arrow module: an
// arrow-go chunked column of 64K-row chunks over the same memory, summed
// by quiverarrow.Sum (which carries one SumState across the chunks).
//
//	H83: SumState float64 n=16777216 nulls=0%: chunks65536 >= 0.91x call      an Arrow chunked column

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/quiverlabs/quiver"
	"github.com/quiverlabs/quiver/bench/internal/ledger"
	"github.com/quiverlabs/quiver/quiverarrow"
)

// The state part's sizes: stateSmall fits in cache (its rows give one
// core's rate without memory in the way), stateBatched is where the
// batches are measured, stateParallel where the workers are. A parallel
// configuration takes about 10 ms per iteration and 128 MB of input, so
// there are three of them.
const (
	stateSmall    = 1 << 16
	stateBatched  = 1 << 20
	stateParallel = 1 << 24
	stateShard    = 65536 // SumState.AddParallel's documented shard size
)

// A stateConfig is one configuration of the state part: n elements, nulls
// percent of them null (0: no bitmap), and the impls that run besides the
// call: "batches<k>" and "workers<k>".
type stateConfig struct {
	n, nulls int
	impls    []string
}

// stateMatrix is the state part's configurations in mode m; masked adds
// the configurations with nulls and chunked the Arrow chunked column
// (SumState only: the exact states take a bitmap through the same kernels
// as the calls). -quick and -short keep one input of each kind at sizes
// that still cut partial batches and several shards, with two workers.
func stateMatrix(masked, chunked bool) func(m mode) []stateConfig {
	return func(m mode) []stateConfig {
		var out []stateConfig
		parallel := []string{"workers1", "workers2"}
		if chunked {
			parallel = append(parallel, "chunks65536")
		}
		switch m {
		case full:
			out = []stateConfig{
				{stateSmall, 0, []string{"workers2"}},
				// batches8192 has no hypothesis: it shows how the
				// fixed cost per Add shrinks with the batch.
				{stateBatched, 0, []string{"batches1024", "batches8192"}},
				{stateBatched, 10, []string{"batches1024"}},
				{stateParallel, 0, parallel},
			}
		default:
			n := 3*stateShard + 1500 // a partial last batch and shard; 1.5 MB of int64: two workers fork
			out = []stateConfig{
				{n, 0, append([]string{"batches1024"}, parallel...)},
				{n, 10, []string{"batches1024"}},
			}
		}
		if !masked {
			out = slices.DeleteFunc(out, func(c stateConfig) bool { return c.nulls > 0 })
		}
		return out
	}
}

// A stateImpl is one way of computing a state part's result: run times it,
// check says whether the result it gave is right.
type stateImpl struct {
	name  string
	run   func() res
	check func(got res) error
}

// A stateSuite is one partial state on one element type.
type stateSuite struct {
	op, typ string
	configs func(m mode) []stateConfig
	bench   func(b *testing.B, c stateConfig)
	verify  func(t *testing.T, c stateConfig)
}

// newStateSuite declares the state op on T: impls builds the call (first)
// and the impls a configuration names, each with its check.
func newStateSuite[T number](op string, configs func(m mode) []stateConfig, impls func(in *input[T], names []string) []stateImpl) stateSuite {
	return stateSuite{
		op:      op,
		typ:     typeName[T](),
		configs: configs,
		bench: func(b *testing.B, c stateConfig) {
			in := stateInput[T](c.n, c.nulls)
			for _, im := range impls(in, c.impls) {
				b.Run("impl="+im.name, func(b *testing.B) {
					if err := im.check(im.run()); err != nil {
						b.Fatalf("%s: %v", im.name, err)
					}
					b.SetBytes(bytesRead("", in))
					for b.Loop() {
						sink = im.run()
					}
				})
			}
		},
		verify: func(t *testing.T, c stateConfig) {
			in := stateInput[T](c.n, c.nulls)
			cfg := ledger.Config{Op: op, Type: typeName[T](), N: c.n, Nulls: c.nulls}
			for _, im := range impls(in, c.impls) {
				if err := im.check(im.run()); err != nil {
					t.Errorf("%s/%s: %v", cfg, im.name, err)
				}
			}
		},
	}
}

// bigInput is the one input of stateParallel elements alive at a time:
// drawing 16M values takes longer than benchmarking them, so SumState and
// SummaryState, which run one after the other, share the float64 one.
var bigInput struct {
	key string
	in  any
}

// stateInput is newInput, kept in bigInput at the parallel size.
func stateInput[T number](n, nulls int) *input[T] {
	if n < stateParallel {
		return newInput[T](n, nulls)
	}
	key := fmt.Sprintf("%s/%d/%d", typeName[T](), n, nulls)
	if in, ok := bigInput.in.(*input[T]); ok && bigInput.key == key {
		return in
	}
	bigInput.key, bigInput.in = "", nil // let the previous one go before drawing the next
	in := newInput[T](n, nulls)
	bigInput.key, bigInput.in = key, in
	return in
}

// releaseBigInput drops the shared input once no later state benchmark
// needs it, so that the rest of the run does not carry 128 MB.
func releaseBigInput() { bigInput.key, bigInput.in = "", nil }

// The state suites. The file's benchmarks run in this order: SumState and
// SummaryState share their float64 input at the parallel size.
var (
	sumStateSuites     = []stateSuite{newStateSuite("SumState", stateMatrix(true, true), sumStateImpls)}
	summaryStateSuites = []stateSuite{newStateSuite("SummaryState", stateMatrix(false, false), summaryStateImpls)}
	intSumStateSuites  = []stateSuite{newStateSuite("IntSumState", stateMatrix(false, false), intSumStateImpls)}
)

func BenchmarkSumState(b *testing.B) { runStateSuites(b, sumStateSuites) }

func BenchmarkSummaryState(b *testing.B) {
	defer releaseBigInput()
	runStateSuites(b, summaryStateSuites)
}

func BenchmarkIntSumState(b *testing.B) {
	defer releaseBigInput()
	runStateSuites(b, intSumStateSuites)
}

// allStateSuites is the state part, in the order its benchmarks run.
func allStateSuites() []stateSuite {
	return slices.Concat(sumStateSuites, summaryStateSuites, intSumStateSuites)
}

// runStateSuites benchmarks state suites under the name tree of the other
// parts, type=<T>/n=<N>/nulls=<P>/impl=<I>, when -shapes has "state".
// The input of a configuration is drawn only when its name is selected,
// and is shared by its impls.
func runStateSuites(b *testing.B, suites []stateSuite) {
	want, _ := wantedShapes() // checked in TestMain
	if !want[ledger.State] {
		b.Skip("the state part is not in -shapes")
	}
	m := full
	if *quickSize {
		m = quickMode
	}
	for _, s := range suites {
		b.Run("type="+s.typ, func(b *testing.B) {
			cs := s.configs(m)
			for len(cs) > 0 {
				n := cs[0].n
				end := 0
				for end < len(cs) && cs[end].n == n {
					end++
				}
				byN := cs[:end]
				cs = cs[end:]
				b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
					for _, c := range byN {
						b.Run(fmt.Sprintf("nulls=%d", c.nulls), func(b *testing.B) { s.bench(b, c) })
					}
				})
			}
		})
	}
}

// TestStateAgrees runs every impl of the state part once and checks it as
// the benchmark does before timing: batches give the call's result bit for
// bit, the exact parallel reductions too, and the parallel float sum is
// the in-order merge of its 65536-element shards' states (and the call's
// sum within rounding). -short checks a smaller input with a partial last
// batch and shard.
func TestStateAgrees(t *testing.T) {
	defer releaseBigInput()
	m := full
	if testing.Short() {
		m = testShort
	}
	for _, s := range allStateSuites() {
		for _, c := range s.configs(m) {
			s.verify(t, c)
		}
	}
}

// stateWorkers is the worker count of a "workers<k>" impl.
// stateChunkSize is the chunk length of a "chunks<k>" impl.
func stateChunkSize(name string) (int, bool) {
	var k int
	_, err := fmt.Sscanf(name, "chunks%d", &k)
	return k, err == nil
}

// arrowChunks is x as arrow-go Float64 arrays of size rows each (the last
// one shorter), over x's own memory, without nulls: a chunked column as
// a Parquet or IPC reader hands it over.
func arrowChunks(x []float64, size int) []arrow.Array {
	var chunks []arrow.Array
	for lo := 0; lo < len(x); lo += size {
		hi := min(len(x), lo+size)
		buf := memory.NewBufferBytes(arrow.Float64Traits.CastToBytes(x[lo:hi]))
		data := array.NewData(arrow.PrimitiveTypes.Float64, hi-lo, []*memory.Buffer{nil, buf}, nil, 0, 0)
		chunks = append(chunks, array.MakeFromData(data))
		data.Release()
	}
	return chunks
}

// stateBatchSize is the batch of a "batches<k>" impl.
func stateBatchSize(name string) (int, bool) {
	var k int
	_, err := fmt.Sscanf(name, "batches%d", &k)
	return k, err == nil
}

func stateWorkers(name string) int {
	var k int
	if _, err := fmt.Sscanf(name, "workers%d", &k); err != nil {
		panic("stateWorkers: not a worker impl: " + name)
	}
	return k
}

// sumStateImpls is quiver.Sum over the whole input against a SumState fed
// in batches (bit for bit the call's sum) or through AddParallel (bit for
// bit the in-order merge of its shards' states, and the call's sum within
// rounding).
func sumStateImpls(in *input[float64], names []string) []stateImpl {
	x, ms, bm := in.x, in.masks, in.bits
	want := quiver.Sum(x, ms...)
	call := func() res { return res{math.Float64bits(quiver.Sum(x, ms...))} }
	out := []stateImpl{{name: ledger.Call, run: call, check: wantBits(res{math.Float64bits(want)})}}
	s := new(quiver.SumState[float64]) // held across iterations, as an operator holds it
	for _, name := range names {
		if size, ok := stateBatchSize(name); ok {
			out = append(out, stateImpl{name, func() res {
				s.Reset()
				feedSum(s, x, bm, size)
				return res{math.Float64bits(s.Sum())}
			}, wantBits(res{math.Float64bits(want)})})
			continue
		}
		if size, ok := stateChunkSize(name); ok {
			chunks := arrowChunks(x, size)
			out = append(out, stateImpl{name, func() res {
				v, err := quiverarrow.Sum[float64](chunks...)
				if err != nil {
					panic(err)
				}
				return res{math.Float64bits(v)}
			}, wantBits(res{math.Float64bits(want)})})
			continue
		}
		k := stateWorkers(name)
		shards := res{math.Float64bits(shardSum(x, bm))}
		tol := 1e-9 * absSum(x)
		out = append(out, stateImpl{name, func() res {
			s.Reset()
			s.AddParallel(x, k, ms...)
			return res{math.Float64bits(s.Sum())}
		}, func(got res) error {
			if err := wantBits(shards)(got); err != nil {
				return fmt.Errorf("not the in-order merge of its shards: %v", err)
			}
			if g := math.Float64frombits(got[0]); math.Abs(g-want) > tol {
				return fmt.Errorf("sum %g, the call's %g: off by more than %g", g, want, tol)
			}
			return nil
		}})
	}
	return out
}

// intSumStateImpls is quiver.SumChecked over the whole input against an
// IntSumState fed in batches or through AddParallel; all give the same
// exact sum and overflow flag (the input's values span int64: the sum
// overflows).
func intSumStateImpls(in *input[int64], names []string) []stateImpl {
	x, ms, bm := in.x, in.masks, in.bits
	enc := func(c quiver.CheckedSum[int64]) res { return res{uint64(c.Sum), b2u(c.Overflowed)} }
	want := wantBits(enc(quiver.SumChecked(x, ms...)))
	out := []stateImpl{{ledger.Call, func() res { return enc(quiver.SumChecked(x, ms...)) }, want}}
	s := new(quiver.IntSumState[int64])
	for _, name := range names {
		if size, ok := stateBatchSize(name); ok {
			out = append(out, stateImpl{name, func() res {
				s.Reset()
				feedIntSum(s, x, bm, size)
				return enc(s.Checked())
			}, want})
			continue
		}
		k := stateWorkers(name)
		out = append(out, stateImpl{name, func() res {
			s.Reset()
			s.AddParallel(x, k, ms...)
			return enc(s.Checked())
		}, want})
	}
	return out
}

// summaryStateImpls is quiver.Summarize over the whole input against a
// SummaryState fed in batches or through AddParallel; all give the same
// summary, bit for bit.
func summaryStateImpls(in *input[float64], names []string) []stateImpl {
	x, ms, bm := in.x, in.masks, in.bits
	enc := func(s quiver.Summary[float64]) res {
		return res{bitsOf(s.Min), bitsOf(s.Max), uint64(s.Count)<<32 | uint64(s.Nulls)}
	}
	want := wantBits(enc(quiver.Summarize(x, ms...)))
	out := []stateImpl{{ledger.Call, func() res { return enc(quiver.Summarize(x, ms...)) }, want}}
	s := new(quiver.SummaryState[float64])
	for _, name := range names {
		if size, ok := stateBatchSize(name); ok {
			out = append(out, stateImpl{name, func() res {
				s.Reset()
				feedSummary(s, x, bm, size)
				return enc(s.Summary())
			}, want})
			continue
		}
		k := stateWorkers(name)
		out = append(out, stateImpl{name, func() res {
			s.Reset()
			s.AddParallel(x, k, ms...)
			return enc(s.Summary())
		}, want})
	}
	return out
}

// wantBits requires exactly want.
func wantBits(want res) func(got res) error {
	return func(got res) error { return exact(got, want) }
}

// The streaming loops: x fed to a state size elements per Add, each batch
// with its slice of the bitmap (bm nil: dense) as an Arrow slice carries
// it, the parent's bitmap at the slice's offset. One function per state,
// never inlined into the timed loop, as a streaming operator calls Add.

//go:noinline
func feedSum(s *quiver.SumState[float64], x []float64, bm []byte, size int) {
	for lo := 0; lo < len(x); lo += size {
		hi := min(lo+size, len(x))
		if bm == nil {
			s.Add(x[lo:hi])
		} else {
			s.Add(x[lo:hi], quiver.Valid(bm, lo))
		}
	}
}

//go:noinline
func feedIntSum(s *quiver.IntSumState[int64], x []int64, bm []byte, size int) {
	for lo := 0; lo < len(x); lo += size {
		hi := min(lo+size, len(x))
		if bm == nil {
			s.Add(x[lo:hi])
		} else {
			s.Add(x[lo:hi], quiver.Valid(bm, lo))
		}
	}
}

//go:noinline
func feedSummary(s *quiver.SummaryState[float64], x []float64, bm []byte, size int) {
	for lo := 0; lo < len(x); lo += size {
		hi := min(lo+size, len(x))
		if bm == nil {
			s.Add(x[lo:hi])
		} else {
			s.Add(x[lo:hi], quiver.Valid(bm, lo))
		}
	}
}

// shardSum is the float sum SumState.AddParallel documents for an empty
// state, built from the public API: x cut into stateShard-element shards,
// each shard fed to a state of its own, the states merged in order.
func shardSum(x []float64, bm []byte) float64 {
	var s, part quiver.SumState[float64]
	for lo := 0; lo < len(x); lo += stateShard {
		hi := min(lo+stateShard, len(x))
		part.Reset()
		if bm == nil {
			part.Add(x[lo:hi])
		} else {
			part.Add(x[lo:hi], quiver.Valid(bm, lo))
		}
		s.Merge(&part)
	}
	return s.Sum()
}

// absSum is the sum of the magnitudes of x, the scale of a float sum's
// rounding.
func absSum(x []float64) float64 {
	a := 0.0
	for _, v := range x {
		a += math.Abs(v)
	}
	return a
}
