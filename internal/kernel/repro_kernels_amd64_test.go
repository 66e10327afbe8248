//go:build amd64 && !purego

package kernel

import (
	"math"
	"math/rand/v2"
	"testing"

	"golang.org/x/sys/cpu"
)

// BenchmarkReproKernels times the reproducible sum's two passes alone on
// one L1-resident block of float64 values spread over 2^-20..2^20 (the
// bench module's data, plan x3), so that their cost per vector can be
// read apart from memory: ns/op over 4096 elements.
func BenchmarkReproKernels(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, reproBlock)
	for i := range x {
		x[i] = math.Ldexp(1+r.Float64(), r.IntN(41)-20)
		if r.IntN(2) == 0 {
			x[i] = -x[i]
		}
	}
	ids := []struct {
		name string
		id   reproID
		ok   bool
	}{
		{"go", reproGo, true},
		{"avx2fma", reproAVX2FMA, cpu.X86.HasAVX2 && cpu.X86.HasFMA},
		{"avx512", reproAVX512, cpu.X86.HasAVX512F},
	}
	for _, c := range ids {
		if !c.ok {
			continue
		}
		k := reproKernels[float64]{c.id}
		e, p := k.plan(x)
		mA, mB, mC := reproMagic(e)
		if c.id != reproGo {
			b.Run(c.name+"/range", func(b *testing.B) {
				for b.Loop() {
					sinkU32, _ = archReproRange(c.id, x)
				}
			})
		}
		// Every plan on the same block (a cheaper plan than the chosen
		// one gives an inexact sum here, but runs the same instructions).
		for _, pl := range []reproPlan{reproC3, reproX3, reproX2} {
			b.Run(c.name+"/fold"+[]string{"c3", "x3", "x2"}[pl], func(b *testing.B) {
				for b.Loop() {
					sinkI64, _, _, _ = k.foldPlan(x, x, pl, mA, mB, mC)
				}
			})
		}
		// The block as SumReproducible folds it: range pass, the chosen
		// plan, the deposits.
		b.Run(c.name+"/block", func(b *testing.B) {
			b.Logf("plan %d", p)
			var a ReproAcc
			for b.Loop() {
				reproAddDense(&a, k, x)
			}
		})
	}
}

var (
	sinkU32 uint32
	sinkI64 int64
)
