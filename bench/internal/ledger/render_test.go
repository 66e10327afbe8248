package ledger

import (
	"math"
	"strings"
	"testing"
)

// fixture is a run with known medians: scalar 1700 ns, avx512 100 ns,
// loop 1600 ns, vek 150 ns (so vek is the best peer and avx512 is 17x
// strict, 1.5x peer), and a masked configuration where only Arrow, which
// ignores nulls and must not count as the best peer, is faster than the
// loop.
func fixture() *Run {
	dense := Config{"Sum", "float64", 4096, 0, ""}
	masked := Config{"Sum", "float64", 65536, 10, ""}
	return &Run{
		Machine:  Machine{CPU: "Test CPU", GOOS: "linux", GOARCH: "amd64", Go: "go1.26.8", Commit: "abc123"},
		Backends: []string{"avx512", "generic", "scalar"},
		Active:   "avx512",
		Policies: map[string]string{"avx512": "4x16,4x8", "generic": "1x1,1x1", "scalar": "1x1,1x1"},
		Extra:    map[string]string{"benchtime": "50ms"},
		Samples: map[Config]map[string][]float64{
			dense: {
				"scalar":  {1700, 1650, 1800},
				"generic": {1700},
				"avx512":  {100, 95, 105},
				"loop":    {1600},
				"vek":     {150, 140, 200},
				"gonum":   {400},
			},
			masked: {
				"scalar":  {80000},
				"generic": {80000},
				"avx512":  {2000},
				"loop":    {40000},
				"arrow":   {1000},
			},
		},
	}
}

func TestBestPeer(t *testing.T) {
	a := Analyze(fixture())
	if name, ns := a.BestPeer(Config{"Sum", "float64", 4096, 0, ""}); name != "vek" || ns != 150 {
		t.Errorf("dense best peer = %s %v, want vek 150", name, ns)
	}
	// Arrow is faster but adds the values under nulls: not comparable.
	if name, ns := a.BestPeer(Config{"Sum", "float64", 65536, 10, ""}); name != "loop" || ns != 40000 {
		t.Errorf("masked best peer = %s %v, want loop 40000", name, ns)
	}
	if name, ns := a.BestPeer(Config{"Sum", "float64", 1, 0, ""}); name != "" || !math.IsNaN(ns) {
		t.Errorf("unmeasured best peer = %q %v, want none", name, ns)
	}
}

func TestRatiosAndVerdict(t *testing.T) {
	a := Analyze(fixture())
	dense, masked := Config{"Sum", "float64", 4096, 0, ""}, Config{"Sum", "float64", 65536, 10, ""}
	if got := a.VsStrict(dense, "avx512"); !near(got, 17) {
		t.Errorf("avx512 vs strict = %v, want 17", got)
	}
	if got := a.VsPeer(dense, "avx512"); !near(got, 1.5) {
		t.Errorf("avx512 vs peer = %v, want 1.5", got)
	}
	if got := a.VsPeer(masked, "avx512"); !near(got, 20) {
		t.Errorf("masked avx512 vs peer = %v, want 20", got)
	}
	s := a.Summarize("avx512", nil)
	// Geomeans: strict sqrt(17 * 40), peer sqrt(1.5 * 20).
	if !near(s.VsStrict, math.Sqrt(17*40)) || s.StrictConfigs != 2 {
		t.Errorf("geomean vs strict = %v over %d, want %v over 2", s.VsStrict, s.StrictConfigs, math.Sqrt(17*40))
	}
	if !near(s.VsPeer, math.Sqrt(1.5*20)) || s.PeerConfigs != 2 || s.Wins != 2 || s.Losses != 0 {
		t.Errorf("geomean vs peer = %+v", s)
	}
	g := a.Summarize("generic", nil) // 1700 vs 150 dense: a loss; 80000 vs 40000: a loss
	if g.Losses != 2 || g.Wins != 0 || g.Ties != 0 {
		t.Errorf("generic wins/ties/losses = %d/%d/%d, want 0/0/2", g.Wins, g.Ties, g.Losses)
	}
	if got := strings.Join(a.Impls(), ","); got != "scalar,generic,avx512,loop,gonum,vek,arrow" {
		t.Errorf("column order %s", got)
	}
}

