package ledger

import (
	"math"
	"slices"
	"strings"
)

// Analysis computes the ledger's derived numbers for one Run.
type Analysis struct {
	Run *Run
}

// Analyze wraps r.
func Analyze(r *Run) *Analysis { return &Analysis{Run: r} }

// Impls returns every implementation measured anywhere in the run, in
// column order: the strict scalar backend, quiver's other backends from
// least to most preferred (as the run reported them, unknown ones by
// name), the plain loop, then the peers.
func (a *Analysis) Impls() []string {
	seen := map[string]bool{}
	for _, byImpl := range a.Run.Samples {
		for impl := range byImpl {
			seen[impl] = true
		}
	}
	var backends []string
	for impl := range seen {
		if IsBackend(impl) && impl != Strict {
			backends = append(backends, impl)
		}
	}
	pref := a.Run.Backends // most preferred first
	slices.SortFunc(backends, func(x, y string) int {
		ix, iy := slices.Index(pref, x), slices.Index(pref, y)
		if ix != iy {
			return iy - ix // least preferred first; unknown (-1) last
		}
		if x < y {
			return -1
		}
		return 1
	})
	var out []string
	if seen[Strict] {
		out = append(out, Strict)
	}
	out = append(out, backends...)
	if seen[Loop] {
		out = append(out, Loop)
	}
	for _, p := range Peers {
		if seen[p] {
			out = append(out, p)
		}
	}
	return out
}

// Backends returns the quiver backends among Impls, strict first.
func (a *Analysis) Backends() []string {
	var out []string
	for _, impl := range a.Impls() {
		if IsBackend(impl) {
			out = append(out, impl)
		}
	}
	return out
}

// BestPeer returns the fastest comparable alternative to quiver in c: the
// plain loop or a peer library whose Note does not rule it out. It returns
// "" and NaN when there is none.
func (a *Analysis) BestPeer(c Config) (string, float64) {
	best, bestNs := "", math.NaN()
	for impl, samples := range a.Run.Samples[c] {
		if IsBackend(impl) || IsReference(impl) || !NoteFor(impl, c, a.Run.Machine).Comparable {
			continue
		}
		ns := Median(samples)
		if !finite(ns) {
			continue
		}
		if best == "" || ns < bestNs || (ns == bestNs && impl < best) {
			best, bestNs = impl, ns
		}
	}
	return best, bestNs
}

// VsStrict is the speedup of impl over the strict scalar path in c.
func (a *Analysis) VsStrict(c Config, impl string) float64 {
	return Speedup(a.Run.Median(c, Strict), a.Run.Median(c, impl))
}

// VsPeer is the speedup of impl over the best peer in c.
func (a *Analysis) VsPeer(c Config, impl string) float64 {
	_, ns := a.BestPeer(c)
	return Speedup(ns, a.Run.Median(c, impl))
}

// Summary is a backend's geomean verdict over a set of configurations.
type Summary struct {
	Backend       string
	VsStrict      float64 // geomean speedup over the strict path
	StrictConfigs int     // configurations in that geomean
	VsPeer        float64 // geomean speedup over the best peer
	PeerConfigs   int
	// Wins, Ties and Losses count configurations against the best peer:
	// faster by more than 5%, within 5%, slower by more than 5%.
	Wins, Ties, Losses int
}

// Summarize computes backend's verdict over the configurations for which
// keep returns true (nil keeps all).
func (a *Analysis) Summarize(backend string, keep func(Config) bool) Summary {
	s := Summary{Backend: backend}
	var strict, peer []float64
	for _, c := range a.Run.Configs() {
		if keep != nil && !keep(c) {
			continue
		}
		if r := a.VsStrict(c, backend); finite(r) {
			strict = append(strict, r)
		}
		if r := a.VsPeer(c, backend); finite(r) {
			peer = append(peer, r)
			switch {
			case r > 1.05:
				s.Wins++
			case r < 1/1.05:
				s.Losses++
			default:
				s.Ties++
			}
		}
	}
	s.VsStrict, s.StrictConfigs = Geomean(strict)
	s.VsPeer, s.PeerConfigs = Geomean(peer)
	return s
}

// VsLoop is the speedup of impl over the plain loop in c.
func (a *Analysis) VsLoop(c Config, impl string) float64 {
	return Speedup(a.Run.Median(c, Loop), a.Run.Median(c, impl))
}

// Dispatched is the backend a plain quiver call runs on the run's machine:
// the active backend it reported, else its most preferred one, else "".
func (a *Analysis) Dispatched() string {
	if a.Run.Active != "" {
		return a.Run.Active
	}
	if len(a.Run.Backends) > 0 {
		return a.Run.Backends[0]
	}
	return ""
}

// Slower is a configuration where quiver's dispatched backend has a higher
// median time than the plain loop.
type Slower struct {
	Config
	QuiverNs, LoopNs float64
	Ratio            float64 // loop time / quiver time, below 1
}

// SlowerThanLoop returns every configuration outside the State part in
// which both the dispatched
// backend and the plain loop were measured and the backend's median is
// higher than the loop's, in reading order, and how many configurations
// were compared.
func (a *Analysis) SlowerThanLoop() (slower []Slower, compared int) {
	d := a.Dispatched()
	if d == "" {
		return nil, 0
	}
	for _, c := range a.Run.Configs() {
		if ShapeOf(c) == State {
			continue // measured against one call, not against a loop
		}
		q, l := a.Run.Median(c, d), a.Run.Median(c, Loop)
		if !finite(q) || !finite(l) {
			continue
		}
		compared++
		if q > l {
			slower = append(slower, Slower{Config: c, QuiverNs: q, LoopNs: l, Ratio: Speedup(l, q)})
		}
	}
	return slower, compared
}

// VsCall is the speedup of impl over Call in c: above 1 when the state
// (or the parallel reduce) is faster than one call over the whole input.
func (a *Analysis) VsCall(c Config, impl string) float64 {
	return Speedup(a.Run.Median(c, Call), a.Run.Median(c, impl))
}

// StateImpls returns the implementations measured in the State
// configurations of group, in column order: Call, the batch sizes from
// small to large, the worker counts from few to many, then any other by
// name.
func (a *Analysis) StateImpls(group []Config) []string {
	var out []string
	for _, c := range group {
		for impl := range a.Run.Samples[c] {
			if !slices.Contains(out, impl) {
				out = append(out, impl)
			}
		}
	}
	kind := func(impl string) int {
		switch {
		case impl == Call:
			return 0
		case strings.HasPrefix(impl, "batches") && IsStateImpl(impl):
			return 1
		case strings.HasPrefix(impl, "workers") && IsStateImpl(impl):
			return 2
		}
		return 3
	}
	slices.SortFunc(out, func(x, y string) int {
		if d := kind(x) - kind(y); d != 0 {
			return d
		}
		kx, _ := stateImplArg(x)
		ky, _ := stateImplArg(y)
		if kx != ky {
			return kx - ky
		}
		return strings.Compare(x, y)
	})
	return out
}
