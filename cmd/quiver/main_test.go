package main

import (
	"bytes"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/quiverlabs/quiver"
)

func TestInfo(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"info"}, &out, &errOut); code != 0 {
		t.Fatalf("quiver info exited %d: %s", code, errOut.String())
	}
	text := out.String()
	active := quiver.ActiveBackend()

	// Every compiled-in backend is listed, available or not, and the
	// active one is marked.
	for _, b := range quiver.Backends() {
		avail := "no"
		if b.Available {
			avail = "yes"
		}
		re := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(b.Name) + `\s+` + avail +
			`\s+A=` + strconv.Itoa(b.Float32.Accumulators) + `, W=` + strconv.Itoa(b.Float32.Lanes) +
			`\s+A=` + strconv.Itoa(b.Float64.Accumulators) + `, W=` + strconv.Itoa(b.Float64.Lanes) + `\s*(active)?$`)
		m := re.FindStringSubmatch(text)
		if m == nil {
			t.Errorf("backend %s (available %s, policies %v %v) missing or wrong in:\n%s", b.Name, avail, b.Float32, b.Float64, text)
			continue
		}
		if (m[1] == "active") != (b.Name == active.Name) {
			t.Errorf("backend %s: active mark %q, but the active backend is %s", b.Name, m[1], active.Name)
		}
	}
	// Every operation names the backend it dispatches to: the active one.
	for _, op := range []string{"Sum", "SumInt", "SumUint", "Min", "Max", "MinMax", "Summarize", "SumChecked", "SumCheckedUint", "CountValid"} {
		if !regexp.MustCompile(`(?m)^  ` + op + `\s+` + regexp.QuoteMeta(active.Name) + `$`).MatchString(text) {
			t.Errorf("operation %s does not dispatch to %s in:\n%s", op, active.Name, text)
		}
	}
	// The features that decide the backends, for this architecture.
	var want []string
	switch runtime.GOARCH {
	case "amd64":
		want = []string{"AVX2", "AVX-512 F", "AVX-512 BW", "AVX-512 DQ", "AVX-512 VL", "AVX-512 VPOPCNTDQ", "BMI2", "POPCNT", "FMA"}
	case "arm64":
		want = []string{"ASIMD"}
	}
	for _, f := range want {
		if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(f) + `\s+(yes|no)$`).MatchString(text) {
			t.Errorf("feature %s missing in:\n%s", f, text)
		}
	}
}

// TestParseCPUInfo reads the CPU's name, family and model from the first
// processor of a /proc/cpuinfo text, and nothing from a text without them.
func TestParseCPUInfo(t *testing.T) {
	x86 := "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\nmodel name\t: AMD EPYC 7B13\nflags\t\t: fpu avx2\n\nprocessor\t: 1\ncpu family\t: 6\nmodel\t\t: 106\nmodel name\t: other\n"
	if name, id, ok := parseCPUInfo(x86); !ok || name != "AMD EPYC 7B13" || id != "family 25 model 1" {
		t.Errorf("x86: got %q, %q, %v", name, id, ok)
	}
	arm := "processor\t: 0\nBogoMIPS\t: 50.00\nmodel name\t: ARMv8 Processor rev 1 (v8l)\n"
	if name, id, ok := parseCPUInfo(arm); !ok || name != "ARMv8 Processor rev 1 (v8l)" || id != "" {
		t.Errorf("arm: got %q, %q, %v", name, id, ok)
	}
	if name, _, ok := parseCPUInfo("processor\t: 0\nBogoMIPS\t: 50.00\n"); ok {
		t.Errorf("no model name: got %q, want none", name)
	}
}

// TestInfoFollowsSetBackend checks that the dispatch shown is the live
// choice, not a constant: after SetBackend("scalar") every operation says
// scalar.
func TestInfoFollowsSetBackend(t *testing.T) {
	prev := quiver.ActiveBackend().Name
	defer quiver.SetBackend(prev)
	if err := quiver.SetBackend("scalar"); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if code := run([]string{"info"}, &out, &out); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !regexp.MustCompile(`(?m)^  Summarize\s+scalar$`).MatchString(out.String()) ||
		!strings.Contains(out.String(), "the strict left fold") {
		t.Errorf("after SetBackend(scalar):\n%s", out.String())
	}
}

func TestBenchQuick(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"bench", "-quick"}, &out, &errOut); code != 0 {
		t.Fatalf("quiver bench -quick exited %d: %s", code, errOut.String())
	}
	text := out.String()
	var avail []string
	for _, b := range quiver.Backends() {
		if b.Available {
			avail = append(avail, b.Name)
		}
	}
	header := regexp.MustCompile(`(?m)^\s*op\s+type\s+n\s+nulls\s+(.*)$`).FindStringSubmatch(text)
	if header == nil {
		t.Fatalf("no table header in:\n%s", text)
	}
	for _, b := range avail {
		if !strings.Contains(header[1], b) {
			t.Errorf("table header %q lacks backend %s", header[1], b)
		}
	}
	// 2 operations x 5 types x 1 size x 2 null fractions, one cell per backend.
	rows := regexp.MustCompile(`(?m)^\s*(Sum|Summary)\s+\w+\s+256\s+(0|10)%((\s+\d+ \([0-9.]+×\))+)\s*$`).FindAllStringSubmatch(text, -1)
	if len(rows) != 20 {
		t.Fatalf("got %d table rows, want 20:\n%s", len(rows), text)
	}
	for _, r := range rows {
		if n := len(regexp.MustCompile(`\d+ \(`).FindAllString(r[3], -1)); n != len(avail) {
			t.Errorf("row %q has %d cells, want %d", r[0], n, len(avail))
		}
		if !strings.Contains(r[3], "(1.0×)") { // the scalar column against itself
			t.Errorf("row %q lacks the strict column's 1.0×", r[0])
		}
	}
	if !strings.Contains(text, "geomean speedup over the strict scalar backend:") {
		t.Errorf("no geomean line in:\n%s", text)
	}
	if !strings.Contains(errOut.String(), "benchmarks in") {
		t.Errorf("no progress on stderr: %q", errOut.String())
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		nil, {"nosuch"}, {"info", "extra"}, {"bench", "-n", "x"}, {"bench", "-n", "0"}, {"bench", "-rounds", "0"},
		{"bench", "-op", "Mean"}, {"bench", "-type", "complex128"}, {"bench", "-nulls", "101"}, {"bench", "-sel", "sorted20"},
		{"bench", "-format", "json"}, {"bench", "-op", "SumChecked", "-type", "float64"}, // no configuration left
	} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code == 0 {
			t.Errorf("quiver %q exited 0", args)
		}
	}
}

