//go:build amd64 && !purego

package quiver

import "testing"

// TestGatherAssemblyShape reads the generated selection kernels: every
// kernel returns through VZEROUPPER immediately before each RET (the
// out-of-line candidate blocks jump back rather than return), and the AVX2
// kernels use no AVX-512 register (X16-X31/Y16-Y31, ZMM or opmask), which
// a CPU with AVX2 alone would fault on.
func TestGatherAssemblyShape(t *testing.T) {
	kernels, avx2 := checkAsmShape(t, "gather_amd64.s")
	// 6 index-check and sum kernels, 6 AVX2 min/max kernels (2 float
	// types, 3 wants), 36 AVX-512 ones (6 types, 3 wants, with and
	// without bits).
	if kernels != 6+6+36 || avx2 != 3+6 {
		t.Errorf("found %d kernels (%d AVX2), want %d (%d)", kernels, avx2, 6+6+36, 3+6)
	}
}
