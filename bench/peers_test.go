package bench

import (
	"fmt"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The plain Go loops a user writes by hand, the baseline of the targets:
// `s += v`, `if v < m`, and with a bitmap a test of one bit per element.

func loopSumFloat[F ~float32 | ~float64](x []F) F {
	var s F
	for _, v := range x {
		s += v
	}
	return s
}

func loopSumFloatMasked[F ~float32 | ~float64](x []F, bm []byte) F {
	var s F
	for i, v := range x {
		if bm[i>>3]&(1<<(i&7)) != 0 {
			s += v
		}
	}
	return s
}

func loopSumSigned[S ~int8 | ~int16 | ~int32 | ~int64](x []S) int64 {
	var s int64
	for _, v := range x {
		s += int64(v)
	}
	return s
}

func loopSumSignedMasked[S ~int8 | ~int16 | ~int32 | ~int64](x []S, bm []byte) int64 {
	var s int64
	for i, v := range x {
		if bm[i>>3]&(1<<(i&7)) != 0 {
			s += int64(v)
		}
	}
	return s
}

func loopSumUnsigned[U ~uint8](x []U) uint64 {
	var s uint64
	for _, v := range x {
		s += uint64(v)
	}
	return s
}

func loopSumUnsignedMasked[U ~uint8](x []U, bm []byte) uint64 {
	var s uint64
	for i, v := range x {
		if bm[i>>3]&(1<<(i&7)) != 0 {
			s += uint64(v)
		}
	}
	return s
}

// loopSummary is the one-pass min, max and count a user writes: from
// x[0] when dense, from the identities lo0, hi0 with a bitmap.
func loopSummary[T number](x []T, bm []byte, lo0, hi0 T) (lo, hi T, count int) {
	if bm == nil {
		lo, hi = x[0], x[0]
		for _, v := range x[1:] {
			if v < lo {
				lo = v
			}
			if v > hi {
				hi = v
			}
		}
		return lo, hi, len(x)
	}
	lo, hi = lo0, hi0
	for i, v := range x {
		if bm[i>>3]&(1<<(i&7)) != 0 {
			if v < lo {
				lo = v
			}
			if v > hi {
				hi = v
			}
			count++
		}
	}
	return lo, hi, count
}

func loopMin[T number](x []T, bm []byte, lo0 T) T {
	if bm == nil {
		m := x[0]
		for _, v := range x[1:] {
			if v < m {
				m = v
			}
		}
		return m
	}
	m := lo0
	for i, v := range x {
		if bm[i>>3]&(1<<(i&7)) != 0 && v < m {
			m = v
		}
	}
	return m
}

func loopMax[T number](x []T, bm []byte, hi0 T) T {
	if bm == nil {
		m := x[0]
		for _, v := range x[1:] {
			if v > m {
				m = v
			}
		}
		return m
	}
	m := hi0
	for i, v := range x {
		if bm[i>>3]&(1<<(i&7)) != 0 && v > m {
			m = v
		}
	}
	return m
}

// Arrow arrays over the benchmark's own memory, without copying: the
// values buffer and, with nulls, the validity bitmap, as an Arrow reader
// would hand them over.

func arrowBuffers(n int, bm []byte, values []byte) ([]*memory.Buffer, int) {
	buffers := []*memory.Buffer{nil, memory.NewBufferBytes(values)}
	nullCount := 0
	if bm != nil {
		buffers[0] = memory.NewBufferBytes(bm)
		nullCount = n - popcount(bm, n)
	}
	return buffers, nullCount
}

func arrowFloat64(x []float64, bm []byte) *array.Float64 {
	buffers, nulls := arrowBuffers(len(x), bm, arrow.Float64Traits.CastToBytes(x))
	return array.NewFloat64Data(array.NewData(arrow.PrimitiveTypes.Float64, len(x), buffers, nil, nulls, 0))
}

func arrowInt64(x []int64, bm []byte) *array.Int64 {
	buffers, nulls := arrowBuffers(len(x), bm, arrow.Int64Traits.CastToBytes(x))
	return array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, len(x), buffers, nil, nulls, 0))
}

// popcount counts the set bits among the first n of bm.
func popcount(bm []byte, n int) int {
	c := 0
	for i := range n / 8 {
		c += bits.OnesCount8(bm[i])
	}
	for i := n &^ 7; i < n; i++ {
		c += int(bm[i>>3] >> (i & 7) & 1)
	}
	return c
}

// twoPass is what a user of a min-or-max library writes for both.
func twoPass[T any](minf, maxf func([]T) T, x []T) (T, T) {
	return minf(x), maxf(x)
}

// The plain loops over a selection vector: `for _, i := range sel`, with
// a bitmap one bit test per selected row. Dense min and max start from
// the first selected element, as the dense loops start from x[0].

func selSumFloat[F ~float32 | ~float64](x []F, sel []uint32, bm []byte) F {
	var s F
	if bm == nil {
		for _, i := range sel {
			s += x[i]
		}
		return s
	}
	for _, i := range sel {
		if bm[i>>3]&(1<<(i&7)) != 0 {
			s += x[i]
		}
	}
	return s
}

