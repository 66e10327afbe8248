package bench

// The avx2 backend against the fastest peers and against assembly float-sum
// loops, in one process (issue 21: "AVX2 at the peers' level"). Registered
// before measuring; each target holds at n=4096, 65536 and 1048576 with the
// avx2 backend selected by quiver.SetBackend, so that an AVX-512 machine
// measures it too (its figures are labelled as such). Ratios are the
// baseline's time over quiver's, medians of interleaved -count passes of
// BenchmarkAVX2Peers. asm4 is the float-sum loop with exactly ADR-013's four
// YMM chains in its order, asm8 the same loop with eight (the ceiling).
//
//	H180 (measured by hand): Sum float64 nulls=0% n=4096/65536/1048576: avx2 >= 0.95x asm4 (within 5% of the four-chain loop)
//	H181 (measured by hand): Sum float32 nulls=0% n=4096/65536/1048576: avx2 >= 0.95x asm4
//	H182 (measured by hand): Sum float64 and float32 nulls=0% n=4096: asm8 >= 1.2x asm4 on a core with two vector add pipes (the policy bound, reported per CPU)
//	H183 (measured by hand): SumInt int64 nulls=0% n=4096/65536/1048576: avx2 >= 1.0x arrow (the fastest peer with an integer sum)
//	H184 (measured by hand): Min and Max float64 nulls=0% n=4096/65536/1048576: avx2 >= 1.0x vek
//	H185 (measured by hand): Min and Max float32 nulls=0% n=4096/65536/1048576: avx2 >= 1.0x vek32
//	H186 (measured by hand): MinMax and Summarize float64 and float32 nulls=0% n=4096/65536/1048576: avx2 >= 1.0x vek (Min then Max, two passes)
//	H187 (measured by hand): the masked forms (nulls=10%) of Sum float64/float32, SumInt int64, Min, Max, MinMax and Summarize float64/float32 at n=4096/65536/1048576: avx2 >= 1.0x the fastest peer's dense time at the same n (no peer reads a bitmap)
//
// The one-FMA-per-pair NaN sentinel of the AVX2 dense float kernels (s =
// a*b + s instead of a = b*1 + a, s = a*1 + s; see nanCheck in
// internal/asm/amd64/summary), registered on an AMD EPYC Zen 4 (family
// 25 model 17, the avx2 backend on an AVX-512 core) before its A/B against
// the two-FMA kernels (the commit before it), fastest of 150 interleaved
// samples (TestAVX2Samples) for the vek ratios:
//
//	H226 (measured by hand): Min and Max float64 and float32 nulls=0% n=4096: avx2 time <= 0.9x the two-FMA kernels'
//	H227 (measured by hand): Min and Max float64 nulls=0% n=4096/65536: avx2 >= 0.9x vek
//	H228 (measured by hand): MinMax and Summarize float64 and float32 nulls=0% n=4096: avx2 time <= 1.0x the two-FMA kernels' (no slower where the min and max, not the sentinel, fill the pipes)
//
// Two blocks per bitmap read in the AVX2 masked float64 sum (32 elements,
// eight blend masks from one broadcast of 32 validity bits, the second
// block's by one shift of it; ADR-013's order is unchanged, block after
// block through the same four accumulators): registered on an AMD EPYC
// Zen 4 (family 25 model 17, the avx2 backend on an AVX-512 core) before
// the change, against the commit before it, fastest of 150 interleaved
// samples of TestAVX2Samples per binary, the binaries run alternately.
// The loop had about 21 instructions per 16 elements and ran at about
// 5.4 cycles an iteration against the dense loop's 3.1 (the four chains'
// latency):
//
//	H265 (measured by hand): Sum float64 nulls=10% n=4096 on avx2: time <= 0.85x the commit before
//	H266 (measured by hand): Sum float64 nulls=10% n=65536 on avx2: time <= 0.90x the commit before
//	H267 (measured by hand): Sum float64 nulls=10% n=1048576 on avx2: time <= 1.0x the commit before (from L3; no slower)

