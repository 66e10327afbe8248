package bench

import (
	"flag"
	"fmt"
	"math"
	"testing"
	"unsafe"

	"github.com/quiverlabs/quiver"
)

// seen records, per implementation, the distinct inputs (by the address
// of their first bitmap byte, or of their first value when dense) the
// timed loop handed to it.
type seen map[string]map[uintptr][]byte

func (s seen) note(impl string, in *input[float64]) {
	if s[impl] == nil {
		s[impl] = map[uintptr][]byte{}
	}
	if in.bits != nil {
		s[impl][uintptr(unsafe.Pointer(&in.bits[0]))] = in.bits
	} else {
		s[impl][uintptr(unsafe.Pointer(&in.x[0]))] = nil
	}
}

// TestBenchmarksRotateInputs runs the harness on masked and short
// configurations and checks that quiver and the plain loop are each timed
// on at least 8 different random bitmaps (short inputs: 8 different
// inputs), drawn at the same null percentage, so that no branch predictor
// can learn one.
func TestBenchmarksRotateInputs(t *testing.T) {
	bt := flag.Lookup("test.benchtime")
	prev := bt.Value.String()
	if err := bt.Value.Set("64x"); err != nil {
		t.Fatal(err)
	}
	defer bt.Value.Set(prev)
	for _, sh := range []shape{{4096, 10, ""}, {65536, 50, ""}, {8, 10, ""}, {16, 0, ""}, {65536, 10, "sorted10"}} {
		t.Run(fmt.Sprintf("%+v", sh), func(t *testing.T) {
			got := seen{}
			impls := func(in *input[float64]) (func() res, []impl) {
				x, ms, bm := in.x, in.masks, in.bits
				q := func() res {
					got.note("quiver", in)
					return res{math.Float64bits(quiver.Sum(x, ms...))}
				}
				loop := func() res {
					got.note("loop", in)
					if in.sel != nil {
						return res{math.Float64bits(selSumFloat(x, in.sel, bm))}
					}
					if bm == nil {
						return res{math.Float64bits(loopSumFloat(x))}
					}
					return res{math.Float64bits(loopSumFloatMasked(x, bm))}
				}
				return q, []impl{{name: "loop", run: loop}}
			}
			testing.Benchmark(func(b *testing.B) {
				benchConfig(b, "Sum", newShapeInput[float64](sh), impls, closeSum[float64])
			})
			for _, impl := range []string{"quiver", "loop"} {
				ins := got[impl]
				if len(ins) < 8 {
					t.Errorf("%s timed on %d different inputs, want at least 8", impl, len(ins))
				}
				if sh.nulls == 0 {
					continue
				}
				contents := map[string]bool{}
				for _, bits := range ins {
					contents[string(bits)] = true
					nulls := sh.n - popcount(bits, sh.n)
					if want := float64(sh.n*sh.nulls) / 100; sh.n > 256 && math.Abs(float64(nulls)-want) > 0.05*float64(sh.n) {
						t.Errorf("%s: a bitmap with %d nulls of %d, want about %.0f", impl, nulls, sh.n, want)
					}
				}
				// At a few elements and 10% nulls most bitmaps have no null
				// and several are alike (the values differ); from 64
				// elements on, two equal ones would mean a reused seed.
				if sh.n >= 64 && len(contents) != len(ins) {
					t.Errorf("%s: %d bitmaps but only %d different ones", impl, len(ins), len(contents))
				}
			}
		})
	}
}

// TestCountValidLoopChecksIndices: over a selection without a bitmap,
// quiver.CountValid checks every index against n (the contract), so the
// loop it is timed against must do the same work and reject what quiver
// rejects.
func TestCountValidLoopChecksIndices(t *testing.T) {
	in := newShapeInput[uint8](shape{selSize, 0, "sorted10"})
	in.sel[len(in.sel)/2] = uint32(in.n) // one past the end
	q, alts := countValidImpls(in)
	for _, im := range append([]impl{{name: "quiver", run: q}}, alts...) {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: CountValid over a selection with index %d of %d rows did not panic", im.name, in.n, in.n)
				}
			}()
			im.run()
		}()
	}
}

// TestTimedLoopDoesNotAllocate: cycling through the inputs costs a counter
// and an indirect call, never an allocation, for quiver and the loop.
func TestTimedLoopDoesNotAllocate(t *testing.T) {
	bt := flag.Lookup("test.benchtime")
	prev := bt.Value.String()
	if err := bt.Value.Set("1000x"); err != nil {
		t.Fatal(err)
	}
	defer bt.Value.Set(prev)
	for _, sh := range []shape{{16, 10, ""}, {4096, 10, ""}, {selSize, 10, "sorted10"}} {
		var quivers, loops []func() res
		for _, in := range variants(newShapeInput[float64](sh)) {
			q, alts := shapeSumImpls(in)
			quivers, loops = append(quivers, q), append(loops, alts[0].run)
		}
		for name, runs := range map[string][]func() res{"quiver": quivers, "loop": loops} {
			r := testing.Benchmark(func(b *testing.B) {
				b.ReportAllocs()
				timeRuns(b, runs)
			})
			if a := r.AllocsPerOp(); a != 0 || len(runs) < rotations {
				t.Errorf("%+v %s: %d allocations per call over %d inputs", sh, name, a, len(runs))
			}
		}
	}
}
