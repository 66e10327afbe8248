package quiver

import (
	"strings"
	"testing"
)

// mustPanic runs f and checks that it panics with exactly msg.
func mustPanic(t *testing.T, msg string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Errorf("no panic, want %q", msg)
			return
		}
		if s, ok := r.(string); !ok || s != msg {
			t.Errorf("panic %v, want %q", r, msg)
		}
	}()
	f()
}

func TestBadInput(t *testing.T) {
	x := make([]float64, 40)
	short := make([]byte, 3)
	const shortMsg = "quiver: validity bitmap has 24 bits from its offset to its end, need 40, one per element"
	mustPanic(t, shortMsg, func() { Sum(x, Valid(short, 0)) })
	mustPanic(t, shortMsg, func() { Min(x, Valid(short, 0)) })
	mustPanic(t, shortMsg, func() { Summarize(x, Valid(short, 0)) })
	mustPanic(t, shortMsg, func() { SumInt(make([]int32, 40), Valid(short, 0)) })
	mustPanic(t, shortMsg, func() { SumChecked(make([]int64, 40), Valid(short, 0)) })
	mustPanic(t, shortMsg, func() { CountValid(40, Valid(short, 0)) })
	// The offset counts: 5 bytes hold 40 bits at offset 0 but not at offset 1.
	mustPanic(t, "quiver: validity bitmap has 39 bits from its offset to its end, need 40, one per element",
		func() { Sum(x, Valid(make([]byte, 5), 1)) })
	mustPanic(t, "quiver: Valid: bitmap offset -1 is negative", func() { Sum(x, Valid(make([]byte, 8), -1)) })
	mustPanic(t, "quiver: selection index 40 at position 2 is out of range for 40 elements",
		func() { Sum(x, Select([]uint32{0, 39, 40, 41})) })
	mustPanic(t, "quiver: selection index 4294967295 at position 0 is out of range for 40 elements",
		func() { MaxInt(x) })
	mustPanic(t, "quiver: selection index 0 at position 0 is out of range for 0 elements",
		func() { SumUint([]uint8{}, Select([]uint32{0})) })
	mustPanic(t, "quiver: got 2 masks, want at most one", func() { Sum(x, Mask{}, Mask{}) })
	mustPanic(t, "quiver: element count -1 is negative", func() { CountValid(-1) })
	mustPanic(t, "quiver: selection index 4 at position 0 is out of range for 4 elements",
		func() { CountValid(4, Select([]uint32{4})) })
}

// MaxInt is a selection that names the largest uint32 index.
func MaxInt(x []float64) float64 { return Max(x, Select([]uint32{^uint32(0)})) }

// A nil bitmap is all-valid whatever its offset (Arrow returns nil for
// arrays without nulls), and a bitmap may be longer than needed.
func TestValidEdgeForms(t *testing.T) {
	x := []float64{1, 2, 3}
	if got := Sum(x, Valid(nil, 5)); got != 6 {
		t.Errorf("Sum(nil bitmap at offset 5) = %v, want 6", got)
	}
	if got := Sum(x, Valid([]byte{0xFF, 0xFF, 0xFF}, 13)); got != 6 {
		t.Errorf("Sum(long bitmap) = %v, want 6", got)
	}
	if got := Sum(x, Valid([]byte{0}, 0).Select(nil)); got != 0 {
		t.Errorf("Sum(empty selection) = %v, want 0", got)
	}
	if got := Sum([]float64{}, Valid([]byte{}, 0)); got != 0 {
		t.Errorf("Sum(empty with empty bitmap) = %v, want 0", got)
	}
}

// TestNoAllocs checks the three call forms of every operation.
func TestNoAllocs(t *testing.T) {
	if testing.Short() && raceEnabled {
		t.Skip("the race detector allocates")
	}
	f := make([]float64, 1000)
	f32 := make([]float32, 1000)
	i := make([]int64, 1000)
	i8 := make([]int8, 1000)
	u := make([]uint32, 1000)
	bm := make([]byte, 126)
	sel := []uint32{1, 5, 900, 3}
	forms := map[string]Mask{"validity": Valid(bm, 3), "selection": Valid(bm, 3).Select(sel)}
	// Each op calls the API directly (never through a variadic func value,
	// whose argument array would escape in the test itself): with a Mask
	// when given one, in the dense form otherwise.
	ops := map[string]func(m *Mask){
		"Sum": func(m *Mask) {
			if m == nil {
				sinkF64 = Sum(f) + float64(Sum(f32))
			} else {
				sinkF64 = Sum(f, *m) + float64(Sum(f32, *m))
			}
		},
		"SumInt": func(m *Mask) {
			if m == nil {
				sinkF64 = float64(SumInt(i) + SumInt(i8))
			} else {
				sinkF64 = float64(SumInt(i, *m) + SumInt(i8, *m))
			}
		},
		"SumUint": func(m *Mask) {
			if m == nil {
				sinkF64 = float64(SumUint(u))
			} else {
				sinkF64 = float64(SumUint(u, *m))
			}
		},
		"Min": func(m *Mask) {
			if m == nil {
				sinkF64 = Min(f)
			} else {
				sinkF64 = Min(f, *m)
			}
		},
		"Max": func(m *Mask) {
			if m == nil {
				sinkF64 = float64(Max(i8))
			} else {
				sinkF64 = float64(Max(i8, *m))
			}
		},
		"MinMax": func(m *Mask) {
			if m == nil {
				lo, _ := MinMax(u)
				sinkF64 = float64(lo)
			} else {
				lo, _ := MinMax(u, *m)
				sinkF64 = float64(lo)
			}
		},
		"Summarize": func(m *Mask) {
			if m == nil {
				sinkF64 = float64(Summarize(f32).Count)
			} else {
				sinkF64 = float64(Summarize(f32, *m).Count)
			}
		},
		"SumChecked": func(m *Mask) {
			if m == nil {
				sinkF64 = float64(SumChecked(i).Sum + SumChecked(i8).Sum)
			} else {
				sinkF64 = float64(SumChecked(i, *m).Sum + SumChecked(i8, *m).Sum)
			}
		},
		"SumCheckedUint": func(m *Mask) {
			if m == nil {
				sinkF64 = float64(SumCheckedUint(u).Sum)
			} else {
				sinkF64 = float64(SumCheckedUint(u, *m).Sum)
			}
		},
		"CountValid": func(m *Mask) {
			if m == nil {
				sinkF64 = float64(CountValid(1000))
			} else {
				sinkF64 = float64(CountValid(1000, *m))
			}
		},
	}
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		for name, op := range ops {
			if a := testing.AllocsPerRun(20, func() { op(nil) }); a != 0 {
				t.Errorf("%s dense: %v allocations per call", name, a)
			}
			for form, m := range forms {
				if a := testing.AllocsPerRun(20, func() { op(&m) }); a != 0 {
					t.Errorf("%s %s: %v allocations per call", name, form, a)
				}
			}
		}
	})
}

func TestMaskDoc(t *testing.T) {
	// The panic prefix is part of the documented behaviour.
	defer func() {
		if r := recover(); r == nil || !strings.HasPrefix(r.(string), "quiver: ") {
			t.Errorf("panic %v lacks the quiver: prefix", r)
		}
	}()
	Sum([]float64{1}, Valid([]byte{}, 0))
}
