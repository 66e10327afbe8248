//go:build !(amd64 || arm64 || ppc64 || ppc64le || loong64 || wasm)

package kernel

import "golang.org/x/exp/constraints"

// pick4 replaces each of p, q, r and s whose bit in w (bits 0 to 3) is
// clear with v0: the masked extremes' null elements (see foldMinWord).
// Go has no conditional move on these architectures (386, arm, riscv64,
// s390x, mips), where an if would be a branch on each bit that a random
// bitmap mispredicts, so each element is v0 ^ (x^v0)&mask, the mask all
// ones where the bit is set.
func pick4[B constraints.Integer](w uint64, p, q, r, s, v0 B) (B, B, B, B) {
	return v0 ^ (p^v0)&-B(w&1), v0 ^ (q^v0)&-B(w>>1&1), v0 ^ (r^v0)&-B(w>>2&1), v0 ^ (s^v0)&-B(w>>3&1)
}

// pick2 is pick4 for two elements, bits 0 and 1 of w.
func pick2[B constraints.Integer](w uint64, p, q, v0 B) (B, B) {
	return v0 ^ (p^v0)&-B(w&1), v0 ^ (q^v0)&-B(w>>1&1)
}