func TestHypotheses(t *testing.T) {
	src := `package bench

// Hypotheses:
//
//	H1: Sum float64 n=4096 nulls=0%: avx512 >= 17x scalar   the headline
//	H2: Sum float64 n=4096 nulls=0%: avx512 >= 2x best-peer
//	H3: Sum float64 n=65536 nulls=10%: avx512 >= 20x loop
//	H4: Sum float32 n=4096 nulls=0%: avx512 >= 35x scalar
// H5 is not a registration: no colon after the id.
//	H60: Sum int64 n=65536 nulls=10% sel=sorted10: avx512 >= 1.5x loop     gathers
`
	hs, err := ParseHypotheses(strings.NewReader(src), "sum_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != 5 {
		t.Fatalf("parsed %d hypotheses, want 5: %+v", len(hs), hs)
	}
	want4 := Hypothesis{ID: "H60", Config: Config{"Sum", "int64", 65536, 10, "sorted10"}, Impl: "avx512", Baseline: "loop", Min: 1.5, Why: "gathers", Source: "sum_test.go"}
	if hs[4] != want4 {
		t.Errorf("H60 = %+v, want %+v", hs[4], want4)
	}
	want0 := Hypothesis{ID: "H1", Config: Config{"Sum", "float64", 4096, 0, ""}, Impl: "avx512", Baseline: "scalar", Min: 17, Why: "the headline", Source: "sum_test.go"}
	if hs[0] != want0 {
		t.Errorf("H1 = %+v, want %+v", hs[0], want0)
	}
	a := Analyze(fixture())
	for i, want := range []struct {
		held, measured bool
		ratio          float64
		base           string
	}{
		{true, true, 17, "scalar"}, // exactly at the target holds
		{false, true, 1.5, "vek"},  // 1.5x the best peer misses 2x
		{true, true, 20, "loop"},   // 40000 / 2000
		{false, false, math.NaN(), "scalar"},
	} {
		v := a.Check(hs[i])
		if v.Held != want.held || v.Measured != want.measured || v.BaseName != want.base ||
			(want.measured && !near(v.Ratio, want.ratio)) {
			t.Errorf("%s: %+v, want held=%v measured=%v ratio=%v base=%s", hs[i].ID, v, want.held, want.measured, want.ratio, want.base)
		}
	}
}

func TestSortHypotheses(t *testing.T) {
	hs := []Hypothesis{{ID: "H20"}, {ID: "H2"}, {ID: "H10"}, {ID: "H1b"}, {ID: "H1"}}
	SortHypotheses(hs)
	var got []string
	for _, h := range hs {
		got = append(got, h.ID)
	}
	if strings.Join(got, " ") != "H1 H1b H2 H10 H20" {
		t.Errorf("order %v", got)
	}
}

func TestHypothesisTypoIsAnError(t *testing.T) {
	for _, line := range []string{
		"//	H7: Sum float64 n=4096 nulls=0: avx512 >= 17x scalar",            // no %
		"//	H7: Sum float64 n=4096 nulls=0%: avx512 > 17x scalar",            // > instead of >=
		"//	H7: Sum float64 n=4096 nulls=0%: avx512 >= 17 scalar",            // no x
		"//	H7: Sum float64 n=4096 nulls=0% sel=: avx512 >= 1x loop",         // empty selection
		"//	H7: Sum float64 n=4096 sel=sorted10 nulls=0%: avx512 >= 1x loop", // selection before nulls
		"//	H7: Sum float64 n=4096 nulls=0%: sel=sorted10 avx512 >= 1x loop", // selection after the colon
	} {
		if _, err := ParseHypotheses(strings.NewReader(line+"\n"), "f.go"); err == nil {
			t.Errorf("accepted %q", line)
		}
	}
}

