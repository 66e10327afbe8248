package kit

import "github.com/quiverlabs/quiver/internal/asm/elem"

// Elem describes one element type that the kernels are generated for (see
// package elem, which the generators of plain Go share).
type Elem = elem.Elem

// Elems lists every element type, in the order the kernels are emitted.
var Elems = elem.Elems
