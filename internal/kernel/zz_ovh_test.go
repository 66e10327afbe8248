//go:build amd64 && !purego

package kernel

import (
	"math/rand/v2"
	"testing"
)

var zzs float64

//go:noinline
func zzLean(x []float64) float64 {
	lo, _, alarm := summaryMinDenseF64AVX2FMA(x)
	if alarm || lo == 0 {
		return 0
	}
	return lo
}

//go:noinline
func zzLeanG[T float32 | float64](x []T) T {
	lo, _, alarm := summaryDenseAsm(AVX2, WantMin, hasFMA, x)
	if alarm || lo == 0 {
		return 0
	}
	return lo
}

func BenchmarkZZAsm(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 1024)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	for _, n := range []int{64, 1024} {
		b.Run("asm", func(b *testing.B) {
			for b.Loop() {
				l, _, _ := summaryMinDenseF64AVX2FMA(x[:n])
				zzs = l
			}
		})
		b.Run("lean", func(b *testing.B) {
			for b.Loop() {
				zzs = zzLean(x[:n])
			}
		})
		b.Run("leanG", func(b *testing.B) {
			for b.Loop() {
				zzs = zzLeanG(x[:n])
			}
		})
		b.Run("typed", func(b *testing.B) {
			for b.Loop() {
				l, _ := entryDenseSummaryF64(AVX2, x[:n], WantMin)
				zzs = l
			}
		})
		b.Run("on", func(b *testing.B) {
			for b.Loop() {
				l, _ := denseSummaryOn(AVX2, x[:n], WantMin)
				zzs = l
			}
		})
		b.Run("entry", func(b *testing.B) {
			for b.Loop() {
				l, _ := DenseSummary(AVX2, x[:n], WantMin)
				zzs = l
			}
		})
	}
}
