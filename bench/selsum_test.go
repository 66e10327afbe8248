package bench

// The float Sum over a selection with a validity bitmap: the strict left
// fold in selection order, one addition per entry, whose loop branched on
// each entry's validity bit. Such a branch mispredicts once per null or
// so when the nulls fall at random, and the ledger found the call slower
// than the plain loop (which branches the same way) on every CPU it ran
// on: 0.62-0.96x at 10% nulls (sorted10, sorted50, random10), its time
// moving with the code's placement from build to build. The change: an
// invalid entry adds -0.0, the exact identity of the fold, picked by a
// conditional move of the element's bits, so that no branch depends on
// the data. Registered on 2026-12-02 on an AMD EPYC family 26 model 2
// (Zen 5 class), before the change; the by-hand ones are measured with
// BenchmarkSelectedSum, the binaries of the commit before and after run
// alternately, fastest of the passes:
//
//	H295: Sum float64 n=65536 nulls=10% sel=sorted10: avx512 >= 1.0x loop   no data-dependent branch
//	H296: Sum float64 n=65536 nulls=10% sel=sorted50: avx512 >= 1.0x loop
//	H297 (measured by hand): BenchmarkSelectedSum nulls=10, every kind: time <= 0.8x the commit before
//	H298 (measured by hand): BenchmarkSelectedSum nulls=50, every kind: time <= 0.4x the commit before
//	H299 (measured by hand): BenchmarkSelectedSum nulls=0 (a bitmap with every bit set), every kind: time <= 1.1x the commit before

// The integer sums over a selection with a bitmap branch on the bit too.
// A branch-free loop (the element ANDed with a mask of its bit) measured
// 4x faster at 50% nulls and 1.75x over sorted50 with 10% nulls, but
// 1.3-1.4x slower at 10% nulls over the 10% selections, where the branch
// is predicted well enough (a development run over rotating bitmaps). So
// the change samples the validity bits of the first 64 entries and runs
// the branch-free loop when 12 to 52 of them are null, the branch
// otherwise. Registered on 2026-12-02 on an AMD EPYC family 26 model 2
// (Zen 5 class), before the change, measured with BenchmarkSelectedSumInt
// as H297-H299 are:
//
//	H300 (measured by hand): BenchmarkSelectedSumInt nulls=50, every kind: time <= 0.5x the commit before
//	H301 (measured by hand): BenchmarkSelectedSumInt nulls=10, every kind: time <= 1.05x the commit before (the sample keeps the branch)
//	H302 (measured by hand): BenchmarkSelectedSumInt nulls=0 (every bit set), every kind: time <= 1.05x the commit before
//	H303 (measured by hand): BenchmarkSelectedSumInt nulls=25, sel=sorted50: time <= 0.8x the commit before
//
// The sample's window, 12 to 52 nulls of 64, was a cost with 25% nulls
// over the 10% selections (1.14-1.23x the branch's time, H300-H303's
// run), where the branch stays cheap, while over sorted50 the
// branch-free loop was already 1.6x faster with 10% nulls, below the
// window. So the window also weighs the selection's density: where the
// sample ascends within 4 rows an entry, 4 to 60 nulls; elsewhere 24 to
// 52. Registered before the change, measured as H300-H303 are:
//
//	H308 (measured by hand): BenchmarkSelectedSumInt nulls=25, sel=sorted10 and random10: time <= 0.9x the commit before (the branch again)
//	H309 (measured by hand): BenchmarkSelectedSumInt nulls=10, sel=sorted50: time <= 0.8x the commit before
//	H310 (measured by hand): BenchmarkSelectedSumInt nulls=50, every kind, and nulls=25, sel=sorted50: time <= 1.05x the commit before (the same loop)
//
// The same choice in the int64 Summarize over a selection with a bitmap
// (its min, max and count: an invalid entry as the identities and a count
// of the bits, by conditional moves). Registered at the same time as the
// next commit's change, before measuring, with BenchmarkSelectedSummarizeInt
// on the avx512 backend, where sorted10 takes the gather kernel instead
// (its selection ascends and is not crowded), so only sorted50 and
// random10 run the loop that changes:
//
//	H304 (measured by hand): BenchmarkSelectedSummarizeInt nulls=50, sel=sorted50 and random10: time <= 0.6x the commit before
//	H305 (measured by hand): BenchmarkSelectedSummarizeInt nulls=0 and nulls=10, sel=sorted50 and random10: time <= 1.05x the commit before
//
// A first A/B found no change on avx512: its integer selected summaries
// gather (with the bitmap word of each candidate) whatever the order and
// density of the selection, so the Go loop does not run there. The loop
// is what the avx2 backend (which has no integer gather kernels), the
// generic one and the other ports run. BenchmarkSelectedSummarizeInt now
// runs on each backend; registered before measuring those:
//
//	H306 (measured by hand): BenchmarkSelectedSummarizeInt backend=avx2 and generic, nulls=50, every kind: time <= 0.6x the commit before
//	H307 (measured by hand): BenchmarkSelectedSummarizeInt backend=avx2 and generic, nulls=0 and nulls=10, every kind: time <= 1.05x the commit before
//
// That change was reverted: with 25% nulls over the 10% selections it
// cost 1.4-1.5x. With the sample's window weighing the selection's
// density (H308-H310), those keep the branch; the change comes back on
// that window. Registered before measuring it against the branch:
//
//	H311 (measured by hand): BenchmarkSelectedSummarizeInt backend=avx2 and generic, nulls=50, every kind: time <= 0.6x the commit before
//	H312 (measured by hand): BenchmarkSelectedSummarizeInt backend=avx2 and generic, nulls=0, 10 and 25, sel=sorted10 and random10: time <= 1.05x the commit before
//	H313 (measured by hand): BenchmarkSelectedSummarizeInt backend=avx2 and generic, nulls=10 and 25, sel=sorted50: time <= 0.85x the commit before

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver"
)

