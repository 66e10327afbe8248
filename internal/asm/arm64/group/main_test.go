package main

import (
	"bytes"
	"go/format"
	"os"
	"testing"

	"github.com/quiverlabs/quiver/internal/asm/arm64/neon"
)

// TestGenerated: the committed files are what the generator produces (the
// kernels are plain arm64 instructions, no WORD encodings to check).
func TestGenerated(t *testing.T) {
	f, fns := generate()
	stubs, err := format.Source(neon.Stubs(generator, "kernel", f.Consts, fns))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want []byte
	}{{"../../../kernel/group_arm64.s", f.Bytes()}, {"../../../kernel/group_stubs_arm64.go", stubs}} {
		got, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, c.want) {
			t.Errorf("%s is not what the generator produces; run go generate at the repository root", c.path)
		}
	}
}
