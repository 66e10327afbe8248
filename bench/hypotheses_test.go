package bench

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/quiverlabs/quiver/bench/internal/ledger"
)

// TestHypothesesParse reads the registrations in this module's test files
// as bench/ledger.sh does: a line that starts like a registration of the
// ledger's matrix ("// H12: ...") must parse, or the ledger run fails.
// Hypotheses measured outside the matrix are written "// H12 (measured
// by hand): ..." and reported in docs/ledger.md by hand.
func TestHypothesesParse(t *testing.T) {
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		r, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ledger.ParseHypotheses(r, f); err != nil {
			t.Error(err)
		}
		r.Close()
	}
}