// BenchmarkSelectedSum times the float64 Sum over a selection of n =
// 65536 rows with a validity bitmap of 0%, 10% and 50% nulls (0%: a
// bitmap with every bit set, which the ledger's matrix does not have),
// beside the plain loop. Each timed call takes the next of eight bitmaps
// drawn independently, so that no branch predictor learns one.
//
//	go test -run '^$' -bench SelectedSum -count 6 .
func BenchmarkSelectedSum(b *testing.B) {
	const n = 65536
	x := make([]float64, n)
	drawValues(rand.New(rand.NewPCG(3, 105)), x)
	forSelInputs(n, []int{0, 10, 50}, 105, func(in *selInputs) {
		runRotated(b, in.name+"/impl=quiver", &sinkFloat, func(k int) float64 { return quiver.Sum(x, in.masks[k]) })
		runRotated(b, in.name+"/impl=loop", &sinkFloat, func(k int) float64 { return selSumFloat(x, in.sel, in.bms[k]) })
	})
}

// runRotated runs the sub-benchmark name, whose timed calls are call(k)
// with k the rotation (0, 1, ... rotations-1, then 0 again), summed into
// sink so that none of them is dropped. The call through a func value
// costs a few ns against calls of microseconds.
func runRotated[S int64 | float64](b *testing.B, name string, sink *S, call func(k int) S) {
	b.Run(name, func(b *testing.B) {
		var s S
		k := 0
		for b.Loop() {
			s += call(k % rotations)
			k++
		}
		*sink = s
	})
}

// selInputs is one configuration of the selected-sum benchmarks: the
// name of its sub-benchmarks, the selection, and rotations bitmaps of
// its null percentage with their Masks.
type selInputs struct {
	name  string
	sel   []uint32
	bms   [rotations][]byte
	masks [rotations]quiver.Mask
}

// forSelInputs calls f with the inputs of every selection kind over n
// rows and every null percentage in nulls, the bitmaps drawn from a
// generator seeded with (the percentage, seed).
func forSelInputs(n int, nulls []int, seed uint64, f func(in *selInputs)) {
	for _, kind := range selKinds[1:] {
		sel := newSelection(n, kind)
		for _, pct := range nulls {
			r := rand.New(rand.NewPCG(uint64(pct), seed))
			in := &selInputs{name: fmt.Sprintf("sel=%s/nulls=%d", kind, pct), sel: sel}
			for k := range in.bms {
				in.bms[k] = drawBitmap(r, n, pct)
				in.masks[k] = quiver.Valid(in.bms[k], 0).Select(sel)
			}
			f(in)
		}
	}
}

// BenchmarkSelectedSumInt is BenchmarkSelectedSum for the int64 SumInt,
// with 25% nulls too, beside the plain loop.
//
//	go test -run '^$' -bench SelectedSumInt -count 6 .
func BenchmarkSelectedSumInt(b *testing.B) {
	const n = 65536
	x := make([]int64, n)
	drawValues(rand.New(rand.NewPCG(4, 105)), x)
	forSelInputs(n, []int{0, 10, 25, 50}, 106, func(in *selInputs) {
		runRotated(b, in.name+"/impl=quiver", &sinkInt, func(k int) int64 { return quiver.SumInt(x, in.masks[k]) })
		runRotated(b, in.name+"/impl=loop", &sinkInt, func(k int) int64 { return selSumSigned(x, in.sel, in.bms[k]) })
	})
}

var sinkInt int64

// BenchmarkSelectedSummarizeInt is BenchmarkSelectedSumInt for the int64
// Summarize (min, max and count), on every backend but scalar, beside a
// plain loop.
//
//	go test -run '^$' -bench SelectedSummarizeInt -count 6 .
func BenchmarkSelectedSummarizeInt(b *testing.B) {
	const n = 65536
	x := make([]int64, n)
	drawValues(rand.New(rand.NewPCG(5, 105)), x)
	forSelInputs(n, []int{0, 10, 25, 50}, 107, func(in *selInputs) {
		for _, be := range quiver.Backends() {
			if !be.Available || be.Name == "scalar" {
				continue
			}
			b.Run(in.name+"/impl=quiver/backend="+be.Name, func(b *testing.B) {
				prev := quiver.ActiveBackend().Name
				defer quiver.SetBackend(prev)
				if err := quiver.SetBackend(be.Name); err != nil {
					b.Fatal(err)
				}
				var s int64
				k := 0
				for b.Loop() {
					m := quiver.Summarize(x, in.masks[k%rotations])
					s += m.Min + m.Max + int64(m.Count)
					k++
				}
				sinkInt = s
			})
		}
		runRotated(b, in.name+"/impl=loop", &sinkInt, func(k int) int64 {
			lo, hi, c := selSummarySigned(x, in.sel, in.bms[k])
			return lo + hi + int64(c)
		})
	})
}

// selSummarySigned is the plain loop of BenchmarkSelectedSummarizeInt: a
// branch on each entry's bit.
func selSummarySigned(x []int64, sel []uint32, bm []byte) (lo, hi int64, n int) {
	lo, hi = math.MaxInt64, math.MinInt64
	for _, i := range sel {
		if bm[i>>3]&(1<<(i&7)) != 0 {
			v := x[i]
			lo, hi, n = min(lo, v), max(hi, v), n+1
		}
	}
	return lo, hi, n
}
