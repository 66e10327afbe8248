// Package bench measures quiver against the alternatives a Go user would
// otherwise pick, on the same inputs in the same run: quiver's backends
// (selected with quiver.SetBackend; "scalar" is the strict reference, the
// path -tags purego builds), a plain Go loop, gonum, vek and vek32, Arrow's
// arrow/math and the standard library's slices; and quiver's partial
// states, fed in batches or through the parallel reduce, against one call
// over the whole input.
//
// The package is only benchmarks and the tests that keep them honest; it
// is a module of its own so that quiver itself depends on none of the
// peers. Each benchmark file registers its hypotheses in a comment block
// before any number was measured; cmd/ledger turns the raw output into
// docs/ledger.md and marks each hypothesis held or missed. README.md has
// the exact commands.
package bench
