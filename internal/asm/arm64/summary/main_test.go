package main

import (
	"testing"

	"github.com/quiverlabs/quiver/internal/asm/arm64/neon"
)

func TestGenerated(t *testing.T) {
	f, fns := generate()
	neon.CheckGenerated(t, generator, f, fns, "../../../kernel/summary_arm64.s", "../../../kernel/summary_stubs_arm64.go")
}
