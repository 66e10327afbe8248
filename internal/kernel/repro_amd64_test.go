//go:build amd64 && !purego

package kernel

import "testing"

// TestReproFoldAVX2NoFMA runs the kernel differential test on the AVX2
// folds that CPUs without FMA use, which the backend does not select on a
// CPU with FMA.
func TestReproFoldAVX2NoFMA(t *testing.T) {
	if !hasISA(AVX2) {
		t.Skip("no AVX2")
	}
	t.Run("float64", func(t *testing.T) {
		k := reproKernels[float64]{reproAVX2}
		reproKernelDiff(t, k, reproGoKernels[float64]())
	})
	t.Run("float32", func(t *testing.T) {
		k := reproKernels[float32]{reproAVX2}
		reproKernelDiff(t, k, reproGoKernels[float32]())
	})
}

// TestReproIDDense checks the size cut of the AVX-512 backend's
// reproducible kernels: its own below reproDRAMBytes, the streaming ones
// (reproAVX512Stream) from there, and the AVX2 ones unchanged at every
// size.
func TestReproIDDense(t *testing.T) {
	for _, c := range []struct {
		id   reproID
		n    int
		want reproID
	}{
		{reproAVX512, reproDRAMBytes - 8, reproAVX512},
		{reproAVX512, reproDRAMBytes, reproAVX512Stream},
		{reproIDOf(AVX2), reproDRAMBytes, reproIDOf(AVX2)},
		{reproIDOf(AVX2), 8, reproIDOf(AVX2)},
	} {
		if got := reproIDDense(c.id, c.n); got != c.want {
			t.Errorf("reproIDDense(%v, %d) = %v, want %v", c.id, c.n, got, c.want)
		}
	}
}
