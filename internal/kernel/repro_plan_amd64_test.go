//go:build amd64 && !purego

package kernel

import "testing"

// TestReproPlansAVX2NoFMA runs TestReproPlans' checks on the AVX2 folds
// that CPUs without FMA use, which the backend does not select on a CPU
// with FMA.
func TestReproPlansAVX2NoFMA(t *testing.T) {
	if !hasISA(AVX2) {
		t.Skip("no AVX2")
	}
	t.Run("float64", func(t *testing.T) { reproPlanDiff(t, reproKernels[float64]{reproAVX2}) })
	t.Run("float32", func(t *testing.T) { reproPlanDiff(t, reproKernels[float32]{reproAVX2}) })
}

// TestReproPlansAVX512Stream runs TestReproPlans' checks on the AVX-512
// kernels for dense input from DRAM, whose foldNext runs the next block's
// range pass in the fold loop; the backend selects them only from
// reproDRAMBytes on.
func TestReproPlansAVX512Stream(t *testing.T) {
	if !hasISA(AVX512) {
		t.Skip("no AVX-512")
	}
	t.Run("float64", func(t *testing.T) { reproPlanDiff(t, reproKernels[float64]{reproAVX512Stream}) })
	t.Run("float32", func(t *testing.T) { reproPlanDiff(t, reproKernels[float32]{reproAVX512Stream}) })
}