import (
	"math"
	"strconv"
	"testing"

	arrowmath "github.com/apache/arrow-go/v18/arrow/math"
	"github.com/viterin/vek"
	"github.com/viterin/vek/vek32"

	"github.com/quiverlabs/quiver"
)

// avx2Impl is one implementation in BenchmarkAVX2Peers; backend says
// whether it runs on quiver's avx2 backend.
type avx2Impl struct {
	name    string
	backend bool
	run     func() res
}

// avx2Case is one operation over one input.
type avx2Case struct {
	op, typ string
	n       int
	nulls   int
	impls   []avx2Impl
}

var avx2Sizes = []int{4096, 65536, 1 << 20}

func avx2Cases() []avx2Case {
	var out []avx2Case
	for _, n := range avx2Sizes {
		out = append(out, avx2FloatCases[float64](n)...)
		out = append(out, avx2FloatCases[float32](n)...)
		for _, nulls := range []int{0, 10} {
			in := newInput[int64](n, nulls)
			x, ms := in.x, in.masks
			arr := arrowInt64(x, nil)
			impls := []avx2Impl{{"avx2", true, func() res { return res{uint64(quiver.SumInt(x, ms...))} }}}
			if nulls == 0 {
				impls = append(impls, avx2Impl{"arrow", false, func() res { return res{uint64(arrowmath.Int64.Sum(arr))} }})
			}
			out = append(out, avx2Case{"SumInt", "int64", n, nulls, impls})
		}
	}
	return out
}

// avx2FloatCases is Sum, Min, Max, MinMax and Summarize of T at n, dense
// with the peers and the assembly loops, and with 10% nulls.
func avx2FloatCases[T float32 | float64](n int) []avx2Case {
	var out []avx2Case
	typ := typeName[T]()
	for _, nulls := range []int{0, 10} {
		in := newInput[T](n, nulls)
		x, ms := in.x, in.masks
		dense := nulls == 0
		sum := []avx2Impl{{"avx2", true, func() res { return res{bitsOf(quiver.Sum(x, ms...))} }}}
		minI := []avx2Impl{{"avx2", true, func() res { return res{bitsOf(quiver.Min(x, ms...))} }}}
		maxI := []avx2Impl{{"avx2", true, func() res { return res{bitsOf(quiver.Max(x, ms...))} }}}
		mm := []avx2Impl{{"avx2", true, func() res { lo, hi := quiver.MinMax(x, ms...); return res{bitsOf(lo), bitsOf(hi)} }}}
		sz := []avx2Impl{{"avx2", true, func() res {
			s := quiver.Summarize(x, ms...)
			return res{bitsOf(s.Min), bitsOf(s.Max), uint64(s.Count)}
		}}}
		if dense {
			switch x := any(x).(type) {
			case []float64:
				arr := arrowFloat64(x, nil)
				sum = append(sum,
					avx2Impl{"asm4", false, func() res { return res{math.Float64bits(asmSum4F64(x))} }},
					avx2Impl{"asm8", false, func() res { return res{math.Float64bits(asmSum8F64(x))} }},
					avx2Impl{"vek", false, func() res { return res{math.Float64bits(vek.Sum(x))} }},
					avx2Impl{"arrow", false, func() res { return res{math.Float64bits(arrowmath.Float64.Sum(arr))} }})
				minI = append(minI, avx2Impl{"vek", false, func() res { return res{math.Float64bits(vek.Min(x))} }})
				maxI = append(maxI, avx2Impl{"vek", false, func() res { return res{math.Float64bits(vek.Max(x))} }})
				two := func() res { return res{math.Float64bits(vek.Min(x)), math.Float64bits(vek.Max(x))} }
				mm = append(mm, avx2Impl{"vek", false, two})
				sz = append(sz, avx2Impl{"vek", false, func() res { r := two(); r[2] = uint64(len(x)); return r }})
			case []float32:
				f := func(v float32) uint64 { return uint64(math.Float32bits(v)) }
				sum = append(sum,
					avx2Impl{"asm4", false, func() res { return res{f(asmSum4F32(x))} }},
					avx2Impl{"asm8", false, func() res { return res{f(asmSum8F32(x))} }},
					avx2Impl{"vek", false, func() res { return res{f(vek32.Sum(x))} }})
				minI = append(minI, avx2Impl{"vek", false, func() res { return res{f(vek32.Min(x))} }})
				maxI = append(maxI, avx2Impl{"vek", false, func() res { return res{f(vek32.Max(x))} }})
				two := func() res { return res{f(vek32.Min(x)), f(vek32.Max(x))} }
				mm = append(mm, avx2Impl{"vek", false, two})
				sz = append(sz, avx2Impl{"vek", false, func() res { r := two(); r[2] = uint64(len(x)); return r }})
			}
		}
		out = append(out,
			avx2Case{"Sum", typ, n, nulls, sum},
			avx2Case{"Min", typ, n, nulls, minI},
			avx2Case{"Max", typ, n, nulls, maxI},
			avx2Case{"MinMax", typ, n, nulls, mm},
			avx2Case{"Summarize", typ, n, nulls, sz})
	}
	return out
}

