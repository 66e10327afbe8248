package ledger

import (
	"strings"
	"testing"
)

// raw is two interleaved passes of a small run in go test's own output
// format, with the configuration lines the benchmark module prints, an
// unrelated benchmark and go test's chatter around them.
const raw = `commit: abc123
go: go1.26.8
cpu-features: avx2 avx512f
quiver-backends: avx512 avx2 generic scalar
quiver-active: avx512
quiver-float-policies: avx512=4x16,4x8 avx2=4x8,4x4 generic=1x1,1x1 scalar=1x1,1x1
goos: linux
goarch: amd64
pkg: github.com/quiverlabs/quiver/bench
cpu: Test CPU @ 1GHz
BenchmarkSum/type=float64/n=4096/nulls=0/impl=avx512-2     1000    100.0 ns/op   327680.00 MB/s
BenchmarkSum/type=float64/n=4096/nulls=0/impl=scalar-2      100   1700 ns/op   19275.29 MB/s
BenchmarkSum/type=float64/n=4096/nulls=0/impl=vek-2         1000    150 ns/op
BenchmarkOther-2                                            1000    5 ns/op
BenchmarkSum/type=float64/n=4096/nulls=0/impl=avx512-2     1000    110.0 ns/op
BenchmarkSum/type=float64/n=4096/nulls=0/impl=scalar-2      100   1900 ns/op
BenchmarkSum/type=float64/n=4096/nulls=0/impl=vek-2         1000    130 ns/op
PASS
ok  	github.com/quiverlabs/quiver/bench	1.234s
BenchmarkSum/type=float64/n=4096/nulls=0/impl=avx512-2     1000    90 ns/op
BenchmarkSum/type=float64/n=4096/nulls=0/impl=scalar-2      100   1800 ns/op
BenchmarkSum/type=float64/n=4096/nulls=0/impl=vek-2         1000    140 ns/op
`

func TestReadPoolsPasses(t *testing.T) {
	var s Set
	if err := s.Read(strings.NewReader(raw), "raw.txt"); err != nil {
		t.Fatal(err)
	}
	if len(s.Runs) != 1 {
		t.Fatalf("got %d machines, want 1", len(s.Runs))
	}
	r := s.Runs[0]
	want := Machine{CPU: "Test CPU @ 1GHz", Features: "avx2 avx512f", Go: "go1.26.8", GOOS: "linux", GOARCH: "amd64", Commit: "abc123"}
	if r.Machine != want {
		t.Errorf("machine = %+v, want %+v", r.Machine, want)
	}
	if got := strings.Join(r.Backends, ","); got != "avx512,avx2,generic,scalar" || r.Active != "avx512" {
		t.Errorf("backends %q active %q", got, r.Active)
	}
	if r.Policies["avx512"] != "4x16,4x8" || r.Policies["scalar"] != "1x1,1x1" || len(r.Policies) != 4 {
		t.Errorf("policies %v", r.Policies)
	}
	c := Config{Op: "Sum", Type: "float64", N: 4096, Nulls: 0}
	if len(r.Samples) != 1 {
		t.Fatalf("got %d configurations (%v), want 1: BenchmarkOther must be ignored", len(r.Samples), r.Samples)
	}
	for impl, want := range map[string][]float64{"avx512": {100, 110, 90}, "scalar": {1700, 1900, 1800}, "vek": {150, 130, 140}} {
		got := r.Samples[c][impl]
		if len(got) != len(want) {
			t.Fatalf("%s: samples %v, want %v", impl, got, want)
		}
		for i := range got {
			if !near(got[i], want[i]) {
				t.Errorf("%s: samples %v, want %v", impl, got, want)
			}
		}
	}
	if got := r.Median(c, "avx512"); !near(got, 100) {
		t.Errorf("median avx512 = %v, want 100", got)
	}
}

