package quiver

import (
	"fmt"
	"github.com/quiverlabs/quiver/internal/kernel"
	mbits "math/bits"
)

// CountValid returns how many of n elements are valid under m: the set
// bits among bits offset..offset+n-1 of m's bitmap, or, with a selection,
// the selected entries whose bit is set (once per entry, every index below
// n). Without a bitmap every element is valid, so any n >= 0 is accepted.
//
// It panics if n is negative, if more than one Mask is given, if m's
// bitmap is too short for n elements at its offset (see [Valid]), or if a
// selection index is n or more.
func CountValid(n int, m ...Mask) int {
	if n < 0 {
		panic(fmt.Sprintf("quiver: element count %d is negative", n))
	}
	if n < kernel.SmallCut {
		if w, ok := shortWord(n, m); ok {
			return mbits.OnesCount64(w)
		}
	} else if bits, off, ok := bitmapSpan(n, m); ok {
		// A bitmap alone: the kernel with no frame between.
		return kernel.CountValid(active.Load().isa, bits, off, n)
	}
	bits, off, sel, hasSel := maskOf(n, m)
	return countOn(active.Load(), n, bits, off, sel, hasSel)
}

// countOn is CountValid on b from validated parts (see maskOf).
func countOn(b *backend, n int, bits []byte, off int, sel []uint32, hasSel bool) int {
	switch {
	case hasSel:
		return kernel.SelCount(bits, off, sel)
	case bits == nil:
		return n
	case n < kernel.SmallCut:
		return kernel.CountSmall(bits, off, n)
	}
	return kernel.CountValid(b.isa, bits, off, n)
}
