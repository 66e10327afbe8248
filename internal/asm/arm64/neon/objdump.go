package neon

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// Objdump is the disassembler that CheckWords uses.
const Objdump = "aarch64-linux-gnu-objdump"

// Disassemble runs the Arm disassembler over words laid out as a raw
// little-endian binary and returns one instruction per word, as printed
// ("fadd v0.2d, v0.2d, v1.2d"), with whitespace normalized.
func Disassemble(words []uint32) ([]string, error) {
	path, err := exec.LookPath(Objdump)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "neon")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "words.bin")
	raw := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(raw[4*i:], w)
	}
	if err := os.WriteFile(bin, raw, 0o644); err != nil {
		return nil, err
	}
	out, err := exec.Command(path, "-D", "-b", "binary", "-m", "aarch64", bin).Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", Objdump, err)
	}
	// Instruction lines read "   4:\t4e61d400 \tfadd\tv0.2d, v0.2d, v1.2d".
	line := regexp.MustCompile(`^\s*([0-9a-f]+):\s+([0-9a-f]{8})\s+(.*)$`)
	var insts []string
	for _, l := range strings.Split(string(bytes.TrimSpace(out)), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		insts = append(insts, Normalize(m[3]))
	}
	if len(insts) != len(words) {
		return nil, fmt.Errorf("%s printed %d instructions for %d words:\n%s", Objdump, len(insts), len(words), out)
	}
	return insts, nil
}

// Normalize collapses runs of white space to one space and drops a
// trailing disassembler comment.
func Normalize(s string) string {
	if i := strings.Index(s, "//"); i >= 0 {
		s = s[:i]
	}
	return strings.Join(strings.Fields(s), " ")
}

// Mismatches disassembles every word and returns a description of each
// word whose disassembly differs from its comment. The error reports a
// missing or failing disassembler.
func Mismatches(words []Word) ([]string, error) {
	encs := make([]uint32, len(words))
	for i, w := range words {
		encs[i] = w.Enc
	}
	got, err := Disassemble(encs)
	if err != nil {
		return nil, err
	}
	var bad []string
	for i, w := range words {
		if got[i] != Normalize(w.Asm) {
			bad = append(bad, fmt.Sprintf("WORD $0x%08x: comment says %q, disassembles as %q", w.Enc, w.Asm, got[i]))
		}
	}
	return bad, nil
}
