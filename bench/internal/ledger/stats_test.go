package ledger

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{5}, 5},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{10, 10, 1000, 10, 11}, 10}, // one slow pass does not move it
		{[]float64{2, 2}, 2},
	} {
		in := append([]float64(nil), tc.in...)
		if got := Median(tc.in); got != tc.want {
			t.Errorf("Median(%v) = %v, want %v", in, got, tc.want)
		}
		for i := range in {
			if in[i] != tc.in[i] {
				t.Fatalf("Median reordered its input: %v became %v", in, tc.in)
			}
		}
	}
	if got := Median(nil); !math.IsNaN(got) {
		t.Errorf("Median(nil) = %v, want NaN", got)
	}
}

func TestSpread(t *testing.T) {
	if got := Spread([]float64{90, 100, 110}); !near(got, 0.2) {
		t.Errorf("Spread = %v, want 0.2", got)
	}
	if got := Spread([]float64{7, 7, 7}); got != 0 {
		t.Errorf("Spread of identical samples = %v, want 0", got)
	}
}

func TestSpeedup(t *testing.T) {
	if got := Speedup(1700, 100); got != 17 {
		t.Errorf("Speedup(1700, 100) = %v, want 17", got)
	}
	if got := Speedup(100, 200); got != 0.5 {
		t.Errorf("Speedup(100, 200) = %v, want 0.5", got)
	}
	for _, tc := range [][2]float64{{0, 1}, {1, 0}, {math.NaN(), 1}, {1, math.NaN()}, {-1, 1}} {
		if got := Speedup(tc[0], tc[1]); !math.IsNaN(got) {
			t.Errorf("Speedup(%v, %v) = %v, want NaN", tc[0], tc[1], got)
		}
	}
}

func TestGeomean(t *testing.T) {
	if g, n := Geomean([]float64{2, 8}); !near(g, 4) || n != 2 {
		t.Errorf("Geomean(2, 8) = %v over %d, want 4 over 2", g, n)
	}
	// A 2x win and a 2x loss cancel.
	if g, _ := Geomean([]float64{2, 0.5}); !near(g, 1) {
		t.Errorf("Geomean(2, 0.5) = %v, want 1", g)
	}
	if g, _ := Geomean([]float64{1, 10, 100}); !near(g, 10) {
		t.Errorf("Geomean(1, 10, 100) = %v, want 10", g)
	}
	// Unmeasured ratios are skipped, not counted as zero.
	if g, n := Geomean([]float64{3, math.NaN(), 3, 0, math.Inf(1)}); !near(g, 3) || n != 2 {
		t.Errorf("Geomean with gaps = %v over %d, want 3 over 2", g, n)
	}
	if g, n := Geomean(nil); !math.IsNaN(g) || n != 0 {
		t.Errorf("Geomean(nil) = %v over %d, want NaN over 0", g, n)
	}
}
