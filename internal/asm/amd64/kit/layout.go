package kit

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The loops' layout in memory.
//
// A core runs a short loop from its micro-op cache, whose entries cover
// one 64-byte line of code each and hold a limited number of
// instructions. A line with more instructions than its entries hold
// seems to be decoded again on every iteration instead, at about four
// instructions a cycle (the times below fit that; this machine has no
// performance counters to confirm it), and a kernel's loop of short VEX instructions (4 or 5 bytes) can
// put 14 or more into one line. On an AMD EPYC family 26 model 2 (Zen 5
// class) the dense uint8 summary kernel took 40 ns for 4096 elements
// with its loop starting 0-12 bytes into a line (13 or 14 instructions in
// the first), 27-28 ns from 14 to 52 bytes in (at most 12 in any line);
// the code and the input were the same, only the loop's place moved, and
// that place was wherever the linker had put the function. So every
// build of the package timed some kernels up to 1.4x slower or faster,
// whatever their code.
//
// LayOut fixes each inner loop's place: it aligns every function to 64
// bytes (a PCALIGN at its top, which pads nothing there and raises the
// function's alignment, so the loops' places no longer depend on where
// the linker puts it) and puts NOP bytes before a loop's
// first instruction where that moves it to a place where no 64-byte line
// starts more than LineOps of its instructions (a compare or test and the
// conditional branch after it count once: the decoder fuses them). It
// adds the fewest bytes that do so, none where the loop already fits, and
// where no place does, the fewest that bring the fullest line down to its
// least. The NOPs run once, when the code before the loop falls into it.
// The places come from the Go assembler itself (go tool asm -S), so they
// are exact for the instructions avo wrote.

// LineOps is the most instructions of a loop that start in one 64-byte
// line of code (see above: 12 measured fast on Zen 5, 13 slow).
const LineOps = 12

// padMarker starts the comment that precedes a loop's NOP bytes.
const padMarker = "// layout: "

// LayOut rewrites the assembly file at path as described above.
func LayOut(path string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	lines := strings.Split(string(src), "\n")
	lines = alignFunctions(lines)
	pads := map[int]int{} // source line of a loop's label -> NOP bytes before it
	for round := 0; ; round++ {
		text, origin := render(lines, pads)
		listing, err := assemble(path, text)
		if err != nil {
			return err
		}
		changed := false
		for _, f := range listing {
			shift := 0 // bytes this round's new pads add before the loop at hand
			for _, l := range findLoops(f) {
				label := -1
				if l.headLine >= 1 && l.headLine <= len(origin) && origin[l.headLine-1] >= 0 {
					label = labelLine(lines, origin[l.headLine-1])
				}
				if label < 0 {
					return fmt.Errorf("%s:%d: loop head without a label", path, l.headLine)
				}
				cur := pads[label]
				start := l.start + shift - cur // where the loop starts with no pad
				pad := bestPad(l.offsets, start, cur)
				if pad != cur {
					pads[label] = pad
					shift += pad - cur
					changed = true
				}
			}
		}
		if !changed {
			break
		}
		if round == 8 {
			return fmt.Errorf("%s: loop layout did not settle", path)
		}
	}
	text, _ := render(lines, pads)
	return os.WriteFile(path, []byte(text), 0o644)
}

// alignFunctions puts a PCALIGN $64 after the TEXT line of every function
// (a function without loops gets one too: it pads nothing there).
func alignFunctions(lines []string) []string {
	var out []string
	for _, l := range lines {
		out = append(out, l)
		if strings.HasPrefix(l, "TEXT ") {
			out = append(out, "\tPCALIGN $64")
		}
	}
	return out
}

// labelLine is the index of the label line right above lines[n], or -1.
func labelLine(lines []string, n int) int {
	for i := n - 1; i >= 0; i-- {
		t := strings.TrimSpace(lines[i])
		switch {
		case t == "" || strings.HasPrefix(t, "//"):
			continue
		case strings.HasSuffix(t, ":"):
			return i
		}
		return -1
	}
	return -1
}

// render is the file with pads[i] NOP bytes before line i, and for each
// of its lines the index in lines it came from (-1 for the NOPs' lines).
func render(lines []string, pads map[int]int) (string, []int) {
	var out []string
	var origin []int
	for i, l := range lines {
		if n := pads[i]; n > 0 {
			out = append(out, fmt.Sprintf("\t%s%d bytes of NOPs: no 64-byte line starts more than %d of the loop's instructions", padMarker, n, LineOps))
			origin = append(origin, -1)
			for _, nop := range nops(n) {
				out = append(out, "\t"+nop)
				origin = append(origin, -1)
			}
		}
		out = append(out, l)
		origin = append(origin, i)
	}
	return strings.Join(out, "\n"), origin
}

