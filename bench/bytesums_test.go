package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver"
)

// A masked SumInt or SumUint of 8-bit elements shorter than 64 runs the
// inline loop over one validity word (kernel.SumIntsWord): for each
// element a load, the word's low bit turned into a mask, an AND, an add
// and a shift, about five operations an element. The generated ledger
// put it behind the plain loop that branches on each bit (uint8 with 10%
// nulls, AMD EPYC family 26 model 2, avx512: 18.9 against 15.3 ns at
// n=16, 28.8 against 24.8 at n=32). The change: eight elements a step in
// one 64-bit word, their bits spread to byte masks by a multiply, and the
// bytes added in four 16-bit lanes (a signed type subtracts 256 for each
// valid byte with its top bit set), the rest element by element as
// before. Registered before the A/B against the commit before it
// (BenchmarkByteSums, avx2 and avx512, 16 rotating inputs of 10% nulls):
//
//	H517 (measured by hand): masked SumUint uint8 and SumInt int8 at n=32 and 63: <= 0.70x
//	H518 (measured by hand): the same at n=16: <= 0.85x; at n=8: <= 1.00x; at n=4: <= 1.03x
//	H519 (measured by hand): masked uint8 and int8 sums at n=16, 32 and 63 at least level with the plain loop in the same run (quiver's time <= 1.00x the loop's)
//
// The generic backend sums a masked input of any length 64 elements at a
// time through the same word loop (internal/kernel/generic.go), so the
// change reaches it at every length (BenchmarkByteSumsGeneric):
//
//	H520 (measured by hand): generic backend, masked SumUint uint8 and SumInt int8 at n=4096: <= 0.50x, and at least 1.5x faster than the plain loop in the same run
//
// The generic backend's dense 8-bit sums (four independent sums in
// kernel.SumInts, one element an add) take the same eight-a-word lanes
// without the mask, the lanes emptied every 128 words:
//
//	H521 (measured by hand): generic backend, dense SumUint uint8 and SumInt int8 at n=4096 and 65536: <= 0.50x, and faster than the plain loop in the same run

// BenchmarkByteSums times masked SumUint (uint8) and SumInt (int8) of
// 4 to 63 elements against the plain loops of peers_test.go, for
// H517-H519:
//
//	go test -run '^$' -bench 'ByteSums' -count 6 .
func BenchmarkByteSums(b *testing.B) {
	forBackends(b, []string{"avx2", "avx512"}, func(b *testing.B, _ string) {
		for _, n := range []int{4, 8, 16, 32, 63} {
			byteSumCells[uint8](b, n, func(x []uint8, m quiver.Mask) int64 { return int64(quiver.SumUint(x, m)) },
				func(x []uint8, bm []byte) int64 { return int64(loopSumUnsignedMasked(x, bm)) })
			byteSumCells[int8](b, n, func(x []int8, m quiver.Mask) int64 { return quiver.SumInt(x, m) },
				loopSumSignedMasked[int8])
		}
	})
}

// byteInput is a column, its bitmap from bit 0 and the Mask over it.
type byteInput[T number] struct {
	x  []T
	bm []byte
	m  quiver.Mask
}

// byteSumCells runs quiver's masked sum q and the plain loop over 16
// inputs of n elements of T with 10% nulls, each iteration the next.
func byteSumCells[T number](b *testing.B, n int, q func([]T, quiver.Mask) int64, loop func([]T, []byte) int64) {
	r := rand.New(rand.NewPCG(uint64(n), 517))
	xs := rotation[T](n, 517)
	var ins [16]byteInput[T]
	for k := range ins {
		bm := drawBitmap(r, n, 10)
		ins[k] = byteInput[T]{xs[k], bm, quiver.Valid(bm, 0)}
	}
	name := fmt.Sprintf("type=%s/n=%d", typeName[T](), n)
	rotatedCell(b, name+"/impl=quiver", &ins, func(in byteInput[T]) int64 { return q(in.x, in.m) })
	rotatedCell(b, name+"/impl=loop", &ins, func(in byteInput[T]) int64 { return loop(in.x, in.bm) })
}

