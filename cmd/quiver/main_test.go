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
		want = []string{"AVX2", "AVX-512 F", "AVX-512 BW", "AVX-512 DQ", "AVX-512 VL", "AVX-512 VPOPCNTDQ", "BMI2", "POPCNT"}
	case "arm64":
		want = []string{"ASIMD"}
	}
	for _, f := range want {
		if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(f) + `\s+(yes|no)$`).MatchString(text) {
			t.Errorf("feature %s missing in:\n%s", f, text)
		}
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
	rows := regexp.MustCompile(`(?m)^\s*(Sum|Summarize)\s+\w+\s+256\s+(0|10)%((\s+\d+ \([0-9.]+×\))+)\s*$`).FindAllStringSubmatch(text, -1)
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
	for _, args := range [][]string{nil, {"nosuch"}, {"info", "extra"}, {"bench", "-n", "x"}, {"bench", "-rounds", "0"}} {
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
