//go:build !unix

package quiver

import "testing"

// newGuarded skips: guard pages need mmap and mprotect.
func newGuarded(t *testing.T) *guarded {
	t.Helper()
	return newGuardedBytes(t, 0)
}

// newGuardedBytes skips: guard pages need mmap and mprotect.
func newGuardedBytes(t *testing.T, nbytes int) *guarded {
	t.Helper()
	t.Skip("no guard pages on this platform")
	return nil
}
