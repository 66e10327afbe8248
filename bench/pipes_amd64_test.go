//go:build amd64

package bench

import (
	"math"
	"testing"
	"time"

	"golang.org/x/sys/cpu"
)

// The loops of pipes_amd64.s: 12 independent instructions an iteration,
// two kinds alternating.
func pipeMinMin(n int)
func pipeBlendBlend(n int)
func pipeShiftShift(n int)
func pipeOrOr(n int)
func pipeMinMax(n int)
func pipeMinCmp(n int)
func pipeMinAdd(n int)
func pipeMinShift(n int)
func pipeMinBlend(n int)
func pipeMinFMA(n int)
func pipeMinMul(n int)
func pipeMinMulld(n int)
func pipeMinShuf(n int)
func pipeBlendShift(n int)
func pipeBlendCmp(n int)
func pipeBlendFMA(n int)
func pipeBlendMaskLoad(n int)
func pipeBlendShuf(n int)
func pipeShiftMaskLoad(n int)
func pipeShiftBcast(n int)
func pipeIMUL(n int)
func pipeAndAnd(n int)
func pipeCmpeqCmpeq(n int)
func pipeMinAnd(n int)
func pipeMinCmpeq(n int)
func pipeMinMuludq(n int)
func pipeBlendAnd(n int)
func pipeBlendCmpeq(n int)
func pipeBlendMuludq(n int)

// BenchmarkPipes measures which 256-bit AVX2 instructions of the masked
// summary kernels share execution pipes on this CPU: each loop issues 12
// independent instructions an iteration, two kinds alternating, and
// reports cycles per instruction (cyc/insn), with the cycle taken from a
// chain of dependent IMULQ (3 cycles each on every x86-64 core since
// Nehalem). Two kinds that share a pair of pipes run at about 0.5 (two a
// cycle) together; two on disjoint pairs at about 0.25. The kernels'
// shape follows from it (internal/asm/amd64/summary: sentinel and
// countsInRegs), so a new CPU model is worth one run:
//
//	go test -run '^$' -bench Pipes -count 3 .
func BenchmarkPipes(b *testing.B) {
	if !cpu.X86.HasAVX2 || !cpu.X86.HasFMA {
		b.Skip("needs AVX2 and FMA3")
	}
	const iters = 10000
	// The clock: the fastest of 50 runs of the IMUL chain.
	best := time.Duration(math.MaxInt64)
	for range 50 {
		t0 := time.Now()
		pipeIMUL(iters)
		best = min(best, time.Since(t0))
	}
	nsPerCycle := float64(best.Nanoseconds()) / (iters * 12 * 3)
	loops := []struct {
		name string
		f    func(int)
	}{
		{"VMINPD", pipeMinMin},
		{"VBLENDVPD", pipeBlendBlend},
		{"VPSLLVQ", pipeShiftShift},
		{"VORPD", pipeOrOr},
		{"VMINPD+VMAXPD", pipeMinMax},
		{"VMINPD+VCMPPD", pipeMinCmp},
		{"VMINPD+VADDPD", pipeMinAdd},
		{"VMINPD+VPSLLVQ", pipeMinShift},
		{"VMINPD+VBLENDVPD", pipeMinBlend},
		{"VMINPD+VFMADD231PD", pipeMinFMA},
		{"VMINPD+VMULPD", pipeMinMul},
		{"VMINPD+VPMULLD", pipeMinMulld},
		{"VMINPD+VPSHUFB", pipeMinShuf},
		{"VBLENDVPD+VPSLLVQ", pipeBlendShift},
		{"VBLENDVPD+VCMPPD", pipeBlendCmp},
		{"VBLENDVPD+VFMADD231PD", pipeBlendFMA},
		{"VBLENDVPD+VMASKMOVPD", pipeBlendMaskLoad},
		{"VBLENDVPD+VPSHUFB", pipeBlendShuf},
		{"VPSLLVQ+VMASKMOVPD", pipeShiftMaskLoad},
		{"VPSLLVQ+VPBROADCASTW", pipeShiftBcast},
		{"VPAND", pipeAndAnd},
		{"VPCMPEQQ", pipeCmpeqCmpeq},
		{"VMINPD+VPAND", pipeMinAnd},
		{"VMINPD+VPCMPEQQ", pipeMinCmpeq},
		{"VMINPD+VPMULUDQ", pipeMinMuludq},
		{"VBLENDVPD+VPAND", pipeBlendAnd},
		{"VBLENDVPD+VPCMPEQQ", pipeBlendCmpeq},
		{"VBLENDVPD+VPMULUDQ", pipeBlendMuludq},
	}
	for _, l := range loops {
		b.Run(l.name, func(b *testing.B) {
			for b.Loop() {
				l.f(iters)
			}
			ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(ns/(iters*12)/nsPerCycle, "cyc/insn")
		})
	}
}