// BenchmarkAVX2Peers times each case's implementations one after the
// other; run it with -count to interleave passes.
func BenchmarkAVX2Peers(b *testing.B) {
	if !backendAvailable("avx2") {
		b.Skip("no avx2 backend on this CPU")
	}
	for _, c := range avx2Cases() {
		for _, im := range c.impls {
			name := "op=" + c.op + "/type=" + c.typ + "/n=" + strconv.Itoa(c.n) + "/nulls=" + strconv.Itoa(c.nulls) + "/impl=" + im.name
			b.Run(name, func(b *testing.B) {
				if im.backend {
					prev := quiver.ActiveBackend().Name
					defer quiver.SetBackend(prev)
					if err := quiver.SetBackend("avx2"); err != nil {
						b.Fatal(err)
					}
				}
				for b.Loop() {
					sink = im.run()
				}
			})
		}
	}
}

// TestAVX2Baselines checks the yardsticks: asm4 adds in the avx2 backend's
// exact order (so its result is the backend's, bit for bit), asm8 is close,
// and every peer agrees with quiver where the input leaves no choice.
func TestAVX2Baselines(t *testing.T) {
	if !backendAvailable("avx2") {
		t.Skip("no avx2 backend on this CPU")
	}
	prev := quiver.ActiveBackend().Name
	defer quiver.SetBackend(prev)
	if err := quiver.SetBackend("avx2"); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 128, 4096, 65536} {
		x64 := newInput[float64](n, 0).x
		if got, want := asmSum4F64(x64), quiver.Sum(x64); math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("asmSum4F64 n=%d: %v, avx2 Sum %v", n, got, want)
		}
		if got, want := asmSum8F64(x64), quiver.Sum(x64); math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
			t.Errorf("asmSum8F64 n=%d: %v, avx2 Sum %v", n, got, want)
		}
		x32 := newInput[float32](n, 0).x
		if got, want := asmSum4F32(x32), quiver.Sum(x32); math.Float32bits(got) != math.Float32bits(want) {
			t.Errorf("asmSum4F32 n=%d: %v, avx2 Sum %v", n, got, want)
		}
		if got, want := asmSum8F32(x32), quiver.Sum(x32); math.Abs(float64(got-want)) > 1e-2*(1+math.Abs(float64(want))) {
			t.Errorf("asmSum8F32 n=%d: %v, avx2 Sum %v", n, got, want)
		}
	}
	for _, c := range avx2Cases()[:14] {
		var want res
		for i, im := range c.impls {
			if im.name == "asm8" || (c.op == "Sum" && c.typ != "int64" && im.name != "asm4" && im.name != "avx2") {
				continue // another order: checked above by tolerance
			}
			got := im.run()
			if i == 0 {
				want = got
			} else if got != want {
				t.Errorf("%s %s n=%d nulls=%d: %s %#x, avx2 %#x", c.op, c.typ, c.n, c.nulls, im.name, got, want)
			}
		}
	}
}