func selSumSigned[S ~int8 | ~int32 | ~int64](x []S, sel []uint32, bm []byte) int64 {
	var s int64
	if bm == nil {
		for _, i := range sel {
			s += int64(x[i])
		}
		return s
	}
	for _, i := range sel {
		if bm[i>>3]&(1<<(i&7)) != 0 {
			s += int64(x[i])
		}
	}
	return s
}

func selSumUnsigned[U ~uint8](x []U, sel []uint32, bm []byte) uint64 {
	var s uint64
	if bm == nil {
		for _, i := range sel {
			s += uint64(x[i])
		}
		return s
	}
	for _, i := range sel {
		if bm[i>>3]&(1<<(i&7)) != 0 {
			s += uint64(x[i])
		}
	}
	return s
}

func selMin[T number](x []T, sel []uint32, bm []byte, lo0 T) T {
	if bm == nil && len(sel) > 0 {
		m := x[sel[0]]
		for _, i := range sel[1:] {
			if v := x[i]; v < m {
				m = v
			}
		}
		return m
	}
	m := lo0
	for _, i := range sel {
		if bm[i>>3]&(1<<(i&7)) != 0 && x[i] < m {
			m = x[i]
		}
	}
	return m
}

func selMax[T number](x []T, sel []uint32, bm []byte, hi0 T) T {
	if bm == nil && len(sel) > 0 {
		m := x[sel[0]]
		for _, i := range sel[1:] {
			if v := x[i]; v > m {
				m = v
			}
		}
		return m
	}
	m := hi0
	for _, i := range sel {
		if bm[i>>3]&(1<<(i&7)) != 0 && x[i] > m {
			m = x[i]
		}
	}
	return m
}

func selSummary[T number](x []T, sel []uint32, bm []byte, lo0, hi0 T) (lo, hi T, count int) {
	if bm == nil && len(sel) > 0 {
		lo, hi = x[sel[0]], x[sel[0]]
		for _, i := range sel[1:] {
			v := x[i]
			if v < lo {
				lo = v
			}
			if v > hi {
				hi = v
			}
		}
		return lo, hi, len(sel)
	}
	lo, hi = lo0, hi0
	for _, i := range sel {
		if bm[i>>3]&(1<<(i&7)) != 0 {
			v := x[i]
			if v < lo {
				lo = v
			}
			if v > hi {
				hi = v
			}
			count++
		}
	}
	return lo, hi, count
}

// loopSumChecked is the exact int64 sum a user writes with math/bits: a
// 128-bit accumulator (hi, lo), each element sign-extended into it. The
// sum fits in int64 when hi is the sign extension of lo.
func loopSumChecked(x []int64, bm []byte) (int64, bool) {
	var hi, lo, c uint64
	if bm == nil {
		for _, v := range x {
			lo, c = bits.Add64(lo, uint64(v), 0)
			hi += uint64(v>>63) + c
		}
		return int64(lo), hi != uint64(int64(lo)>>63)
	}
	for i, v := range x {
		if bm[i>>3]&(1<<(i&7)) != 0 {
			lo, c = bits.Add64(lo, uint64(v), 0)
			hi += uint64(v>>63) + c
		}
	}
	return int64(lo), hi != uint64(int64(lo)>>63)
}

func selSumChecked(x []int64, sel []uint32, bm []byte) (int64, bool) {
	var hi, lo, c uint64
	if bm == nil {
		for _, i := range sel {
			v := x[i]
			lo, c = bits.Add64(lo, uint64(v), 0)
			hi += uint64(v>>63) + c
		}
		return int64(lo), hi != uint64(int64(lo)>>63)
	}
	for _, i := range sel {
		if bm[i>>3]&(1<<(i&7)) != 0 {
			v := x[i]
			lo, c = bits.Add64(lo, uint64(v), 0)
			hi += uint64(v>>63) + c
		}
	}
	return int64(lo), hi != uint64(int64(lo)>>63)
}

// loopCountValid counts the set bits among the first n of bm one at a
// time; without a bitmap every element is valid.
func loopCountValid(bm []byte, n int) int {
	if bm == nil {
		return n
	}
	c := 0
	for i := range n {
		if bm[i>>3]&(1<<(i&7)) != 0 {
			c++
		}
	}
	return c
}

// selCountValid counts the selected rows valid under bm. Without a bitmap
// every selected row is valid, but the count is only right if every index
// is a row: quiver.CountValid checks each against n (and panics on one out
// of range), so the loop checks each too, in the way a user would.
func selCountValid(sel []uint32, bm []byte, n int) int {
	if bm == nil {
		for _, i := range sel {
			if int(i) >= n {
				panic(fmt.Sprintf("selCountValid: index %d of %d rows", i, n))
			}
		}
		return len(sel)
	}
	c := 0
	for _, i := range sel {
		if bm[i>>3]&(1<<(i&7)) != 0 {
			c++
		}
	}
	return c
}