func TestRender(t *testing.T) {
	hs, err := ParseHypotheses(strings.NewReader(
		"//	H1: Sum float64 n=4096 nulls=0%: avx512 >= 17x scalar\n"+
			"//	H2: Sum float64 n=4096 nulls=0%: avx512 >= 2x best-peer\n"), "bench/sum_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	err = Render(&b, &Set{Runs: []*Run{fixture()}}, Options{Note: "Measured the fixture.", Hypotheses: hs})
	if err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"> Measured the fixture.",
		"## Test CPU (linux/amd64, go1.26.8)",
		"| quiver commit | abc123 |",
		"| benchtime | 50ms |",
		"| samples per benchmark | 1 to 3 |",
		// verdict: geomeans sqrt(680) = 26.1, sqrt(30) = 5.48
		"| avx512 | 26.1× over 2 | 5.48× over 2 | 2 / 0 / 0 |",
		"| H1 | Sum float64 n=4096 nulls=0% | avx512 ≥ 17× scalar | 17.0× | held |",
		"| H2 | Sum float64 n=4096 nulls=0% | avx512 ≥ 2× best-peer | 1.50× | **missed** |",
		"1 held, 1 missed, 0 not measured.",
		"| float sum layouts (ADR-013) | avx512 f32 A=4 W=16, f64 A=4 W=8; generic f32 A=1 W=1, f64 A=1 W=1; scalar f32 A=1 W=1, f64 A=1 W=1 |",
		"over the float Sum configurations (avx512 26.1×) compares", // generic is strict: not listed
		"#### Sum float64",
		"| scalar | generic | avx512 | loop | gonum | vek | arrow |",
		// dense row: avx512 100 ns, 17x strict, 1.5x peer; vek the best peer, ~ for its spread
		"| 4096 | 0% | 1.70 µs · 1.00× · 0.0882× | 1.70 µs · 1.00× · 0.0882× | 100 ns · 17.0× · 1.50× | 1.60 µs [1] | 400 ns [2] | 150 ns ~ ★ [3] | — |",
		"ignores validity: adds the values under nulls",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("ledger lacks %q\n%s", want, out)
		}
	}
}

// shapesFixture adds short-input and selection configurations to the
// fixture: avx512 beats the loop everywhere but in Sum int64 n=1 (the
// loop 2 ns, avx512 3 ns) and Min float64 n=65536 sel=random10.
func shapesFixture() *Run {
	r := fixture()
	add := func(c Config, byImpl map[string][]float64) { r.Samples[c] = byImpl }
	add(Config{"Sum", "int64", 1, 0, ""}, map[string][]float64{"scalar": {2.5}, "avx512": {3}, "loop": {2}})
	add(Config{"Sum", "int64", 64, 10, ""}, map[string][]float64{"scalar": {60}, "avx512": {20}, "loop": {40}})
	add(Config{"CountValid", "uint8", 16, 10, ""}, map[string][]float64{"scalar": {8}, "avx512": {4}, "loop": {8}})
	add(Config{"Sum", "int64", 65536, 0, "sorted10"}, map[string][]float64{"scalar": {6000}, "avx512": {3000}, "loop": {6000}})
	add(Config{"Min", "float64", 65536, 0, "random10"}, map[string][]float64{"scalar": {9000}, "avx512": {8000}, "loop": {7000}})
	return r
}

func TestSlowerThanLoop(t *testing.T) {
	a := Analyze(shapesFixture())
	slower, compared := a.SlowerThanLoop()
	// Every configuration has avx512 and the loop: 2 large, 3 short, 2 selections.
	if compared != 7 {
		t.Errorf("compared %d configurations, want 7", compared)
	}
	if len(slower) != 2 || slower[0].Config != (Config{"Sum", "int64", 1, 0, ""}) ||
		slower[1].Config != (Config{"Min", "float64", 65536, 0, "random10"}) || !near(slower[1].Ratio, 7.0/8) {
		t.Errorf("slower = %+v", slower)
	}
	if none, _ := Analyze(fixture()).SlowerThanLoop(); len(none) != 0 {
		t.Errorf("fixture: slower = %+v, want none", none)
	}
	// Without quiver-active, the most preferred backend is the dispatched one.
	r := shapesFixture()
	r.Active = ""
	if d := Analyze(r).Dispatched(); d != "avx512" {
		t.Errorf("dispatched = %q, want avx512", d)
	}
}

