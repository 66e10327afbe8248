package kernel

import (
	"math"
	"testing"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
)

// forEachISA runs f once per ISA of this build that the CPU can run
// (testISAs, per architecture, asks the CPU as the API's backend files
// do); the others are logged, so a run says what it did not cover.
func forEachISA(t *testing.T, f func(t *testing.T, isa ISA)) {
	t.Helper()
	for _, c := range testISAs() {
		if !c.ok {
			t.Logf("ISA %s: not available on this CPU, not tested", c.isa)
			continue
		}
		t.Run(c.isa.String(), func(t *testing.T) { f(t, c.isa) })
	}
}

type testISA struct {
	isa ISA
	ok  bool
}

// hasISA reports whether this build and CPU run isa.
func hasISA(isa ISA) bool {
	for _, c := range testISAs() {
		if c.isa == isa {
			return c.ok
		}
	}
	return false
}

func negZero[T constraints.Float]() T { z := math.Copysign(0, -1); return T(z) }
func posInf[T constraints.Float]() T  { f := math.Inf(1); return T(f) }

// nanWithPayload returns a NaN of T that is not the canonical one: negative,
// with a payload.
func nanWithPayload[T constraints.Float]() T {
	if num.KindOf[T]() == num.Float32 {
		return T(math.Float32frombits(0xFFC00123))
	}
	return T(math.Float64frombits(0xFFF8000000000123))
}
