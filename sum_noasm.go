//go:build purego || !(amd64 || arm64)

package quiver

// archSumLanes is never called where no backend has assembly: every
// backend there sums in the strict order, which sumLanesOn runs in Go.
func archSumLanes[T float32 | float64](k lanesKernel, acc, x []T, bits []byte, off int) {
	panic("quiver: internal error: no lane-carrying kernel " + k.String())
}
