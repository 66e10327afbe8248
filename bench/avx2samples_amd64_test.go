package bench

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/quiverlabs/quiver"
)

// TestAVX2Samples times the implementations of BenchmarkAVX2Peers whose
// "op/type/n=N/nulls=P/impl" name matches $AVX2_SAMPLES, interleaved: 150
// rounds, each timing every implementation once over at least 200µs, and
// prints the fastest, 10th-percentile and median sample of each. On a
// machine shared with other work, the fastest of many short interleaved
// samples is the figure least disturbed by the neighbours; it complements
// the testing.B medians (benchstat), which the same disturbance spreads.
// Set AVX2_SAMPLES_REVERSE to time the implementations of each round in
// reverse order: at n=1048576 the first implementation to touch an array
// after another one pays for bringing it back into cache.
func TestAVX2Samples(t *testing.T) {
	pat := os.Getenv("AVX2_SAMPLES")
	if pat == "" {
		t.Skip("set AVX2_SAMPLES to a regexp of the cases to time")
	}
	if !backendAvailable("avx2") {
		t.Skip("no avx2 backend on this CPU")
	}
	re := regexp.MustCompile(pat)
	prev := quiver.ActiveBackend().Name
	defer quiver.SetBackend(prev)
	type entry struct {
		name string
		im   avx2Impl
		ts   []float64
	}
	var es []*entry
	for _, c := range avx2Cases() {
		for _, im := range c.impls {
			name := fmt.Sprintf("%s/%s/n=%d/nulls=%d/%s", c.op, c.typ, c.n, c.nulls, im.name)
			if re.MatchString(name) {
				es = append(es, &entry{name: name, im: im})
			}
		}
	}
	for range 150 {
		order := slices.Clone(es)
		if os.Getenv("AVX2_SAMPLES_REVERSE") != "" {
			slices.Reverse(order)
		}
		for _, e := range order {
			backend := prev
			if e.im.backend {
				backend = "avx2"
			}
			if err := quiver.SetBackend(backend); err != nil {
				t.Fatal(err)
			}
			e.ts = append(e.ts, sampleNs(e.im.run))
		}
	}
	for _, e := range es {
		slices.Sort(e.ts)
		fmt.Printf("%-45s min %9.0f  p10 %9.0f  med %9.0f\n", e.name, e.ts[0], e.ts[len(e.ts)/10], e.ts[len(e.ts)/2])
	}
}

// sampleNs is the time of one call of run, in ns, averaged over enough
// calls to take 200µs, after calls that warm up for at least 1ms (and
// one call at least). One call was not enough at n=1048576 (8 MB) on an
// Intel Xeon family 6 model 207: the first implementation of a case after
// another case's arrays ran 1.6x the time of the others on the same array,
// whose calls come after it, and level with them in reverse order; a
// single pass over an array that large does not leave all of it in the
// last-level cache.
func sampleNs(run func() res) float64 {
	for start := time.Now(); ; {
		sink = run()
		if time.Since(start) > time.Millisecond {
			break
		}
	}
	for reps := 1; ; reps *= 2 {
		start := time.Now()
		for range reps {
			sink = run()
		}
		if d := time.Since(start); d > 200*time.Microsecond {
			return float64(d.Nanoseconds()) / float64(reps)
		}
	}
}