func TestReadCollectsFailures(t *testing.T) {
	in := raw + `--- FAIL: BenchmarkSum/type=float64/n=4096/nulls=10/impl=avx2-2
    harness_test.go:300: avx2 disagrees with the strict reference
--- FAIL: BenchmarkSum/type=float64/n=4096/nulls=10/impl=avx2-2
--- FAIL: TestSomething (0.00s)
FAIL
`
	var s Set
	if err := s.Read(strings.NewReader(in), "raw.txt"); err != nil {
		t.Fatal(err)
	}
	want := []string{"BenchmarkSum/type=float64/n=4096/nulls=10/impl=avx2-2"}
	if strings.Join(s.Failures, "|") != strings.Join(want, "|") {
		t.Errorf("failures %q, want %q", s.Failures, want)
	}
	var b strings.Builder
	if err := Render(&b, &s, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "**Failed benchmarks: 1.**") || !strings.Contains(b.String(), "- `"+want[0]+"`") {
		t.Errorf("ledger does not list the failure:\n%s", b.String())
	}
}

func TestReadSeparatesMachines(t *testing.T) {
	var s Set
	other := strings.Replace(raw, "cpu: Test CPU @ 1GHz", "cpu: Other CPU", 1)
	if err := s.Read(strings.NewReader(raw), "a.txt"); err != nil {
		t.Fatal(err)
	}
	if err := s.Read(strings.NewReader(other), "b.txt"); err != nil {
		t.Fatal(err)
	}
	if len(s.Runs) != 2 || s.Runs[1].CPU != "Other CPU" {
		t.Fatalf("got %d runs, want 2 with the second on Other CPU", len(s.Runs))
	}
}

// benchstat's own preferred input: results with the time in sec/op units
// and no GOMAXPROCS suffix are read as well.
func TestReadBenchfmtVariants(t *testing.T) {
	var s Set
	in := "cpu: X\nBenchmarkMin/type=int32/n=65536/nulls=10/impl=loop 10 2.5e-06 sec/op\n"
	if err := s.Read(strings.NewReader(in), "x"); err != nil {
		t.Fatal(err)
	}
	got := s.Runs[0].Median(Config{"Min", "int32", 65536, 10, ""}, "loop")
	if !near(got, 2500) {
		t.Errorf("sec/op read as %v ns, want 2500", got)
	}
}

func TestReadRejectsMalformed(t *testing.T) {
	for _, in := range []string{
		"BenchmarkSum/type=float64/n=abc/nulls=0/impl=x-2 10 5 ns/op\n",
		"BenchmarkSum/type=float64/n=10/nulls=200/impl=x-2 10 5 ns/op\n",
		"BenchmarkSum/type=float64/n=10/nulls=0/impl=x-2 10 5 B/op\n", // no time
		"BenchmarkSum/type=float64/n=10/nulls=0/impl=x-2 10 five ns/op\n",
		"BenchmarkSum/type=float64/n=10/nulls=0/sel=/impl=x-2 10 5 ns/op\n", // empty selection kind
	} {
		var s Set
		if err := s.Read(strings.NewReader(in), "bad"); err == nil {
			t.Errorf("Read(%q) accepted it", in)
		}
	}
}

