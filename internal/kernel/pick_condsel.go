//go:build amd64 || arm64 || ppc64 || ppc64le || loong64 || wasm

package kernel

import "golang.org/x/exp/constraints"

// pick4 replaces each of p, q, r and s whose bit in w (bits 0 to 3) is
// clear with v0: the masked extremes' null elements (see foldMinWord).
// On these architectures Go compiles each if to a conditional move; the
// mask arithmetic of pick_masks.go, which the others need to stay free of
// a branch per bit, took 1.17-1.34 times as long for a masked Min or
// MinMax on amd64 (docs/ledger.md, H451-H455).
func pick4[B constraints.Integer](w uint64, p, q, r, s, v0 B) (B, B, B, B) {
	if w&1 == 0 {
		p = v0
	}
	if w&2 == 0 {
		q = v0
	}
	if w&4 == 0 {
		r = v0
	}
	if w&8 == 0 {
		s = v0
	}
	return p, q, r, s
}

// pick2 is pick4 for two elements, bits 0 and 1 of w.
func pick2[B constraints.Integer](w uint64, p, q, v0 B) (B, B) {
	if w&1 == 0 {
		p = v0
	}
	if w&2 == 0 {
		q = v0
	}
	return p, q
}
