package neon

import (
	"testing"
)

// TestKnownEncodings pins a few encodings to values from the Arm reference
// and from the disassembler, independent of the emitter's own comments.
func TestKnownEncodings(t *testing.T) {
	var f File
	f.FADD(D2, 0, 0, 1)
	f.FMIN(S4, 2, 3, 4)
	f.ADALP(true, S4, 0, 4)
	f.ADDLP(false, B16, 5, 6)
	want := []uint32{0x4e61d400, 0x4ea4f462, 0x4ea06880, 0x6e2028c5}
	for i, w := range f.Words {
		if w.Enc != want[i] {
			t.Errorf("word %d (%s) = %#08x, want %#08x", i, w.Asm, w.Enc, want[i])
		}
	}
}

// TestEncodingsDisassemble emits every encoded instruction in every
// arrangement it is used with and checks the disassembly of each word
// against its comment.
func TestEncodingsDisassemble(t *testing.T) {
	RequireObjdump(t)
	var f File
	for _, a := range []Arr{S2, S4, D2} {
		f.FADD(a, 1, 2, 3)
		f.FMIN(a, 31, 0, 17)
		f.FMAX(a, 4, 30, 9)
	}
	for _, a := range []Arr{B8, B16, H4, H8, S2, S4} {
		for _, signed := range []bool{true, false} {
			f.MIN(signed, a, 5, 6, 7)
			f.MAX(signed, a, 8, 9, 10)
			f.ADDLP(signed, a, 11, 12)
			f.ADALP(signed, a, 13, 14)
		}
	}
	for _, a := range []Arr{B16, H8, S4, D2} {
		f.CMGT(true, a, 15, 16, 17)
		f.CMGT(false, a, 18, 19, 20)
		f.SSHR(a, 21, 22, 1)
		f.SSHR(a, 23, 24, a.Size*8)
	}
	f.ORN(25, 26, 27)
	checkWords(t, f.Words)
}

func checkWords(t *testing.T, words []Word) {
	t.Helper()
	bad, err := Mismatches(words)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Error(b)
	}
	if len(words) == 0 {
		t.Fatal("no words to check")
	}
}

// TestMismatchDetected shows the check can fail: a comment naming the
// wrong register is reported.
func TestMismatchDetected(t *testing.T) {
	RequireObjdump(t)
	bad, err := Mismatches([]Word{{0x4e61d400, "fadd v0.2d, v0.2d, v1.2d"}, {0x4e61d400, "fadd v0.2d, v0.2d, v2.2d"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) != 1 {
		t.Fatalf("got %d mismatches %q, want exactly the second word", len(bad), bad)
	}
}

// TestFrameLayout pins the argument frame of a function with slice
// parameters: three words per slice, one per other parameter, the result
// after them, and the names go vet expects (x_base, x_len).
func TestFrameLayout(t *testing.T) {
	fn := Func{Name: "k", Params: []string{"x []float32", "bm []byte", "shift uint", "acc *[16]float32"}, Result: "int"}
	var f File
	f.Begin(fn, "R0", "R2", "R3", "R5")
	f.Len(fn, "bm", "R1")
	f.Blocks(fn, "x", 4, "R6")
	f.Return(fn, "R4")
	want := `
// func k(x []float32, bm []byte, shift uint, acc *[16]float32) int
TEXT ·k(SB), NOSPLIT|NOFRAME, $0-72
	MOVD	x_base+0(FP), R0
	MOVD	bm_base+24(FP), R2
	MOVD	shift+48(FP), R3
	MOVD	acc+56(FP), R5
	MOVD	bm_len+32(FP), R1
	MOVD	x_len+8(FP), R6
	LSR	$4, R6, R6
	MOVD	R4, ret+64(FP)
	RET
`
	if got := string(f.Bytes()); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
