package quiver

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// smallShards makes the parallel reduce cut small inputs into many shards
// and give every worker a part, for the duration of the test.
func smallShards(t *testing.T, shard int) {
	prevShard, prevMin := shardSize, parallelMinBytes
	shardSize, parallelMinBytes = shard, 1
	t.Cleanup(func() { shardSize, parallelMinBytes = prevShard, prevMin })
}

func TestParallelDeterministic(t *testing.T) {
	before := runtime.NumGoroutine()
	forEachBackend(t, func(t *testing.T, b BackendInfo) {
		for _, shard := range []int{64, 200, 1000} {
			smallShards(t, shard)
			parallelFloat[float32](t, shard)
			parallelFloat[float64](t, shard)
			parallelExact[int8](t)
			parallelExact[int64](t)
			parallelExactU[uint32](t)
			parallelExactU[uint64](t)
			parallelSummary[float64](t)
			parallelSummary[int16](t)
		}
	})
	// Every worker has returned: no goroutine outlives AddParallel.
	for i := 0; runtime.NumGoroutine() > before && i < 100; i++ {
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines after the parallel tests, %d before", n, before)
	}
}

// parallelInputs returns random inputs of a few shards, with and without
// bitmaps, at odd offsets.
func parallelInputs[T Number](r *rand.Rand, shard int) []streamCase {
	var cs []streamCase
	for _, n := range []int{0, 1, shard - 1, shard, shard + 1, 3*shard + 17, 7*shard + shard/2} {
		for _, withBits := range []bool{false, true} {
			c := streamCase{n: n, style: testkit.Style(r.IntN(4))}
			if withBits {
				c.off = r.IntN(16)
				c.bits = testkit.Bitmap(r, n, c.off, 0.3)
			}
			cs = append(cs, c)
		}
	}
	return cs
}

func parallelFloat[T constraints.Float](t *testing.T, shard int) {
	r := rand.New(rand.NewPCG(11, uint64(shard)))
	for _, c := range parallelInputs[T](r, shard) {
		x := testkit.Values[T](r, c.n, c.style)
		extra := testkit.Values[T](r, 77, c.style)
		head := testkit.Values[T](r, 5, c.style)
		for _, fresh := range []bool{true, false} {
			// The definition: the shards' own states merged in order.
			var want SumState[T]
			if !fresh {
				want.Add(head)
			}
			for lo := 0; lo < c.n; lo += shard {
				var piece SumState[T]
				piece.Add(x[lo:min(c.n, lo+shard)], c.mask(lo))
				want.Merge(&piece)
			}
			want.Add(extra) // the last shard's run stays open
			for workers := 1; workers <= 8; workers++ {
				var s SumState[T]
				if !fresh {
					s.Add(head)
				}
				s.AddParallel(x, workers, c.mask(0))
				s.Add(extra)
				if got, w := s.Sum(), want.Sum(); testkit.Bits(got) != testkit.Bits(w) && !(got != got && w != w) {
					t.Fatalf("%v shard=%d workers=%d fresh=%v: %#x, shards merged in order %#x", c, shard, workers, fresh, testkit.Bits(got), testkit.Bits(w))
				}
			}
		}
		if c.n <= shard { // one shard: the one-call sum
			var s SumState[T]
			s.AddParallel(x, 4, c.mask(0))
			if got, want := s.Sum(), Sum(x, c.mask(0)); !sameFloat(got, want) {
				t.Fatalf("%v: one shard %#x, Sum %#x", c, testkit.Bits(got), testkit.Bits(want))
			}
		}
	}
}

func parallelExact[T constraints.Signed](t *testing.T) {
	r := rand.New(rand.NewPCG(12, uint64(num.KindOf[T]())))
	for _, c := range parallelInputs[T](r, shardSize) {
		x := testkit.Values[T](r, c.n, c.style)
		var want IntSumState[T]
		want.Add(x, c.mask(0))
		for workers := 0; workers <= 8; workers++ {
			var s IntSumState[T]
			s.AddParallel(x, workers, c.mask(0))
			if s != want {
				t.Fatalf("%v workers=%d: %v, Add %v", c, workers, s.Exact(), want.Exact())
			}
			if c.n > 0 {
				sel := testkit.Selection(r, c.n, 2*c.n)
				var a, p IntSumState[T]
				a.Add(x, c.mask(0).Select(sel))
				p.AddParallel(x, workers, c.mask(0).Select(sel))
				if a != p {
					t.Fatalf("%v workers=%d selection: %v, Add %v", c, workers, p.Exact(), a.Exact())
				}
				var ca, cp CountState
				ca.Add(c.n, c.mask(0).Select(sel))
				cp.AddParallel(c.n, workers, c.mask(0).Select(sel))
				if ca != cp {
					t.Fatalf("%v workers=%d selected count: %d, Add %d", c, workers, cp.Count(), ca.Count())
				}
			}
			var ca, cp CountState
			ca.Add(c.n, c.mask(0))
			cp.AddParallel(c.n, workers, c.mask(0))
			if ca != cp {
				t.Fatalf("%v workers=%d count: %d, Add %d", c, workers, cp.Count(), ca.Count())
			}
		}
	}
}

