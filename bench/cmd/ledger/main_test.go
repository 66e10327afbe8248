package main

import (
	"os"
	"path/filepath"
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