func TestParseName(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		impl string
		ok   bool
	}{
		{"BenchmarkSum/type=float64/n=4096/nulls=0/impl=avx512-2", Config{"Sum", "float64", 4096, 0, ""}, "avx512", true},
		{"BenchmarkSummary/type=uint8/n=1048576/nulls=50/impl=loop", Config{"Summary", "uint8", 1048576, 50, ""}, "loop", true},
		{"BenchmarkSum/type=int64/n=65536/nulls=10/sel=sorted10/impl=avx512-2", Config{"Sum", "int64", 65536, 10, "sorted10"}, "avx512", true},
		{"BenchmarkCountValid/type=uint8/n=8/nulls=10/impl=loop", Config{"CountValid", "uint8", 8, 10, ""}, "loop", true},
		{"BenchmarkSumState/type=float64/n=1048576/nulls=10/impl=batches1024-2", Config{"SumState", "float64", 1048576, 10, ""}, "batches1024", true},
		{"BenchmarkIntSumState/type=int64/n=16777216/nulls=0/impl=workers2-2", Config{"IntSumState", "int64", 16777216, 0, ""}, "workers2", true},
		{"BenchmarkSum/type=int64/n=65536/nulls=0/sel=sorted10-2", Config{}, "", false}, // a parent, no impl
		{"BenchmarkSum/type=int64/n=65536/nulls=0/impl=x/sel=sorted10", Config{}, "", false},
		{"BenchmarkSum/type=int64/n=65536/nulls=0/extra=1/impl=x", Config{}, "", false},
		{"BenchmarkSum/type=float64/n=4096/nulls=0-2", Config{}, "", false},   // a parent, no impl
		{"BenchmarkCountValid/n=4096/scalar-8", Config{}, "", false},          // another scheme
		{"BenchmarkSum/float64/n=4096/nulls=0/avx512-2", Config{}, "", false}, // positional parts
	} {
		cfg, impl, ok, err := ParseName(tc.name)
		if err != nil || ok != tc.ok || cfg != tc.cfg || impl != tc.impl {
			t.Errorf("ParseName(%q) = %+v, %q, %v, %v; want %+v, %q, %v", tc.name, cfg, impl, ok, err, tc.cfg, tc.impl, tc.ok)
		}
	}
}

func TestConfigsOrder(t *testing.T) {
	r := &Run{Samples: map[Config]map[string][]float64{}}
	for _, c := range []Config{
		{"Summary", "float64", 4096, 0, ""}, {"Sum", "int64", 4096, 0, ""}, {"Sum", "float64", 65536, 0, ""},
		{"Sum", "float64", 4096, 50, ""}, {"Sum", "float64", 4096, 0, ""}, {"Min", "float32", 4096, 0, ""},
		{"Sum", "int64", 65536, 0, "random10"}, {"Sum", "int64", 65536, 0, "sorted10"}, {"Sum", "int64", 65536, 0, ""},
		{"Sum", "int64", 65536, 0, "sorted50"}, {"CountValid", "uint8", 8, 10, ""}, {"SumChecked", "int64", 8, 0, ""},
		{"SummaryState", "float64", 65536, 0, ""}, {"IntSumState", "int64", 65536, 0, ""}, {"SumState", "float64", 65536, 0, ""},
	} {
		r.Samples[c] = map[string][]float64{"x": {1}}
	}
	var got []string
	for _, c := range r.Configs() {
		got = append(got, c.String())
	}
	want := []string{
		"Sum/type=float64/n=4096/nulls=0", "Sum/type=float64/n=4096/nulls=50", "Sum/type=float64/n=65536/nulls=0",
		"Sum/type=int64/n=4096/nulls=0", "Sum/type=int64/n=65536/nulls=0", "Sum/type=int64/n=65536/nulls=0/sel=sorted10",
		"Sum/type=int64/n=65536/nulls=0/sel=sorted50", "Sum/type=int64/n=65536/nulls=0/sel=random10",
		"SumChecked/type=int64/n=8/nulls=0", "Min/type=float32/n=4096/nulls=0", "Summary/type=float64/n=4096/nulls=0",
		"CountValid/type=uint8/n=8/nulls=10", "SumState/type=float64/n=65536/nulls=0", "IntSumState/type=int64/n=65536/nulls=0",
		"SummaryState/type=float64/n=65536/nulls=0",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Configs order\n got %v\nwant %v", got, want)
	}
}