func TestMedianGeomean(t *testing.T) {
	if m := median([]float64{3, 1, 2}); m != 2 {
		t.Errorf("median = %v, want 2", m)
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median = %v, want 2.5", m)
	}
	if g := geomean([]float64{2, 8}); g < 3.999999 || g > 4.000001 {
		t.Errorf("geomean = %v, want 4", g)
	}
}

// avail lists the available backends, most preferred first.
func avail() []string {
	var out []string
	for _, b := range quiver.Backends() {
		if b.Available {
			out = append(out, b.Name)
		}
	}
	return out
}

// TestBenchFilters runs short inputs and selections through the filters
// and checks that the table has exactly the configurations asked for.
func TestBenchFilters(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"bench", "-op", "SumChecked,CountValid,Min,Summarize", "-type", "int64,float64", "-n", "1,8,100",
		"-nulls", "0,10", "-sel", "none,sorted10,random10", "-rounds", "1", "-time", "5x"}
	if code := run(args, &out, &errOut); code != 0 {
		t.Fatalf("quiver %q exited %d: %s", args, code, errOut.String())
	}
	text := out.String()
	if !regexp.MustCompile(`(?m)^\s*op\s+type\s+n\s+nulls\s+sel\s+`).MatchString(text) {
		t.Fatalf("no sel column in:\n%s", text)
	}
	rows := regexp.MustCompile(`(?m)^\s*(\w+)\s+(\w+)\s+(\d+)\s+(\d+)%\s+(-|sorted10|random10)((\s+\d+ \([0-9.]+×\))+)\s*$`).FindAllStringSubmatch(text, -1)
	count := map[string]int{}
	for _, r := range rows {
		count[r[1]+" "+r[2]]++
		if n := len(regexp.MustCompile(`\d+ \(`).FindAllString(r[6], -1)); n != len(avail()) {
			t.Errorf("row %q has %d cells, want %d", r[0], n, len(avail()))
		}
	}
	// 3 sizes x 2 null percentages x 3 selections = 18 rows per op and
	// type; SumChecked takes int64 only of the two, CountValid runs once.
	want := map[string]int{"SumChecked int64": 18, "CountValid uint8": 18, "Min int64": 18, "Min float64": 18, "Summary int64": 18, "Summary float64": 18}
	if len(count) != len(want) {
		t.Errorf("rows per op and type %v, want %v\n%s", count, want, text)
	}
	for k, n := range want {
		if count[k] != n {
			t.Errorf("%s: %d rows, want %d\n%s", k, count[k], n, text)
		}
	}
}

// TestBenchFormat checks the benchstat output: go test's header and one
// standard result line per configuration, backend and round, named as
// the benchmark module names them.
func TestBenchFormat(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"bench", "-format", "bench", "-op", "Sum,CountValid", "-type", "int64", "-n", "8,64",
		"-nulls", "10", "-sel", "none,sorted50", "-rounds", "2", "-time", "5x"}
	if code := run(args, &out, &errOut); code != 0 {
		t.Fatalf("quiver %q exited %d: %s", args, code, errOut.String())
	}
	text := out.String()
	for _, key := range []string{"goos", "goarch", "pkg", "go", "quiver-backends", "quiver-active"} {
		if !regexp.MustCompile(`(?m)^` + key + `: \S`).MatchString(text) {
			t.Errorf("no %s: line in:\n%s", key, text)
		}
	}
	line := regexp.MustCompile(`^Benchmark(Sum|CountValid)/type=(int64|uint8)/n=(8|64)/nulls=10(/sel=sorted50)?/impl=(\w+)(-\d+)?\t(\d+)\t([0-9.]+) ns/op$`)
	results := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		if !strings.HasPrefix(l, "Benchmark") {
			if !regexp.MustCompile(`^[a-z-]+: `).MatchString(l) {
				t.Errorf("line %q is neither a result nor a configuration line", l)
			}
			continue
		}
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("malformed result line %q", l)
			continue
		}
		if m[7] != "5" {
			t.Errorf("%q: %s iterations, want 5", l, m[7])
		}
		results[strings.Split(l, "\t")[0]]++
	}
	// 2 ops x 2 sizes x 2 selections x each backend, once per round.
	if want := 2 * 2 * 2 * len(avail()); len(results) != want {
		t.Errorf("%d distinct benchmarks, want %d:\n%s", len(results), want, text)
	}
	for name, n := range results {
		if n != 2 {
			t.Errorf("%s: %d results, want one per round (2)", name, n)
		}
	}
	if strings.Contains(text, "geomean") {
		t.Errorf("the table was printed in bench format:\n%s", text)
	}
}
