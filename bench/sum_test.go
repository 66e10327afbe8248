package bench

// Pre-registered hypotheses for the sums, written before any number was
// measured (targets from the project's issue, for the Emerald Rapids Xeon
// with AVX-512 the project targets; ratios are baseline time over quiver
// time in the same run). "scalar" is the strict reference, "loop" the
// plain Go loop (with a bitmap: one bit tested per element), "best-peer"
// the fastest comparable alternative. At n=1048576 the data no longer fits
// in cache and every implementation is bound by memory bandwidth, so the
// target there is parity: within 5% of the best peer.
//
//	H1: Sum float64 n=4096 nulls=0%: avx512 >= 17x scalar        blocked A=4 accumulators vs the strict fold
//	H2: Sum float64 n=4096 nulls=0%: avx2 >= 11x scalar
//	H3: Sum float32 n=4096 nulls=0%: avx512 >= 35x scalar        twice the lanes of float64
//	H4: Sum int64 n=4096 nulls=0%: avx512 >= 8x scalar           integer adds are not latency-bound, a smaller win
//	H5: Sum int8 n=4096 nulls=0%: avx512 >= 30x scalar           64 bytes per load, widened in registers
//	H6: Sum uint8 n=4096 nulls=0%: avx512 >= 30x scalar
//	H7: Sum float64 n=65536 nulls=10%: avx512 >= 20x loop        masked lanes vs a bit test and branch per element
//	H8: Sum float64 n=65536 nulls=50%: avx512 >= 40x loop        at 50% nulls the loop's branch is unpredictable
//	H9: Sum float64 n=1048576 nulls=0%: avx512 >= 0.95x best-peer
//	H10: Sum float32 n=1048576 nulls=0%: avx512 >= 0.95x best-peer
//	H11: Sum int64 n=1048576 nulls=0%: avx512 >= 0.95x best-peer

import (
	"math"
	"slices"
	"testing"

	arrowmath "github.com/apache/arrow-go/v18/arrow/math"
	"github.com/viterin/vek"
	"github.com/viterin/vek/vek32"
	"gonum.org/v1/gonum/floats"

	"github.com/quiverlabs/quiver"
)

func BenchmarkSum(b *testing.B) { runSuites(b, slices.Concat(sumSuites, shortSumSuites, selSumSuites)) }

var sumSuites = []suite{
	newSuite("Sum", sumImpls[float64], closeSum[float64]),
	newSuite("Sum", sumImpls[float32], closeSum[float32]),
	newSuite("Sum", sumImpls[int64], exactCheck[int64]),
	newSuite("Sum", sumImpls[int32], exactCheck[int32]),
	newSuite("Sum", sumImpls[int8], exactCheck[int8]),
	newSuite("Sum", sumImpls[uint8], exactCheck[uint8]),
}

// exactCheck compares bit for bit: integer sums wrap identically in any
// order.
func exactCheck[T number](*input[T]) check { return exact }

// sumImpls returns quiver's sum of in and the alternatives: the plain loop
// and, per type, gonum floats.Sum, vek.Sum / vek32.Sum and Arrow's
// arrow/math Sum. Only Arrow's takes a validity bitmap (and ignores it),
// so on masked inputs the others are not run: they would sum a different
// set of values with no way to say otherwise.
func sumImpls[T number](in *input[T]) (func() res, []impl) {
	ms, bm, dense := in.masks, in.bits, in.bits == nil
	var q func() res
	var alts []impl
	add := func(name string, run func() res) { alts = append(alts, impl{name: name, run: run}) }
	switch x := any(in.x).(type) {
	case []float64:
		q = func() res { return res{math.Float64bits(quiver.Sum(x, ms...))} }
		if dense {
			add("loop", func() res { return res{math.Float64bits(loopSumFloat(x))} })
			add("gonum", func() res { return res{math.Float64bits(floats.Sum(x))} })
			add("vek", func() res { return res{math.Float64bits(vek.Sum(x))} })
		} else {
			add("loop", func() res { return res{math.Float64bits(loopSumFloatMasked(x, bm))} })
		}
		arr := arrowFloat64(x, bm)
		add("arrow", func() res { return res{math.Float64bits(arrowmath.Float64.Sum(arr))} })
	case []float32:
		q = func() res { return res{uint64(math.Float32bits(quiver.Sum(x, ms...)))} }
		if dense {
			add("loop", func() res { return res{uint64(math.Float32bits(loopSumFloat(x)))} })
			add("vek", func() res { return res{uint64(math.Float32bits(vek32.Sum(x)))} })
		} else {
			add("loop", func() res { return res{uint64(math.Float32bits(loopSumFloatMasked(x, bm)))} })
		}
	case []int64:
		q = func() res { return res{uint64(quiver.SumInt(x, ms...))} }
		add("loop", signedLoop(x, bm))
		arr := arrowInt64(x, bm)
		add("arrow", func() res { return res{uint64(arrowmath.Int64.Sum(arr))} })
	case []int32:
		q = func() res { return res{uint64(quiver.SumInt(x, ms...))} }
		add("loop", signedLoop(x, bm))
	case []int8:
		q = func() res { return res{uint64(quiver.SumInt(x, ms...))} }
		add("loop", signedLoop(x, bm))
	case []uint8:
		q = func() res { return res{quiver.SumUint(x, ms...)} }
		if dense {
			add("loop", func() res { return res{loopSumUnsigned(x)} })
		} else {
			add("loop", func() res { return res{loopSumUnsignedMasked(x, bm)} })
		}
	default:
		panic("sumImpls: unexpected element type " + typeName[T]())
	}
	return q, alts
}

// signedLoop is the plain loop over a signed slice, dense or masked.
func signedLoop[S ~int8 | ~int32 | ~int64](x []S, bm []byte) func() res {
	if bm == nil {
		return func() res { return res{uint64(loopSumSigned(x))} }
	}
	return func() res { return res{uint64(loopSumSignedMasked(x, bm))} }
}
