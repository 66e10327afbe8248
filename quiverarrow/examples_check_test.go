package quiverarrow

import (
	"testing"

	"github.com/quiverlabs/quiver/internal/testkit"
)

// TestExportedNamesHaveExamples holds the package to its documentation
// rule: every exported function and type has a runnable example (one with
// an Output comment, which go test runs and checks).
func TestExportedNamesHaveExamples(t *testing.T) { testkit.CheckExamples(t, ".") }