func TestConfigNames(t *testing.T) {
	for _, tc := range []struct {
		c          Config
		str, label string
		shape      Shape
	}{
		{Config{"Sum", "float64", 4096, 0, ""}, "Sum/type=float64/n=4096/nulls=0", "Sum float64 n=4096 nulls=0%", Large},
		{Config{"Sum", "int64", 65536, 10, "sorted10"}, "Sum/type=int64/n=65536/nulls=10/sel=sorted10", "Sum int64 n=65536 nulls=10% sel=sorted10", Selection},
		{Config{"Min", "float64", 8, 0, ""}, "Min/type=float64/n=8/nulls=0", "Min float64 n=8 nulls=0%", Short},
		{Config{"Min", "float64", ShortMax, 0, ""}, "Min/type=float64/n=256/nulls=0", "Min float64 n=256 nulls=0%", Short},
		{Config{"Min", "float64", 8, 0, "random10"}, "Min/type=float64/n=8/nulls=0/sel=random10", "Min float64 n=8 nulls=0% sel=random10", Selection},
		// A partial state is its own part at any n, short ones too.
		{Config{"SumState", "float64", 1 << 20, 10, ""}, "SumState/type=float64/n=1048576/nulls=10", "SumState float64 n=1048576 nulls=10%", State},
		{Config{"SummaryState", "float64", 8, 0, ""}, "SummaryState/type=float64/n=8/nulls=0", "SummaryState float64 n=8 nulls=0%", State},
	} {
		if got := tc.c.String(); got != tc.str {
			t.Errorf("String() = %q, want %q", got, tc.str)
		}
		if got := tc.c.Label(); got != tc.label {
			t.Errorf("Label() = %q, want %q", got, tc.label)
		}
		if got := ShapeOf(tc.c); got != tc.shape {
			t.Errorf("ShapeOf(%v) = %v, want %v", tc.c, got, tc.shape)
		}
		// The name round-trips through ParseName.
		c, impl, ok, err := ParseName("Benchmark" + tc.str + "/impl=loop-8")
		if err != nil || !ok || c != tc.c || impl != "loop" {
			t.Errorf("ParseName(String()) = %+v, %q, %v, %v; want %+v", c, impl, ok, err, tc.c)
		}
	}
}

func TestStateNames(t *testing.T) {
	for _, tc := range []struct {
		op    string
		state bool
	}{{"SumState", true}, {"IntSumState", true}, {"CountState", true}, {"State", false}, {"Sum", false}, {"Summary", false}} {
		if got := IsStateOp(tc.op); got != tc.state {
			t.Errorf("IsStateOp(%q) = %v, want %v", tc.op, got, tc.state)
		}
	}
	for _, tc := range []struct {
		impl             string
		stateImpl, backd bool
	}{
		{"call", true, false}, {"batches1024", true, false}, {"workers2", true, false}, {"workers0", true, false},
		{"avx512", false, true}, {"scalar", false, true}, {"loop", false, false}, {"vek", false, false},
		// Only the exact forms are state impls; anything else stays a backend name.
		{"batches", false, true}, {"workersx", false, true}, {"workers-1", false, true}, {"workers02", false, true},
	} {
		if got := IsStateImpl(tc.impl); got != tc.stateImpl {
			t.Errorf("IsStateImpl(%q) = %v, want %v", tc.impl, got, tc.stateImpl)
		}
		if got := IsBackend(tc.impl); got != tc.backd {
			t.Errorf("IsBackend(%q) = %v, want %v", tc.impl, got, tc.backd)
		}
	}
}

func TestReferenceImpls(t *testing.T) {
	for _, impl := range []string{"sum-avx512", "sum-scalar"} {
		if !IsReference(impl) || IsBackend(impl) || IsPeer(impl) {
			t.Errorf("%s: IsReference %v, IsBackend %v, IsPeer %v; want a reference only", impl, IsReference(impl), IsBackend(impl), IsPeer(impl))
		}
	}
	for _, impl := range []string{"avx512", "loop", "vek", "call"} {
		if IsReference(impl) {
			t.Errorf("%s taken for a reference", impl)
		}
	}
}
