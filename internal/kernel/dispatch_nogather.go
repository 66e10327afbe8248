//go:build !amd64 || purego

package kernel

import "github.com/quiverlabs/quiver/internal/num"

// The selection families where no ISA has a gather kernel (every build but
// amd64 assembly): the Go loops of select.go, whatever the ISA.

// SelInRange reports whether every index of sel is below n.
func SelInRange(isa ISA, sel []uint32, n int) bool { return selInRangeGo(sel, n) }

// selSummaryOn is Summary over a selection, in selection order; it checks
// the indices.
func selSummaryOn[T num.Number](isa ISA, x []T, bm []byte, off int, sel []uint32, want Extremes) (lo, hi T, valid int) {
	return selSummaryGo(x, bm, off, sel, want)
}
