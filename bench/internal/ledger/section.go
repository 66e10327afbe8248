package ledger

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The ledger file is hand-written text around generated blocks, each
// between a begin and an end line that name it:
//
//	<!-- ledger:begin preamble -->
//	...
//	<!-- ledger:end preamble -->
//	<!-- ledger:begin cpu="AMD EPYC, family 25 model 1" -->
//	...
//	<!-- ledger:end cpu="AMD EPYC, family 25 model 1" -->
//
// Merge replaces the blocks a new run generates and keeps everything
// else as it is.

const (
	markerPrefix = "<!-- ledger:"
	markerSuffix = " -->"
	preambleKey  = "preamble"
)

// cpuKey is the marker name of the section of CPU model key.
func cpuKey(key string) string { return "cpu=" + strconv.Quote(key) }

func beginMarker(name string) string { return markerPrefix + "begin " + name + markerSuffix }
func endMarker(name string) string   { return markerPrefix + "end " + name + markerSuffix }

// A block is a run of lines of a ledger file: generated (name set, the
// text from its begin line to its end line) or hand-written (name "").
type block struct {
	name, text string
}

// parseBlocks splits a ledger file into blocks. Markers must be whole
// lines, pair up in order and name each block once.
func parseBlocks(text string) ([]block, error) {
	var out []block
	var cur strings.Builder
	open, openLine := "", 0
	seen := map[string]bool{}
	lines := strings.SplitAfter(text, "\n")
	for i, line := range lines {
		t := strings.TrimSpace(line)
		kind, name, isMarker := parseMarker(t)
		switch {
		case !isMarker:
			if strings.HasPrefix(t, markerPrefix) {
				return nil, fmt.Errorf("line %d: malformed marker %q", i+1, t)
			}
			cur.WriteString(line)
		case kind == "begin":
			if open != "" {
				return nil, fmt.Errorf("line %d: %s begins inside %s (line %d)", i+1, name, open, openLine)
			}
			if seen[name] {
				return nil, fmt.Errorf("line %d: a second block %s", i+1, name)
			}
			seen[name] = true
			if cur.Len() > 0 {
				out = append(out, block{text: cur.String()})
				cur.Reset()
			}
			open, openLine = name, i+1
			cur.WriteString(line)
		default: // end
			if name != open {
				return nil, fmt.Errorf("line %d: end of %s, but the open block is %q", i+1, name, open)
			}
			cur.WriteString(line)
			if !strings.HasSuffix(line, "\n") {
				cur.WriteString("\n")
			}
			out = append(out, block{name: name, text: cur.String()})
			cur.Reset()
			open = ""
		}
	}
	if open != "" {
		return nil, fmt.Errorf("line %d: %s has no end marker", openLine, open)
	}
	if cur.Len() > 0 {
		out = append(out, block{text: cur.String()})
	}
	return out, nil
}

// parseMarker reads a marker line: kind "begin" or "end" and the block's
// name ("preamble" or cpu="..." with a valid quoted key).
func parseMarker(line string) (kind, name string, ok bool) {
	rest, ok1 := strings.CutPrefix(line, markerPrefix)
	rest, ok2 := strings.CutSuffix(rest, markerSuffix)
	if !ok1 || !ok2 {
		return "", "", false
	}
	kind, name, _ = strings.Cut(rest, " ")
	if kind != "begin" && kind != "end" {
		return "", "", false
	}
	if name == preambleKey {
		return kind, name, true
	}
	q, found := strings.CutPrefix(name, "cpu=")
	if !found {
		return "", "", false
	}
	if _, err := strconv.Unquote(q); err != nil {
		return "", "", false
	}
	return kind, name, true
}

// Merge returns the ledger file old with the preamble and the sections of
// the CPU models in s regenerated: a model's section is replaced where it
// stands; a model without one gets a new section after the last section
// (or after the preamble). Hand-written text and the sections of other
// models are kept byte for byte. An old file with text but no markers is
// an error: it cannot say which part is generated.
func Merge(old string, s *Set, opt Options) (string, error) {
	if strings.TrimSpace(old) == "" {
		var b strings.Builder
		err := Render(&b, s, opt)
		return b.String(), err
	}
	blocks, err := parseBlocks(old)
	if err != nil {
		return "", err
	}
	if !slices.ContainsFunc(blocks, func(b block) bool { return b.name != "" }) {
		return "", fmt.Errorf("no ledger:begin/ledger:end markers: cannot tell the generated sections from the hand-written text")
	}
	secs := Sections(s, opt)
	placed := map[string]bool{}
	anchor := -1 // the block after which new sections go
	for i, b := range blocks {
		switch {
		case b.name == preambleKey:
			blocks[i].text = Preamble(opt)
			if anchor < 0 {
				anchor = i
			}
		case b.name != "":
			anchor = i
			for _, sec := range secs {
				if cpuKey(sec.Key) == b.name {
					blocks[i].text = sec.Text
					placed[sec.Key] = true
				}
			}
		}
	}
	var fresh strings.Builder
	for _, sec := range secs {
		if !placed[sec.Key] {
			fresh.WriteString("\n" + sec.Text)
		}
	}
	var out strings.Builder
	if anchor < 0 {
		anchor = len(blocks) - 1
	}
	for i, b := range blocks {
		out.WriteString(b.text)
		if i == anchor {
			out.WriteString(fresh.String())
		}
	}
	return out.String(), nil
}

// isaClass is the widest vector extension of m's CPU that quiver uses:
// "AVX-512", "AVX2 only", "NEON", or "" when none is recorded.
func isaClass(m Machine) string {
	fs := strings.Fields(m.Features)
	switch {
	case slices.Contains(fs, "avx512f"):
		return "AVX-512"
	case slices.Contains(fs, "avx2"):
		return "AVX2 only"
	case slices.Contains(fs, "asimd"):
		return "NEON"
	}
	return ""
}

// measuredBackends lists the quiver backends r has results for, in the
// run's order of preference, the avx2 backend labelled when the CPU has
// AVX-512.
func measuredBackends(r *Run) []string {
	have := map[string]bool{}
	for _, byImpl := range r.Samples {
		for impl := range byImpl {
			have[impl] = true
		}
	}
	var out []string
	for _, b := range r.Backends {
		if !have[b] {
			continue
		}
		if b == "avx2" && isaClass(r.Machine) == "AVX-512" {
			b += " (on an AVX-512 CPU)"
		}
		out = append(out, b)
	}
	return out
}

// avx2OnAVX512 reports whether r timed the avx2 backend on a CPU with
// AVX-512.
func avx2OnAVX512(r *Run) bool {
	return slices.ContainsFunc(measuredBackends(r), func(b string) bool { return strings.HasPrefix(b, "avx2 ") })
}

// orNot is s, or a dash saying the raw output did not record it.
func orNot(s string) string {
	if s == "" {
		return "— (not in the raw output)"
	}
	return s
}
