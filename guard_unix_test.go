//go:build unix

package quiver

import (
	"testing"

	"golang.org/x/sys/unix"
)

// newGuarded returns one guarded page.
func newGuarded(t *testing.T) *guarded {
	t.Helper()
	return newGuardedBytes(t, unix.Getpagesize())
}

// newGuardedBytes returns at least nbytes of guarded memory, a whole number
// of pages, between two inaccessible pages.
func newGuardedBytes(t *testing.T, nbytes int) *guarded {
	t.Helper()
	page := unix.Getpagesize()
	size := max(1, (nbytes+page-1)/page) * page
	mem, err := unix.Mmap(-1, 0, size+2*page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	t.Cleanup(func() { unix.Munmap(mem) })
	for _, r := range [][]byte{mem[:page], mem[page+size:]} {
		if err := unix.Mprotect(r, unix.PROT_NONE); err != nil {
			t.Skipf("mprotect: %v", err)
		}
	}
	return &guarded{body: mem[page : page+size], mem: mem, start: page}
}
