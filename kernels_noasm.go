//go:build purego || !(amd64 || arm64)

package quiver

// archSumLanes is never called where no backend has assembly: every
// backend there sums in the strict order, which sumLanesOn runs in Go.
func archSumLanes[T float32 | float64](k lanesKernel, acc, x []T, bits []byte, off int) {
	panic("quiver: internal error: no lane-carrying kernel " + k.String())
}

// archReproMax and archReproFold are never called where no backend has
// assembly: every backend there runs the portable reproducible-sum
// kernels.
func archReproMax[T float32 | float64](id reproID, x []T) uint64 {
	panic("quiver: internal error: no reproducible-sum kernels here")
}

func archReproFold[T float32 | float64](id reproID, x []T, mA, mB, mC float64) (a, b, c float64, resid uint64) {
	panic("quiver: internal error: no reproducible-sum kernels here")
}

func archReproCompress[T float32 | float64](id reproID, dst, x []T, bits []byte, off int) int {
	panic("quiver: internal error: no compress kernel here")
}