func TestRenderShapes(t *testing.T) {
	hs, err := ParseHypotheses(strings.NewReader(
		"//	H60: Sum int64 n=65536 nulls=0% sel=sorted10: avx512 >= 1.5x loop\n"+
			"//	H44: Sum int64 n=1 nulls=0%: avx512 >= 0.5x loop\n"), "bench/callshapes_test.go")
	if err != nil {
		t.Fatal(err)
	}
	SortHypotheses(hs)
	var b strings.Builder
	if err := Render(&b, &Set{Runs: []*Run{shapesFixture()}}, Options{Hypotheses: hs}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		// the main verdict is over the large inputs only, as before
		"| avx512 | 26.1× over 2 | 5.48× over 2 | 2 / 0 / 0 |",
		"### Slower than the plain loop",
		"**2 of 7 configurations** measured against the plain loop have quiver's dispatched backend (avx512) slower than the loop (0 of them by less than 5%",
		"| Sum int64 n=1 nulls=0% | 3.00 ns | 2.00 ns | 0.667× |",
		"| Min float64 n=65536 nulls=0% sel=random10 | 8.00 µs | 7.00 µs | 0.875× |",
		"| H44 | Sum int64 n=1 nulls=0% | avx512 ≥ 0.5× loop | 0.667× | held |",
		"| H60 | Sum int64 n=65536 nulls=0% sel=sorted10 | avx512 ≥ 1.5× loop | 2.00× | held |",
		"### Short inputs",
		"#### Sum int64\n\n| n | nulls | scalar | avx512 | loop |\n|--:|--:|---|---|---|\n| 1 | 0% | 2.50 ns · 0.8× | 3.00 ns · 0.667× | 2.00 ns |\n| 64 | 10% | 60.0 ns · 0.667× | 20.0 ns · 2.00× | 40.0 ns |",
		"#### CountValid (bitmap)",
		"### Selections",
		"| n | nulls | sel | scalar | avx512 | loop |",
		"| 65536 | 0% | sorted10 | 6.00 µs · 1.00× | 3.00 µs · 2.00× | 6.00 µs |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("ledger lacks %q\n%s", want, out)
		}
	}
	// Sections in order; the short and selection configurations are not
	// repeated in the main results.
	iSlow, iHyp, iRes, iShort, iSel := strings.Index(out, "### Slower"), strings.Index(out, "### Hypotheses"),
		strings.Index(out, "### Results"), strings.Index(out, "### Short inputs"), strings.Index(out, "### Selections")
	if !(iSlow < iHyp && iHyp < iRes && iRes < iShort && iShort < iSel) {
		t.Errorf("sections out of order: %d %d %d %d %d", iSlow, iHyp, iRes, iShort, iSel)
	}
	if strings.Contains(out[iRes:iShort], "#### Sum int64") {
		t.Errorf("short inputs repeated in the main results:\n%s", out[iRes:iShort])
	}

	var none strings.Builder
	if err := Render(&none, &Set{Runs: []*Run{fixture()}}, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(none.String(), "**None.** In all 2 configurations measured against the plain loop, the dispatched backend (avx512)") {
		t.Errorf("no 'None.' line:\n%s", none.String())
	}
	if strings.Contains(none.String(), "### Short inputs") || strings.Contains(none.String(), "### Selections") {
		t.Errorf("empty sections rendered")
	}
}

// stateFixture adds the State part to shapesFixture: one call over the
// input against the state fed in batches and the parallel reduce.
// SumState float64 n=16777216: call 10 ms, workers1 10.5 ms, workers2
// 6.25 ms (1.6x, 80% of linear); n=1048576: batches1024 at 1.25 ms
// against a 1 ms call (0.8x).
func stateFixture() *Run {
	r := shapesFixture()
	add := func(c Config, byImpl map[string][]float64) { r.Samples[c] = byImpl }
	add(Config{"SumState", "float64", 1 << 20, 0, ""}, map[string][]float64{"call": {1e6}, "batches1024": {1.25e6, 1.2e6, 1.3e6}})
	add(Config{"SumState", "float64", 1 << 24, 0, ""}, map[string][]float64{"workers2": {6.25e6}, "call": {10e6}, "workers1": {10.5e6}})
	add(Config{"SumState", "float64", 65536, 0, ""}, map[string][]float64{"call": {8192}, "workers2": {8192}})
	add(Config{"IntSumState", "int64", 1 << 24, 0, ""}, map[string][]float64{"call": {12e6}, "workers2": {12e6}})
	return r
}

func TestStateAnalysis(t *testing.T) {
	a := Analyze(stateFixture())
	big := Config{"SumState", "float64", 1 << 24, 0, ""}
	if got := strings.Join(a.StateImpls([]Config{big, {"SumState", "float64", 1 << 20, 0, ""}}), ","); got != "call,batches1024,workers1,workers2" {
		t.Errorf("state columns %s", got)
	}
	if got := a.VsCall(big, "workers2"); !near(got, 1.6) {
		t.Errorf("workers2 vs call = %v, want 1.6", got)
	}
	// The state impls are not backends: the columns and verdicts of the
	// other parts are those of shapesFixture.
	if got := strings.Join(a.Impls(), ","); got != "scalar,generic,avx512,loop,gonum,vek,arrow" {
		t.Errorf("column order %s", got)
	}
	if got := strings.Join(a.Backends(), ","); got != "scalar,generic,avx512" {
		t.Errorf("backends %s", got)
	}
	if _, compared := a.SlowerThanLoop(); compared != 7 {
		t.Errorf("compared %d configurations against the loop, want 7 (no State one)", compared)
	}
	if s := a.Summarize("avx512", isLarge); s.StrictConfigs != 2 || s.PeerConfigs != 2 {
		t.Errorf("large verdict over %d and %d configurations, want 2 and 2", s.StrictConfigs, s.PeerConfigs)
	}
}

