package quiver

import (
	"math"
	"math/rand/v2"
	"testing"
)

func tmpInput(n int) []float64 {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, n)
	for i := range x {
		x[i] = (r.Float64()*2 - 1) * math.Ldexp(1, r.IntN(40)-20)
	}
	return x
}

func BenchmarkTmpParts(b *testing.B) {
	x := tmpInput(4096)
	for _, name := range []string{"avx512", "avx2", "generic"} {
		SetBackend(name)
		bk := active.Load()
		b.Run(name+"/max", func(b *testing.B) {
			for b.Loop() {
				_ = bk.repro64.maxExp(x)
			}
		})
		mA, mB, mC := reproMagic(bk.repro64.maxExp(x))
		b.Run(name+"/fold", func(b *testing.B) {
			for b.Loop() {
				_, _, _, _ = bk.repro64.fold(x, mA, mB, mC)
			}
		})
		b.Run(name+"/all", func(b *testing.B) {
			for b.Loop() {
				_ = SumReproducible(x)
			}
		})
	}
	var s SumReproducibleState[float64]
	s.Add(x)
	b.Run("Sum()", func(b *testing.B) {
		for b.Loop() {
			_ = s.Sum()
		}
	})
	mA, mB, mC := reproMagic(reproMaxExp64(x))
	_, _, _, r := reproGoKernels[float64]().fold(x, mA, mB, mC)
	b.Logf("resid %x", r)
}
