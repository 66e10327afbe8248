//go:build amd64 && !purego

package kernel

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// avx512Operand matches a register only AVX-512 has: X16-X31, Y16-Y31,
// ZMM or an opmask.
var avx512Operand = regexp.MustCompile(`\b(Z([0-9]|[12][0-9]|3[01])|K[0-7]|[XY](1[6-9]|2[0-9]|3[01]))\b`)

// checkAsmShape reads generated amd64 kernel files and reports, per
// kernel, a RET that does not directly follow VZEROUPPER (an AVX kernel
// that returns with dirty upper halves slows every SSE instruction after
// it) and, in AVX2 kernels, any AVX-512 register (which the AVX2
// backend's feature check would not cover). It returns how many kernels
// it read and how many of them are AVX2 kernels.
// isAVX2Kernel says whether the TEXT symbol fn is a kernel for CPUs
// without AVX-512: its name ends in AVX2, or in AVX2FMA.
func isAVX2Kernel(fn string) bool {
	return strings.Contains(fn, "AVX2(") || strings.Contains(fn, "AVX2FMA(")
}

func checkAsmShape(t *testing.T, files ...string) (kernels, avx2 int) {
	t.Helper()
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var fn, prev string
		for i, line := range strings.Split(string(src), "\n") {
			f := strings.Fields(line)
			if len(f) == 0 || strings.HasPrefix(f[0], "//") {
				continue
			}
			if f[0] == "TEXT" {
				fn, prev = f[1], ""
				kernels++
				if isAVX2Kernel(fn) {
					avx2++
				}
				continue
			}
			if fn == "" {
				continue
			}
			if f[0] == "RET" && prev != "VZEROUPPER" {
				t.Errorf("%s:%d: %s: RET after %s, want VZEROUPPER", file, i+1, fn, prev)
			}
			if isAVX2Kernel(fn) && avx512Operand.MatchString(line) {
				t.Errorf("%s:%d: %s: AVX-512 register in %q", file, i+1, fn, strings.TrimSpace(line))
			}
			prev = f[0]
		}
	}
	return kernels, avx2
}

// TestReproAssemblyShape applies checkAsmShape to the reproducible sum's
// kernels: an exponent pass and a fold per element type and ISA, for
// AVX2 a fold without FMA too, for AVX-512 a fold that runs the next
// block's range pass too, and a compress kernel per element type and ISA.
func TestReproAssemblyShape(t *testing.T) {
	if kernels, avx2 := checkAsmShape(t, "repro_amd64.s"); kernels != 16 || avx2 != 8 {
		t.Errorf("found %d kernels (%d AVX2), want 16 (8 AVX2)", kernels, avx2)
	}
}

// TestSumAssemblyShape reads the generated assembly of the sum and count
// families (see checkAsmShape).
func TestSumAssemblyShape(t *testing.T) {
	// Per ISA: ten sums, two lane-carrying float sums, two checked sums
	// and one count.
	if kernels, _ := checkAsmShape(t, "sum_amd64.s", "count_amd64.s"); kernels != 2*(10+2+2+1) {
		t.Errorf("found %d kernels, want %d", kernels, 2*(10+2+2+1))
	}
}

// TestSummaryAVX2OnlyVEX checks the generated AVX2 kernels for anything
// that needs AVX-512: registers X16-X31/Y16-Y31, ZMM or opmask registers.
// The register allocator is free to pick those, and a CPU with AVX2 but no
// AVX-512 would fault on them; this machine may well have AVX-512 and not
// notice.
func TestSummaryAVX2OnlyVEX(t *testing.T) {
	if _, avx2 := checkAsmShape(t, "summary_amd64.s"); avx2 != 72 {
		t.Errorf("found %d AVX2 summary kernels, want 72 (20 fused, 40 min-only and max-only, 6 dense and 6 seeded float with FMA)", avx2)
	}
}

// TestGatherAssemblyShape reads the generated selection kernels: every
// kernel returns through VZEROUPPER immediately before each RET (the
// out-of-line candidate blocks jump back rather than return), and the AVX2
// kernels use no AVX-512 register (X16-X31/Y16-Y31, ZMM or opmask), which
// a CPU with AVX2 alone would fault on.
func TestGatherAssemblyShape(t *testing.T) {
	kernels, avx2 := checkAsmShape(t, "gather_amd64.s")
	// 2 index-check kernels, 6 AVX2 min/max kernels (2 float types, 3
	// wants), 36 AVX-512 ones (6 types, 3 wants, with and without bits).
	if kernels != 2+6+36 || avx2 != 1+6 {
		t.Errorf("found %d kernels (%d AVX2), want %d (%d)", kernels, avx2, 2+6+36, 1+6)
	}
}
