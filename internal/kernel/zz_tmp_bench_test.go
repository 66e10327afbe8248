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
	for _, id := range []reproID{reproAVX512, reproAVX2FMA, reproGo} {
		k := reproKernels[float64]{id}
		e, p := k.plan(x)
		b.Logf("id %d plan %d", id, p)
		mA, mB, mC := reproMagic(e)
		b.Run("range"+string(rune('0'+id)), func(b *testing.B) {
			for b.Loop() {
				k.plan(x)
			}
		})
		for _, p := range []reproPlan{reproC3, reproX3, reproX2} {
			b.Run("fold"+string(rune('0'+id))+string(rune('0'+p)), func(b *testing.B) {
				for b.Loop() {
					k.foldPlan(x, nil, p, mA, mB, mC)
				}
			})
		}
		b.Run("dense"+string(rune('0'+id)), func(b *testing.B) {
			var a ReproAcc
			for b.Loop() {
				reproAddDense(&a, k, x)
			}
		})
	}
}
