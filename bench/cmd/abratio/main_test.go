package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Two passes in which the machine ran twice as slow in the second: the
// per-pass ratios (0.5 and 0.55) are steadier than either binary's times.
const abRaw = `# pass 1 bin old
old BenchmarkMin/n=4096-2   	  1000	       100.0 ns/op
old BenchmarkMax/n=4096-2   	  1000	        40.0 ns/op
# pass 1 bin new
new BenchmarkMin/n=4096-2   	  1000	        50.0 ns/op
new BenchmarkMax/n=4096-2   	  1000	        40.0 ns/op
# pass 2 bin new
new BenchmarkMin/n=4096-2   	  1000	       110.0 ns/op
new BenchmarkMax/n=4096-2   	  1000	        80.0 ns/op
new BenchmarkOnlyNew-2      	  1000	        10.0 ns/op
# pass 2 bin old
old BenchmarkMin/n=4096-2   	  1000	       200.0 ns/op
old BenchmarkMax/n=4096-2   	  1000	        80.0 ns/op
ok  	github.com/quiverlabs/quiver/bench	1.2s
`

func runOn(t *testing.T, raw string, args ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "raw.txt")
	if err := os.WriteFile(p, []byte(raw), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := run(append(args, p), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func fields(t *testing.T, out, name string) []string {
	t.Helper()
	for line := range strings.Lines(out) {
		f := strings.Fields(line)
		if len(f) > 0 && f[0] == name {
			return f
		}
	}
	t.Fatalf("no line for %s in\n%s", name, out)
	return nil
}

func TestPairsRatiosByPass(t *testing.T) {
	out := runOn(t, abRaw)
	// Medians 150 and 80; per-pass ratios 0.5 and 0.55; fastest 50/100.
	want := []string{"BenchmarkMin/n=4096", "150.0", "80.0", "0.525", "0.500", "2"}
	if got := fields(t, out, want[0]); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := fields(t, out, "BenchmarkMax/n=4096"); got[3] != "1.000" {
		t.Errorf("Max ratio %q, want 1.000", got[3])
	}
	if strings.Contains(out, "BenchmarkOnlyNew") {
		t.Errorf("a benchmark only one binary ran has no ratio:\n%s", out)
	}
	if !strings.Contains(out, "geometric mean of the 2 median ratios (new over old): 0.725") {
		t.Errorf("geometric mean missing or wrong:\n%s", out)
	}
}

func TestMatchAndLabels(t *testing.T) {
	raw := strings.NewReplacer("old ", "base ", "bin old", "bin base").Replace(abRaw)
	out := runOn(t, raw, "-old", "base", "-match", "Max")
	if strings.Contains(out, "BenchmarkMin") {
		t.Errorf("-match Max printed Min:\n%s", out)
	}
	if got := fields(t, out, "BenchmarkMax/n=4096"); got[3] != "1.000" {
		t.Errorf("Max ratio %q, want 1.000", got[3])
	}
}

func TestOneBinary(t *testing.T) {
	raw := "# pass 1 bin new\nnew BenchmarkA-2 10 30 ns/op\n# pass 2 bin new\nnew BenchmarkA-2 10 20 ns/op\n# pass 3 bin new\nnew BenchmarkA-2 10 70 ns/op\n"
	want := []string{"BenchmarkA", "30.0", "20.0", "3"}
	if got := fields(t, runOn(t, raw), "BenchmarkA"); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %q, want %q", got, want)
	}
}
