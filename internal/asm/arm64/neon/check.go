package neon

import (
	"bytes"
	"go/format"
	"os"
	"os/exec"
	"testing"
)

// RequireObjdump skips t, with a message, when the disassembler is not on
// PATH; under CI (CI=true), which installs it, a missing one is a failure,
// so that the encodings are never silently left unchecked there.
func RequireObjdump(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath(Objdump); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s not on PATH under CI: install binutils-aarch64-linux-gnu", Objdump)
		}
		t.Skipf("%s not on PATH (Debian: binutils-aarch64-linux-gnu); WORD encodings not checked", Objdump)
	}
}

// CheckGenerated is the test of a generator: every WORD it emits must
// disassemble to the instruction in its comment (skipped, with a message,
// when the disassembler is missing), and the committed files at asmPath
// and stubsPath must be exactly what it generates now.
func CheckGenerated(t *testing.T, generator string, f *File, fns []Func, asmPath, stubsPath string) {
	t.Run("encodings", func(t *testing.T) {
		RequireObjdump(t)
		if len(f.Words) == 0 {
			t.Fatal("the generator emitted no WORD")
		}
		bad, err := Mismatches(f.Words)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bad {
			t.Error(b)
		}
		t.Logf("%d WORD instructions match their disassembly", len(f.Words))
	})
	t.Run("up to date", func(t *testing.T) {
		stubs, err := format.Source(Stubs(generator, "kernel", f.Consts, fns))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			path string
			want []byte
		}{{asmPath, f.Bytes()}, {stubsPath, stubs}} {
			got, err := os.ReadFile(c.path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, c.want) {
				t.Errorf("%s is not what the generator produces; run go generate at the repository root", c.path)
			}
		}
	})
}