func TestRenderState(t *testing.T) {
	hs, err := ParseHypotheses(strings.NewReader(
		"//	H70: SumState float64 n=1048576 nulls=0%: batches1024 >= 0.91x call   streaming\n"+
			"//	H74: SumState float64 n=16777216 nulls=0%: workers2 >= 1.5x call\n"+
			"//	H75: IntSumState int64 n=16777216 nulls=0%: workers2 >= 1.5x call\n"+
			"//	H76: SummaryState float64 n=16777216 nulls=0%: workers2 >= 1.5x call\n"), "bench/state_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if want := (Hypothesis{ID: "H70", Config: Config{"SumState", "float64", 1 << 20, 0, ""}, Impl: "batches1024", Baseline: Call,
		Min: 0.91, Why: "streaming", Source: "bench/state_test.go"}); hs[0] != want {
		t.Errorf("H70 = %+v, want %+v", hs[0], want)
	}
	var b strings.Builder
	if err := Render(&b, &Set{Runs: []*Run{stateFixture()}}, Options{Hypotheses: hs}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		// the verdict and the loop comparison are those of the other parts
		"| avx512 | 26.1× over 2 | 5.48× over 2 | 2 / 0 / 0 |",
		"**2 of 7 configurations** measured against the plain loop",
		"short inputs, selections and the partial states have sections of their own below",
		"| H70 | SumState float64 n=1048576 nulls=0% | batches1024 ≥ 0.91× call | 0.8× | **missed** | 1.25 ms, 1.00 ms (call) |",
		"| H74 | SumState float64 n=16777216 nulls=0% | workers2 ≥ 1.5× call | 1.60× | held | 6.25 ms, 10.0 ms (call) |",
		"| H75 | IntSumState int64 n=16777216 nulls=0% | workers2 ≥ 1.5× call | 1.00× | **missed** |",
		"| H76 | SummaryState float64 n=16777216 nulls=0% | workers2 ≥ 1.5× call | — | not measured |",
		"1 held, 2 missed, 1 not measured.",
		"### Partial states and the parallel reduce",
		// 65536 float64 = 512 KiB in 8.192 µs: 64 GB/s; 8 MiB in 1 ms: 8.39 GB/s
		"#### SumState float64\n\n| n | nulls | call | batches1024 | workers1 | workers2 |\n|--:|--:|---|---|---|---|\n" +
			"| 65536 | 0% | 8.19 µs · 64.0 GB/s | — | — | 8.19 µs · 1.00× · 64.0 GB/s |\n" +
			"| 1048576 | 0% | 1.00 ms · 8.39 GB/s | 1.25 ms · 0.8× · 6.71 GB/s | — | — |\n" +
			"| 16777216 | 0% | 10.0 ms · 13.4 GB/s | — | 10.5 ms · 0.952× · 12.8 GB/s | 6.25 ms · 1.60× · 21.5 GB/s |",
		"#### IntSumState int64\n\n| n | nulls | call | workers2 |",
		"- SumState float64 n=16777216 nulls=0%: workers2 1.60× the call, 80% of linear; call 13.4 GB/s, workers2 21.5 GB/s.",
		"- IntSumState int64 n=16777216 nulls=0%: workers2 1.00× the call, 50% of linear;",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("ledger lacks %q\n%s", want, out)
		}
	}
	// The state section comes last, and the state impls never appear as
	// columns of the other tables.
	iSel, iState := strings.Index(out, "### Selections"), strings.Index(out, "### Partial states")
	if !(iSel < iState) {
		t.Errorf("sections out of order: selections %d, states %d", iSel, iState)
	}
	if strings.Contains(out, "- SumState float64 n=65536") {
		t.Errorf("scaling listed below the largest input:\n%s", out[iState:])
	}
	if before := out[:iState]; strings.Contains(before, "| call |") || strings.Contains(before, "workers2 |") ||
		strings.Contains(before, "#### SumState") {
		t.Errorf("state impls or configurations outside their section:\n%s", before)
	}
}
