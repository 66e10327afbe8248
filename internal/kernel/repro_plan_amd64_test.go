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
