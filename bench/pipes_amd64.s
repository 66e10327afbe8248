//go:build amd64

#include "textflag.h"

// Loops for BenchmarkPipes (pipes_amd64_test.go): each iteration issues
// 12 instructions with no dependency between them (each writes its own
// register from Y13-Y15, which stay zero, and the loads read pipebuf),
// alternating two kinds, so that the loop runs at the throughput of the
// pipes the two kinds share. PIPEIMUL is a chain of dependent IMULQ, the
// clock the benchmark converts times to cycles with.

#define MINPD(r) VMINPD Y14, Y13, r
#define MAXPD(r) VMAXPD Y14, Y13, r
#define CMPPD(r) VCMPPD $3, Y14, Y13, r
#define ADDPD(r) VADDPD Y14, Y13, r
#define MULPD(r) VMULPD Y14, Y13, r
#define FMAPD(r) VFMADD231PD Y14, Y13, r
#define BLENDPD(r) VBLENDVPD Y15, Y14, Y13, r
#define SHIFTQ(r) VPSLLVQ Y15, Y14, r
#define MULLD(r) VPMULLD Y14, Y13, r
#define MASKLD(r) VMASKMOVPD (SI), Y15, r
#define BCASTW(r) VPBROADCASTW (SI), r
#define ORPD(r) VORPD Y14, Y13, r
#define SHUFB(r) VPSHUFB Y14, Y13, r
#define ANDQ(r) VPAND Y14, Y13, r
#define CMPEQQ(r) VPCMPEQQ Y14, Y13, r
#define MULUDQ(r) VPMULUDQ Y14, Y13, r
#define IMULAX(r) IMULQ AX, AX

#define LOOP(name, A, B) \
TEXT name(SB), NOSPLIT, $0-8 \
	MOVQ n+0(FP), CX \
	LEAQ pipebuf<>(SB), SI \
	MOVQ $3, AX \
	VPXOR Y13, Y13, Y13 \
	VPXOR Y14, Y14, Y14 \
	VPXOR Y15, Y15, Y15 \
loop: \
	A(Y0); B(Y1); A(Y2); B(Y3); A(Y4); B(Y5) \
	A(Y6); B(Y7); A(Y8); B(Y9); A(Y10); B(Y11) \
	DECQ CX \
	JNZ  loop \
	VZEROUPPER \
	RET

LOOP(·pipeMinMin, MINPD, MINPD)
LOOP(·pipeBlendBlend, BLENDPD, BLENDPD)
LOOP(·pipeShiftShift, SHIFTQ, SHIFTQ)
LOOP(·pipeOrOr, ORPD, ORPD)
LOOP(·pipeMinMax, MINPD, MAXPD)
LOOP(·pipeMinCmp, MINPD, CMPPD)
LOOP(·pipeMinAdd, MINPD, ADDPD)
LOOP(·pipeMinShift, MINPD, SHIFTQ)
LOOP(·pipeMinBlend, MINPD, BLENDPD)
LOOP(·pipeMinFMA, MINPD, FMAPD)
LOOP(·pipeMinMul, MINPD, MULPD)
LOOP(·pipeMinMulld, MINPD, MULLD)
LOOP(·pipeMinShuf, MINPD, SHUFB)
LOOP(·pipeBlendShift, BLENDPD, SHIFTQ)
LOOP(·pipeBlendCmp, BLENDPD, CMPPD)
LOOP(·pipeBlendFMA, BLENDPD, FMAPD)
LOOP(·pipeBlendMaskLoad, BLENDPD, MASKLD)
LOOP(·pipeBlendShuf, BLENDPD, SHUFB)
LOOP(·pipeShiftMaskLoad, SHIFTQ, MASKLD)
LOOP(·pipeShiftBcast, SHIFTQ, BCASTW)

// The clock: each IMULQ waits for the one before (AX is never reloaded).
LOOP(·pipeIMUL, IMULAX, IMULAX)

GLOBL pipebuf<>(SB), RODATA|NOPTR, $64
LOOP(·pipeAndAnd, ANDQ, ANDQ)
LOOP(·pipeCmpeqCmpeq, CMPEQQ, CMPEQQ)
LOOP(·pipeMinAnd, MINPD, ANDQ)
LOOP(·pipeMinCmpeq, MINPD, CMPEQQ)
LOOP(·pipeMinMuludq, MINPD, MULUDQ)
LOOP(·pipeBlendAnd, BLENDPD, ANDQ)
LOOP(·pipeBlendCmpeq, BLENDPD, CMPEQQ)
LOOP(·pipeBlendMuludq, BLENDPD, MULUDQ)
