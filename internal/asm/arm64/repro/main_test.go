package main

import (
	"testing"

	"github.com/quiverlabs/quiver/internal/asm/arm64/neon"
)

func TestGenerated(t *testing.T) {
	f, fns := generate()
	neon.CheckGenerated(t, generator, f, fns, "../../../../reproducible_arm64.s", "../../../../reproducible_stubs_arm64.go")
}