// nopEncodings are the recommended multi-byte NOPs, by length.
var nopEncodings = [][]byte{
	1: {0x90},
	2: {0x66, 0x90},
	3: {0x0f, 0x1f, 0x00},
	4: {0x0f, 0x1f, 0x40, 0x00},
	5: {0x0f, 0x1f, 0x44, 0x00, 0x00},
	6: {0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00},
	7: {0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00},
	8: {0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
	9: {0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
}

// nops is n bytes of NOP instructions as BYTE directives, one
// instruction a line.
func nops(n int) []string {
	var out []string
	for n > 0 {
		k := min(n, 9)
		var parts []string
		for _, c := range nopEncodings[k] {
			parts = append(parts, fmt.Sprintf("BYTE $0x%02x", c))
		}
		out = append(out, strings.Join(parts, "; "))
		n -= k
	}
	return out
}

// instr is one instruction of the assembler's listing.
type instr struct {
	pc, line int
	op, args string
}

// loop is an inner loop: its first instruction's pc and source line, and
// the offsets from it of its instructions that count (fused pairs once).
type loop struct {
	start, headLine int
	offsets         []int
}

var listingLine = regexp.MustCompile(`^\s+0x[0-9a-f]+ (\d+) \([^:]+:(\d+)\)\s+(\S+)\s*(.*)$`)

// includeDir is the directory of textflag.h, from the go command's
// GOROOT, not runtime.GOROOT: a generator built with -trimpath does not
// know its own. Asked once for every round of every file.
var includeDir = sync.OnceValues(func() (string, error) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOROOT: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(goroot)), "pkg", "include"), nil
})

// assemble runs the Go assembler over text (the file at path, rewritten)
// and returns its listing, function by function.
func assemble(path, text string) ([][]instr, error) {
	dir, err := os.MkdirTemp("", "layout")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	s := filepath.Join(dir, filepath.Base(path))
	if err := os.WriteFile(s, []byte(text), 0o644); err != nil {
		return nil, err
	}
	include, err := includeDir()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("go", "tool", "asm", "-S", "-I", include, "-p", "kernel", "-o", filepath.Join(dir, "out.o"), s)
	cmd.Env = append(os.Environ(), "GOARCH=amd64")
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go tool asm %s: %v\n%s", path, err, stderr.String())
	}
	return parseListing(out.String()), nil
}

// parseListing splits the assembler's -S output into functions.
func parseListing(out string) [][]instr {
	var funcs [][]instr
	var cur []instr
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, " STEXT ") && !strings.HasPrefix(l, "\t") {
			if cur != nil {
				funcs = append(funcs, cur)
			}
			cur = []instr{}
			continue
		}
		m := listingLine.FindStringSubmatch(l)
		if m == nil || cur == nil {
			continue
		}
		switch m[3] {
		case "TEXT", "FUNCDATA", "PCDATA", "PCALIGN":
			continue
		}
		pc, _ := strconv.Atoi(m[1])
		line, _ := strconv.Atoi(m[2])
		cur = append(cur, instr{pc: pc, line: line, op: m[3], args: m[4]})
	}
	if cur != nil {
		funcs = append(funcs, cur)
	}
	return funcs
}

// fusesWith says whether op and the conditional branch after it decode
// as one instruction.
func fusesWith(op string) bool {
	for _, p := range []string{"CMP", "TEST", "ADD", "SUB", "AND", "INC", "DEC"} {
		if strings.HasPrefix(op, p) && !strings.HasPrefix(op, "ADDS") && !strings.HasPrefix(op, "SUBS") {
			return true
		}
	}
	return false
}

// findLoops returns the inner loops of one function's listing, in pc
// order: a conditional branch back to an earlier pc, with no other
// backward branch inside.
func findLoops(f []instr) []loop {
	type span struct{ from, to int } // instruction indices, inclusive
	var spans []span
	for i, in := range f {
		if !strings.HasPrefix(in.op, "J") || in.op == "JMP" {
			continue
		}
		target, err := strconv.Atoi(strings.TrimSpace(in.args))
		if err != nil || target >= in.pc {
			continue
		}
		if j := slices.IndexFunc(f, func(x instr) bool { return x.pc == target }); j >= 0 {
			spans = append(spans, span{j, i})
		}
	}
	var out []loop
	for _, s := range spans {
		if slices.ContainsFunc(spans, func(t span) bool { return t != s && t.from >= s.from && t.to <= s.to }) {
			continue // an outer loop
		}
		l := loop{start: f[s.from].pc, headLine: f[s.from].line}
		for k := s.from; k <= s.to; k++ {
			if strings.HasPrefix(f[k].op, "J") && k > s.from && fusesWith(f[k-1].op) {
				continue
			}
			l.offsets = append(l.offsets, f[k].pc-l.start)
		}
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b loop) int { return a.start - b.start })
	return out
}

// fullestLine is the most offsets that fall into one 64-byte line when
// offset 0 is at byte at of a line.
func fullestLine(offsets []int, at int) int {
	counts := map[int]int{}
	most := 0
	for _, o := range offsets {
		k := (at + o) / 64
		counts[k]++
		most = max(most, counts[k])
	}
	return most
}

// bestPad is the number of NOP bytes to put before a loop whose first
// instruction would be at pc start (the function 64-byte aligned) and
// has cur bytes before it now: cur where that is as good as it gets (so
// that a jump's encoding changing with another loop's pad does not move
// the pads back and forth), else the fewest bytes that put at most
// LineOps instructions into any line, else the fewest that minimize the
// fullest line.
func bestPad(offsets []int, start, cur int) int {
	best, bestMost := 0, fullestLine(offsets, start%64)
	for pad := 1; pad < 64 && bestMost > LineOps; pad++ {
		if most := fullestLine(offsets, (start+pad)%64); most < bestMost {
			best, bestMost = pad, most
		}
	}
	if fullestLine(offsets, (start+cur)%64) <= max(bestMost, LineOps) {
		return cur
	}
	return best
}