func parallelExactU[T constraints.Unsigned](t *testing.T) {
	r := rand.New(rand.NewPCG(13, uint64(num.KindOf[T]())))
	for _, c := range parallelInputs[T](r, shardSize) {
		x := testkit.Values[T](r, c.n, c.style)
		var want UintSumState[T]
		want.Add(x, c.mask(0))
		for workers := 1; workers <= 8; workers++ {
			var s UintSumState[T]
			s.AddParallel(x, workers, c.mask(0))
			if s != want {
				t.Fatalf("%v workers=%d: %v, Add %v", c, workers, s.Exact(), want.Exact())
			}
		}
	}
}

func parallelSummary[T Number](t *testing.T) {
	r := rand.New(rand.NewPCG(14, uint64(num.KindOf[T]())))
	for _, c := range parallelInputs[T](r, shardSize) {
		x := testkit.Values[T](r, c.n, c.style)
		var want SummaryState[T]
		want.Add(x, c.mask(0))
		for workers := 1; workers <= 8; workers++ {
			var s SummaryState[T]
			s.AddParallel(x, workers, c.mask(0))
			g, w := s.Summary(), want.Summary()
			if testkit.Bits(g.Min) != testkit.Bits(w.Min) || testkit.Bits(g.Max) != testkit.Bits(w.Max) || g.Count != w.Count || g.Nulls != w.Nulls {
				t.Fatalf("%v workers=%d: %+v, Add %+v", c, workers, g, w)
			}
			if c.n > 0 {
				sel := testkit.Selection(r, c.n, c.n)
				var a, p SummaryState[T]
				a.Add(x, c.mask(0).Select(sel))
				p.AddParallel(x, workers, c.mask(0).Select(sel))
				if g, w := p.Summary(), a.Summary(); testkit.Bits(g.Min) != testkit.Bits(w.Min) || testkit.Bits(g.Max) != testkit.Bits(w.Max) || g.Count != w.Count || g.Nulls != w.Nulls {
					t.Fatalf("%v workers=%d selection: %+v, Add %+v", c, workers, g, w)
				}
			}
		}
	}
}

// TestParallelPanicsFirst checks that a bad input panics on the calling
// goroutine, before any worker starts, with the one-call message.
func TestParallelPanicsFirst(t *testing.T) {
	smallShards(t, 64)
	x := make([]float64, 1000)
	var s SumState[float64]
	mustPanic(t, "quiver: validity bitmap has 80 bits from its offset to its end, need 1000, one per element", func() {
		s.AddParallel(x, 4, Valid(make([]byte, 10), 0))
	})
	var i IntSumState[int64]
	mustPanic(t, "quiver: selection index 1000 at position 2 is out of range for 1000 elements", func() {
		i.AddParallel(make([]int64, 1000), 4, Select([]uint32{1, 2, 1000}))
	})
	var c CountState
	mustPanic(t, "quiver: element count -5 is negative", func() { c.AddParallel(-5, 2, Valid(nil, 0)) })
	if s.Sum() != 0 || i.Sum() != 0 || c.Count() != 0 {
		t.Fatal("a panicking AddParallel changed its state")
	}
}

// TestParallelOneShardNoAllocs checks that a float AddParallel too small
// to share runs on the calling goroutine without allocating, so that it
// costs what Merge of the batch's own state costs.
func TestParallelOneShardNoAllocs(t *testing.T) {
	x := make([]float64, 3000)
	var s SumState[float64]
	if allocs := testing.AllocsPerRun(50, func() { s.AddParallel(x, 2) }); allocs != 0 {
		t.Fatalf("AddParallel of one shard: %v allocations", allocs)
	}
}
