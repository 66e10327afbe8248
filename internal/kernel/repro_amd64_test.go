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
