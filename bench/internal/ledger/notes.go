package ledger

// Roles of the implementations the benchmarks run.
const (
	// Strict is quiver's scalar backend: the reference, the strict left
	// fold for float sums, the path -tags purego builds. Every "vs strict"
	// ratio divides its time.
	Strict = "scalar"
	// Loop is the plain Go loop a user writes by hand: `s += v`, `if v < m`,
	// and with a bitmap, a test of one bit per element.
	Loop = "loop"
)

// Peers are the libraries a Go user would otherwise pick, in the ledger's
// column order. An implementation that is neither a peer, Loop nor Strict
// is one of quiver's SIMD or portable backends.
var Peers = []string{"gonum", "vek", "arrow", "slices"}

// IsPeer reports whether impl is a peer library.
func IsPeer(impl string) bool {
	for _, p := range Peers {
		if p == impl {
			return true
		}
	}
	return false
}

// IsBackend reports whether impl is one of quiver's backends.
func IsBackend(impl string) bool { return impl != Loop && !IsPeer(impl) }

// Note says how an alternative to quiver computes something different
// from quiver's contract in configuration c, for the ledger to print next
// to its number. Comparable is false when the difference shows on the
// benchmark's own input (a peer that adds the values under nulls computes
// another number); such a peer is shown but never counts as the best peer.
// Differences that the NaN-free, non-empty, zero-free benchmark input
// cannot show (NaN rules, panics on empty, another summation order) keep
// it comparable: on this input it does the same work.
//
// Every claim here is checked against the peer itself by TestPeerNotes in
// the benchmark package, so a peer upgrade that changes a behaviour fails
// a test instead of leaving a wrong footnote.
type Note struct {
	Text       string
	Comparable bool
}

// NoteFor returns the note of impl in configuration c; the zero Note
// (empty text, comparable) means it computes what quiver's contract says.
func NoteFor(impl string, c Config) Note {
	masked := c.Nulls > 0
	float := c.Type == "float64" || c.Type == "float32"
	twoPass := c.Op == "MinMax" || c.Op == "Summary"
	switch impl {
	case Loop:
		switch {
		case masked:
			return Note{Text: "tests one bitmap bit per element", Comparable: true}
		case c.Op == "Sum" && float:
			return Note{Text: "strict left fold, the scalar order", Comparable: true}
		case c.Op != "Sum" && float:
			return Note{Text: "`if v < m` from x[0]: a NaN is kept only in first place", Comparable: true}
		}
	case "gonum":
		switch c.Op {
		case "Sum":
			return Note{Text: "reassociates: SSE2, 4×2 lanes, order depends on alignment", Comparable: true}
		case "Min", "Max":
			return Note{Text: "skips NaN; panics on empty", Comparable: true}
		default:
			return Note{Text: "two passes (Min, Max); skips NaN; panics on empty", Comparable: true}
		}
	case "vek":
		switch {
		case c.Op == "Sum":
			return Note{Text: "reassociates (AVX2 accumulators)", Comparable: true}
		case twoPass:
			return Note{Text: "two passes (Min, Max); may drop a NaN; panics on empty", Comparable: true}
		default:
			return Note{Text: "may drop a NaN (VMINPD/VMAXPD order); panics on empty", Comparable: true}
		}
	case "arrow":
		switch {
		case masked:
			return Note{Text: "ignores validity: adds the values under nulls", Comparable: false}
		case float:
			return Note{Text: "reassociates (SIMD accumulators)", Comparable: true}
		}
	case "slices":
		nan := ""
		if float {
			nan = "a NaN gives a non-canonical NaN; -0.0 < +0.0; "
		}
		if twoPass {
			return Note{Text: "two passes (Min, Max); " + nan + "panics on empty", Comparable: true}
		}
		return Note{Text: nan + "panics on empty", Comparable: true}
	}
	return Note{Comparable: true}
}
