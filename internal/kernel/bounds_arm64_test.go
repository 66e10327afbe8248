//go:build arm64 && !purego

package kernel

import (
	"runtime"
	"runtime/debug"
	"testing"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
)

// TestNEONKernelSpans calls every kernel-call helper directly, the way the
// wrappers do, first with slices holding exactly what the kernel reads and
// then asking for one block more than the data or one byte more than the
// bitmap holds. The second must stop in Go, with a bounds-check panic,
// before the assembly runs: the kernels may only receive spans whose whole
// extent Go has checked. Every slice has spare capacity past its length, so
// a span checked against the capacity instead of the length is caught too.
func TestNEONKernelSpans(t *testing.T) {
	t.Run("float32", func(t *testing.T) { spanFloat[float32](t) })
	t.Run("float64", func(t *testing.T) { spanFloat[float64](t) })
	t.Run("int8", func(t *testing.T) { spanInt[int8](t) })
	t.Run("int16", func(t *testing.T) { spanInt[int16](t) })
	t.Run("int32", func(t *testing.T) { spanInt[int32](t) })
	t.Run("int64", func(t *testing.T) { spanInt[int64](t) })
	t.Run("uint8", func(t *testing.T) { spanInt[uint8](t) })
	t.Run("uint16", func(t *testing.T) { spanInt[uint16](t) })
	t.Run("uint32", func(t *testing.T) { spanInt[uint32](t) })
	t.Run("uint64", func(t *testing.T) { spanInt[uint64](t) })
	t.Run("split/int64", func(t *testing.T) { spanSplit[int64](t) })
	t.Run("split/uint64", func(t *testing.T) { spanSplit[uint64](t) })
	t.Run("count", func(t *testing.T) {
		const blocks, b = 3, 5
		bm := roomy[byte](b + 64*blocks)
		spanOK(t, "countBits exact", func() { kernelCountBits(bm, b, blocks) })
		spanPanics(t, "countBits one block more", func() { kernelCountBits(bm, b, blocks+1) })
		spanPanics(t, "countBits bitmap a byte short", func() { kernelCountBits(bm[:len(bm)-1], b, blocks) })
	})
}

// roomy returns n zero elements with as many again of spare capacity.
func roomy[T any](n int) []T { return make([]T, n, 2*n+64) }

// spanPanics runs f and fails unless it panics with a Go runtime error
// that is not a memory fault (faults are turned into panics for the
// duration, so that a kernel reading an unmapped page is reported rather
// than crashing the test binary).
func spanPanics(t *testing.T, what string, f func()) {
	t.Helper()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	r := func() (r any) {
		defer func() { r = recover() }()
		f()
		return nil
	}()
	switch e := r.(type) {
	case nil:
		t.Errorf("%s: no panic: the kernel was given memory beyond the slice", what)
	case interface{ Addr() uintptr }:
		t.Errorf("%s: memory fault (%v), want a Go bounds check", what, e)
	case runtime.Error:
		// The bounds check.
	default:
		t.Errorf("%s: panic %v, want a Go bounds check", what, e)
	}
}

// spanOK runs f and fails if it panics.
func spanOK(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: %v", what, r)
		}
	}()
	f()
}

func spanFloat[T float32 | float64](t *testing.T) {
	const blocks, b = 3, 2
	block := 4 * vectorLanes[T]()
	step, load := sumF64MaskedStep, sumF64MaskedLoad
	if num.KindOf[T]() == num.Float32 {
		step, load = sumF32MaskedStep, sumF32MaskedLoad
	}
	x, xBig := roomy[T](blocks*block), roomy[T]((blocks+1)*block)
	bits := roomy[byte](b + (blocks-1)*step + load)
	bitsBig := roomy[byte](b + blocks*step + load)
	var acc [16]T
	spanOK(t, "sum exact", func() { kernelSumFloat(x, blocks, &acc) })
	spanPanics(t, "sum one block more", func() { kernelSumFloat(x, blocks+1, &acc) })
	for shift := uint(0); shift < 8; shift += 7 {
		spanOK(t, "masked sum exact", func() { kernelSumFloatMasked(x, blocks, bits, b, shift, &acc) })
		spanPanics(t, "masked sum one block more", func() { kernelSumFloatMasked(x, blocks+1, bitsBig, b, shift, &acc) })
		spanPanics(t, "masked sum bitmap a byte short", func() {
			kernelSumFloatMasked(xBig, blocks, bits[:len(bits)-1], b, shift, &acc)
		})
	}
	spanSummary[T](t)
}

func spanInt[T constraints.Integer](t *testing.T) {
	const iters, b = 3, 3
	per := 4 * vectorLanes[T]()
	x, xBig := roomy[T](iters*per), roomy[T]((iters+1)*per)
	bits, bitsBig := roomy[byte](b+iters*per/8), roomy[byte](b+(iters+1)*per/8)
	spanOK(t, "sum exact", func() { kernelSumInt(x, iters, nil, 0) })
	spanOK(t, "masked sum exact", func() { kernelSumInt(x, iters, bits, b) })
	spanPanics(t, "sum one block more", func() { kernelSumInt(x, iters+1, nil, 0) })
	spanPanics(t, "masked sum one block more", func() { kernelSumInt(x, iters+1, bitsBig, b) })
	spanPanics(t, "masked sum bitmap a byte short", func() { kernelSumInt(xBig, iters, bits[:len(bits)-1], b) })
	spanSummary[T](t)
}

func spanSummary[T num.Number](t *testing.T) {
	const iters, b = 3, 1
	per := 4 * vectorLanes[T]()
	x, xBig := roomy[T](iters*per), roomy[T]((iters+1)*per)
	bits, bitsBig := roomy[byte](b+iters*per/8), roomy[byte](b+(iters+1)*per/8)
	var out [32]T
	spanOK(t, "summary exact", func() { kernelSummary(x, iters, nil, 0, &out) })
	spanOK(t, "masked summary exact", func() { kernelSummary(x, iters, bits, b, &out) })
	spanPanics(t, "summary one block more", func() { kernelSummary(x, iters+1, nil, 0, &out) })
	spanPanics(t, "masked summary one block more", func() { kernelSummary(x, iters+1, bitsBig, b, &out) })
	spanPanics(t, "masked summary bitmap a byte short", func() { kernelSummary(xBig, iters, bits[:len(bits)-1], b, &out) })
}

func spanSplit[T int64 | uint64](t *testing.T) {
	const iters, b = 3, 4
	x, xBig := roomy[T](8*iters), roomy[T](8*(iters+1))
	bits, bitsBig := roomy[byte](b+iters), roomy[byte](b+iters+1)
	var out [4]uint64
	spanOK(t, "split exact", func() { kernelSplit(x, iters, nil, 0, &out) })
	spanOK(t, "masked split exact", func() { kernelSplit(x, iters, bits, b, &out) })
	spanPanics(t, "split one block more", func() { kernelSplit(x, iters+1, nil, 0, &out) })
	spanPanics(t, "masked split one block more", func() { kernelSplit(x, iters+1, bitsBig, b, &out) })
	spanPanics(t, "masked split bitmap a byte short", func() { kernelSplit(xBig, iters, bits[:len(bits)-1], b, &out) })
}
