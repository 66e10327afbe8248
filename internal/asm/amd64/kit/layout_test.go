package kit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The dense uint8 summary loop of 73 bytes: instruction offsets, the
// closing CMPQ and JGE counted once (at 64).
var u8Loop = []int{0, 4, 8, 12, 17, 21, 25, 30, 34, 38, 43, 47, 51, 57, 64}

func TestBestPad(t *testing.T) {
	for _, c := range []struct{ start, cur, want int }{
		{0, 0, 13}, // 13 or 14 instructions in the first line from 0 to 12
		{5, 0, 8},  // where 429628e's linker put it
		{64 + 5, 0, 8},
		{20, 0, 0},  // already fits
		{0, 30, 30}, // a pad that fits stays
		{0, 3, 13},  // one that does not is replaced
		{56, 0, 21}, // 56: three lines, 13 in the second
	} {
		if got := bestPad(u8Loop, c.start, c.cur); got != c.want {
			t.Errorf("bestPad(start %d, cur %d) = %d, want %d", c.start, c.cur, got, c.want)
		}
		if most := fullestLine(u8Loop, (c.start+bestPad(u8Loop, c.start, c.cur))%64); most > LineOps {
			t.Errorf("start %d: fullest line %d", c.start, most)
		}
	}
	// A loop too dense for any place: the fewest bytes to its least.
	dense := make([]int, 40)
	for i := range dense {
		dense[i] = 4 * i
	}
	pad := bestPad(dense, 0, 0)
	least := fullestLine(dense, 0)
	for p := range 64 {
		least = min(least, fullestLine(dense, p))
	}
	if got := fullestLine(dense, pad); got != least {
		t.Errorf("dense loop: pad %d leaves %d in a line, %d possible", pad, got, least)
	}
}

func TestNops(t *testing.T) {
	for n := range 64 {
		total := 0
		for _, l := range nops(n) {
			k := strings.Count(l, "BYTE")
			if k < 1 || k > 9 {
				t.Fatalf("nops(%d): an instruction of %d bytes", n, k)
			}
			total += k
		}
		if total != n {
			t.Errorf("nops(%d) emits %d bytes", n, total)
		}
	}
}

// layoutSrc has one function whose loop, as written, starts at byte 64
// (after 45 bytes of zeroing and copies) and puts 14 instructions into
// its first line.
const layoutSrc = `#include "textflag.h"

// func f(x []byte) (lo byte, hi byte)
TEXT ·f(SB), NOSPLIT, $0-26
	MOVQ x_base+0(FP), AX
	MOVQ x_len+8(FP), CX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7
	VPXOR Y9, Y9, Y9
	MOVQ AX, DX
	MOVQ AX, DX
	MOVQ AX, DX
	CMPQ CX, $0x00000080
	JL   f_done

f_loop:
	VMOVDQU (AX), Y8
	VPMINUB Y0, Y8, Y0
	VPMAXUB Y1, Y8, Y1
	VMOVDQU 32(AX), Y8
	VPMINUB Y2, Y8, Y2
	VPMAXUB Y3, Y8, Y3
	VMOVDQU 64(AX), Y8
	VPMINUB Y4, Y8, Y4
	VPMAXUB Y5, Y8, Y5
	VMOVDQU 96(AX), Y8
	VPMINUB Y6, Y8, Y6
	VPMAXUB Y7, Y8, Y7
	ADDQ    $0x00000080, AX
	SUBQ    $0x00000080, CX
	CMPQ    CX, $0x00000080
	JGE     f_loop

f_done:
	VZEROUPPER
	RET
`

func TestLayOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f_amd64.s")
	if err := os.WriteFile(path, []byte(layoutSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	before, err := assemble(path, layoutSrc)
	if err != nil {
		t.Fatal(err)
	}
	loops := findLoops(before[0])
	if len(loops) != 1 || len(loops[0].offsets) != len(u8Loop) {
		t.Fatalf("found %+v, want one loop of %d instructions", loops, len(u8Loop))
	}
	if most := fullestLine(loops[0].offsets, loops[0].start%64); most <= LineOps {
		t.Fatalf("the test's loop already fits (%d in a line at %d): nothing to lay out", most, loops[0].start)
	}
	if err := LayOut(path); err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "\tPCALIGN $64\n") || !strings.Contains(string(out), padMarker) {
		t.Fatalf("no alignment or pad in\n%s", out)
	}
	after, err := assemble(path, string(out))
	if err != nil {
		t.Fatal(err)
	}
	l := findLoops(after[0])[0]
	if most := fullestLine(l.offsets, l.start%64); most > LineOps {
		t.Errorf("after LayOut the loop starts at %d with %d instructions in a line", l.start, most)
	}
	if i := strings.Index(string(out), padMarker); i > strings.Index(string(out), "f_loop:") {
		t.Errorf("the NOPs come after the loop's label: they would run every iteration")
	}
}
