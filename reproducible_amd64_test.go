//go:build amd64 && !purego

package quiver

import "testing"

// TestReproFoldAVX2NoFMA runs the kernel differential test on the AVX2
// folds that CPUs without FMA use, which the backend does not select on a
// CPU with FMA.
func TestReproFoldAVX2NoFMA(t *testing.T) {
	if !avx2Backend.available {
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
