package kernel

import (
	"math/rand/v2"
	"testing"
)

func tmpData(n int) []float64 {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, n)
	for i := range x {
		x[i] = (r.Float64()*2 - 1) * float64(int64(1)<<r.IntN(40)) / (1 << 20)
	}
	return x
}

func BenchmarkTmpRepro(b *testing.B) {
	x := tmpData(4096)
	for _, id := range []reproID{reproAVX512, reproAVX2FMA} {
		k := reproKernels[float64]{id}
		b.Run("max"+string(rune('0'+id)), func(b *testing.B) {
			for b.Loop() {
				k.maxExp(x)
			}
		})
		mA, mB, mC := reproMagic(1023 + 20)
		b.Run("fold"+string(rune('0'+id)), func(b *testing.B) {
			for b.Loop() {
				k.fold(x, mA, mB, mC)
			}
		})
		b.Run("dense"+string(rune('0'+id)), func(b *testing.B) {
			var a ReproAcc
			for b.Loop() {
				reproAddDense(&a, k, x)
			}
		})
	}
}

func BenchmarkTmpSum(b *testing.B) {
	x := tmpData(4096)
	b.Run("sum512", func(b *testing.B) {
		for b.Loop() {
			SumFloat(AVX512, x, nil, 0)
		}
	})
}
