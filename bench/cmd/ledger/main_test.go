package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const raw = `commit: abc123
cpu: Test CPU
goos: linux
goarch: amd64
BenchmarkSum/type=float64/n=4096/nulls=0/impl=scalar-2   100   1800 ns/op
BenchmarkSum/type=float64/n=4096/nulls=0/impl=avx512-2  1000    100 ns/op
BenchmarkSum/type=float64/n=4096/nulls=0/impl=scalar-2   100   1600 ns/op
BenchmarkSum/type=float64/n=4096/nulls=0/impl=avx512-2  1000    100 ns/op
`

func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunWritesLedger(t *testing.T) {
	dir := t.TempDir()
	in := write(t, dir, "raw.txt", raw)
	write(t, dir, "a_test.go", "//	H10: Sum float64 n=4096 nulls=0%: avx512 >= 20x scalar\n")
	write(t, dir, "b_test.go", "//	H2: Sum float64 n=4096 nulls=0%: avx512 >= 17x scalar\n")
	out := filepath.Join(dir, "ledger.md")
	if err := run([]string{"-o", out, "-hyp", filepath.Join(dir, "*_test.go"), "-note", "Fixture.", in}, os.Stdout); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	// Median scalar 1700 / avx512 100 = 17: H2 holds, H10 misses, H2 first.
	h2 := strings.Index(text, "| H2 | Sum float64 n=4096 nulls=0% | avx512 ≥ 17× scalar | 17.0× | held |")
	h10 := strings.Index(text, "| H10 | Sum float64 n=4096 nulls=0% | avx512 ≥ 20× scalar | 17.0× | **missed** |")
	if h2 < 0 || h10 < 0 || h2 > h10 {
		t.Errorf("hypotheses wrong or out of order:\n%s", text)
	}
	if !strings.Contains(text, "> Fixture.") || !strings.Contains(text, "| quiver commit | abc123 |") {
		t.Errorf("note or commit missing:\n%s", text)
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	in := write(t, dir, "raw.txt", raw)
	empty := write(t, dir, "empty.txt", "PASS\n")
	write(t, dir, "dup_test.go", "//	H1: Sum float64 n=4096 nulls=0%: avx512 >= 1x scalar\n//	H1: Sum float64 n=4096 nulls=0%: avx512 >= 2x scalar\n")
	for name, args := range map[string][]string{
		"no input":         {},
		"no benchmarks":    {empty},
		"missing file":     {filepath.Join(dir, "nosuch.txt")},
		"duplicate H1":     {"-hyp", filepath.Join(dir, "dup_test.go"), in},
		"malformed result": {write(t, dir, "bad.txt", "BenchmarkSum/type=float64/n=x/nulls=0/impl=a 1 1 ns/op\n")},
	} {
		if err := run(append([]string{"-hyp", filepath.Join(dir, "none*.go")}, args...), os.Stdout); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// rawOn is a raw file measured on the named CPU (family 25, the given
// model) at commit, with avx512 and avx2 timed on a CPU that has AVX-512.
func rawOn(cpuName string, model int, commit string) string {
	return fmt.Sprintf(`commit: %s
cpu-features: avx2 avx512f bmi2
quiver-backends: avx512 avx2 generic scalar
quiver-active: avx512
cpuinfo-id: family 25 model %d
goos: linux
goarch: amd64
cpu: %s
BenchmarkSum/type=float64/n=4096/nulls=0/impl=scalar-2   100   1800 ns/op
BenchmarkSum/type=float64/n=4096/nulls=0/impl=avx512-2  1000    100 ns/op
BenchmarkSum/type=float64/n=4096/nulls=0/impl=avx2-2    1000    150 ns/op
`, commit, model, cpuName)
}

// ledgerOf runs the tool on raw into out, which may already hold a
// ledger, and returns the file's new text.
func ledgerOf(t *testing.T, out, raw string, extra ...string) string {
	t.Helper()
	in := write(t, filepath.Dir(out), "raw.txt", raw)
	args := append([]string{"-o", out, "-hyp", filepath.Join(filepath.Dir(out), "none*.go")}, extra...)
	if err := run(append(args, in), os.Stdout); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const handWritten = "\n## Measured by hand on CPU Z\n\nA table nobody may lose.\n"

func TestRunOnSecondCPUKeepsFirst(t *testing.T) {
	out := filepath.Join(t.TempDir(), "ledger.md")
	first := ledgerOf(t, out, rawOn("CPU A", 1, "aaa111"), "-note", "Note of A.")
	if err := os.WriteFile(out, []byte(first+handWritten), 0o644); err != nil {
		t.Fatal(err)
	}
	text := ledgerOf(t, out, rawOn("CPU B", 2, "bbb222"), "-note", "Note of B.")
	for _, want := range []string{
		"| CPU | CPU A |", "| quiver commit | aaa111 |", "> Note of A.",
		"| CPU | CPU B |", "| quiver commit | bbb222 |", "> Note of B.",
		handWritten,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q after a run on a second CPU:\n%s", want, text)
		}
	}
	// A's section is kept as it was: byte for byte the same text.
	secA := sectionText(t, first, "CPU A, family 25 model 1")
	if got := sectionText(t, text, "CPU A, family 25 model 1"); got != secA {
		t.Errorf("CPU A's section changed:\n%s\nwant\n%s", got, secA)
	}
	if strings.Index(text, "| CPU | CPU A |") > strings.Index(text, "| CPU | CPU B |") {
		t.Errorf("the second CPU's section should follow the first's")
	}
}

func TestRunOnSameCPUReplacesItsSection(t *testing.T) {
	out := filepath.Join(t.TempDir(), "ledger.md")
	ledgerOf(t, out, rawOn("CPU A", 1, "aaa111"))
	ledgerOf(t, out, rawOn("CPU B", 2, "bbb222"))
	b, _ := os.ReadFile(out)
	if err := os.WriteFile(out, append(b, handWritten...), 0o644); err != nil {
		t.Fatal(err)
	}
	text := ledgerOf(t, out, rawOn("CPU A", 1, "ccc333"), "-note", "Second run on A.")
	if strings.Contains(text, "aaa111") {
		t.Errorf("the old run on CPU A is still there:\n%s", text)
	}
	for _, want := range []string{"| quiver commit | ccc333 |", "> Second run on A.", "| quiver commit | bbb222 |", handWritten} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "| CPU | CPU A |"); n != 1 {
		t.Errorf("%d sections for CPU A, want 1", n)
	}
	// Replaced in place: A stays before B.
	if strings.Index(text, "ccc333") > strings.Index(text, "bbb222") {
		t.Errorf("CPU A's section moved behind CPU B's")
	}
	// Another model of the same name is another CPU.
	text = ledgerOf(t, out, rawOn("CPU A", 7, "ddd444"))
	if !strings.Contains(text, "ccc333") || !strings.Contains(text, "ddd444") {
		t.Errorf("model 7 replaced model 1's section:\n%s", text)
	}
}

func TestHandWrittenTextSurvives(t *testing.T) {
	out := filepath.Join(t.TempDir(), "ledger.md")
	first := ledgerOf(t, out, rawOn("CPU A", 1, "aaa111"))
	// Hand-written text before the section (under the preamble), after it,
	// and at the end.
	before := "\nWritten by hand above every section.\n\n"
	i := strings.Index(first, sectionBegin(t, first, "CPU A, family 25 model 1"))
	edited := first[:i] + before + first[i:] + handWritten
	if err := os.WriteFile(out, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	text := ledgerOf(t, out, rawOn("CPU A", 1, "bbb222"))
	if !strings.Contains(text, before) || !strings.HasSuffix(text, handWritten) {
		t.Errorf("hand-written text lost:\n%s", text)
	}
	if text != strings.Replace(edited, "aaa111", "bbb222", -1) {
		t.Errorf("more than the section changed:\n%s\nwant\n%s", text, strings.Replace(edited, "aaa111", "bbb222", -1))
	}
}

func TestSectionNamesCPUAndBackends(t *testing.T) {
	out := filepath.Join(t.TempDir(), "ledger.md")
	text := ledgerOf(t, out, rawOn("CPU A", 1, "aaa111"))
	for _, want := range []string{
		"<!-- ledger:begin cpu=\"CPU A, family 25 model 1\" -->",
		"<!-- ledger:end cpu=\"CPU A, family 25 model 1\" -->",
		"| CPU | CPU A |",
		"| family / model | family 25 model 1 |",
		"| backends measured | avx512, avx2 (on an AVX-512 CPU), scalar |",
		"avx2 backend was measured on this AVX-512 CPU",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q:\n%s", want, text)
		}
	}
}

func TestRunRefusesUnmarkedLedger(t *testing.T) {
	out := filepath.Join(t.TempDir(), "ledger.md")
	write(t, filepath.Dir(out), "ledger.md", "# a ledger without markers\n\nhand-written\n")
	in := write(t, filepath.Dir(out), "raw.txt", rawOn("CPU A", 1, "aaa111"))
	if err := run([]string{"-o", out, in}, os.Stdout); err == nil {
		t.Errorf("overwrote a ledger without section markers")
	}
	if b, _ := os.ReadFile(out); string(b) != "# a ledger without markers\n\nhand-written\n" {
		t.Errorf("the file changed: %q", b)
	}
}

// sectionBegin is the begin marker of cpu's generated section.
func sectionBegin(t *testing.T, text, cpu string) string {
	t.Helper()
	m := "<!-- ledger:begin cpu=" + strconv.Quote(cpu) + " -->"
	if !strings.Contains(text, m) {
		t.Fatalf("no section for %s:\n%s", cpu, text)
	}
	return m
}

// sectionText is cpu's generated section, markers included.
func sectionText(t *testing.T, text, cpu string) string {
	t.Helper()
	b := sectionBegin(t, text, cpu)
	e := "<!-- ledger:end cpu=" + strconv.Quote(cpu) + " -->"
	i, j := strings.Index(text, b), strings.Index(text, e)
	if j < i {
		t.Fatalf("no end marker for %s", cpu)
	}
	return text[i : j+len(e)]
}