// BenchmarkByteSumsGeneric times the generic backend's masked 8-bit sums
// of 4096 elements and its dense ones of 4096 and 65536 against the plain
// loops, for H520 and H521:
//
//	go test -run '^$' -bench 'ByteSumsGeneric' -count 6 .
func BenchmarkByteSumsGeneric(b *testing.B) {
	useBackend(b, "generic")
	byteSumCells[uint8](b, 4096, func(x []uint8, m quiver.Mask) int64 { return int64(quiver.SumUint(x, m)) },
		func(x []uint8, bm []byte) int64 { return int64(loopSumUnsignedMasked(x, bm)) })
	byteSumCells[int8](b, 4096, func(x []int8, m quiver.Mask) int64 { return quiver.SumInt(x, m) },
		loopSumSignedMasked[int8])
	for _, n := range []int{4096, 65536} {
		byteDenseCells[uint8](b, n, func(x []uint8) int64 { return int64(quiver.SumUint(x)) },
			func(x []uint8) int64 { return int64(loopSumUnsigned(x)) })
		byteDenseCells[int8](b, n, func(x []int8) int64 { return quiver.SumInt(x) }, loopSumSigned[int8])
	}
}

// byteDenseCells runs quiver's dense sum q and the plain loop over 16
// inputs of n elements of T, each iteration the next.
func byteDenseCells[T number](b *testing.B, n int, q, loop func([]T) int64) {
	xs := rotation[T](n, 521)
	name := fmt.Sprintf("type=%s/n=%d/dense", typeName[T](), n)
	rotatedCell(b, name+"/impl=quiver", &xs, q)
	rotatedCell(b, name+"/impl=loop", &xs, loop)
}

// The checked sums of 8-bit elements shorter than 64 cannot overflow
// their 64-bit result, so a masked one is the wrapping sum of
// kernel.SumPackedWord, where it ran the loop over one validity word that
// splits each element at bit 32 (kernel.HalvesWord). Registered before
// the A/B against the commit before it (BenchmarkByteChecked):
//
//	H522 (measured by hand): masked SumChecked int8 and SumCheckedUint uint8, avx2 and avx512, at n=32 and 63: <= 0.75x; at n=16: <= 0.90x; at n=4: <= 1.03x

// BenchmarkByteChecked times masked SumChecked (int8) and SumCheckedUint
// (uint8) of 4 to 63 elements against the plain loops, for H522:
//
//	go test -run '^$' -bench 'ByteChecked' -count 6 .
func BenchmarkByteChecked(b *testing.B) {
	forBackends(b, []string{"avx2", "avx512"}, func(b *testing.B, _ string) {
		for _, n := range []int{4, 16, 32, 63} {
			byteSumCells[uint8](b, n, func(x []uint8, m quiver.Mask) int64 { return int64(quiver.SumCheckedUint(x, m).Sum) },
				func(x []uint8, bm []byte) int64 { return int64(loopSumUnsignedMasked(x, bm)) })
			byteSumCells[int8](b, n, func(x []int8, m quiver.Mask) int64 { return quiver.SumChecked(x, m).Sum },
				loopSumSignedMasked[int8])
		}
	})
}

// 16-bit elements take the same words, four a step: the step's four
// validity bits spread to 16-bit lanes, the masked elements added in two
// 32-bit lanes (kernel.SumPackedWord), for masked SumInt and
// SumChecked of fewer than 64 elements and the generic backend's masked
// sums. Registered before the A/B against the commit before it
// (BenchmarkHalfwordSums, int16, 10% nulls):
//
//	H523 (measured by hand): masked SumInt and SumChecked int16, avx2 and avx512, at n=32 and 63: <= 0.80x; at n=16: <= 0.95x; at n=4: <= 1.03x
//	H524 (measured by hand): generic backend, masked SumInt int16 at n=4096: <= 0.60x

// BenchmarkHalfwordSums times masked SumInt and SumChecked of int16 from
// 4 to 63 elements on avx2 and avx512, and the generic backend's masked
// SumInt of 4096, against the plain loop, for H523 and H524:
//
//	go test -run '^$' -bench 'HalfwordSums' -count 6 .
func BenchmarkHalfwordSums(b *testing.B) {
	sum := func(x []int16, m quiver.Mask) int64 { return quiver.SumInt(x, m) }
	checked := func(x []int16, m quiver.Mask) int64 { return quiver.SumChecked(x, m).Sum }
	forBackends(b, []string{"avx2", "avx512"}, func(b *testing.B, _ string) {
		for _, n := range []int{4, 16, 32, 63} {
			b.Run("op=SumInt", func(b *testing.B) { byteSumCells[int16](b, n, sum, loopSumSignedMasked[int16]) })
			b.Run("op=SumChecked", func(b *testing.B) { byteSumCells[int16](b, n, checked, loopSumSignedMasked[int16]) })
		}
	})
	b.Run("backend=generic", func(b *testing.B) {
		useBackend(b, "generic")
		byteSumCells[int16](b, 4096, sum, loopSumSignedMasked[int16])
	})
}
