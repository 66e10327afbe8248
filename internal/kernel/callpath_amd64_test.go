//go:build amd64 && !purego

package kernel

import (
	"fmt"
	"testing"

	"golang.org/x/sys/cpu"
)

// BenchmarkMinLayers times a dense float64 Min at each layer of its path,
// from the generated kernel alone up to the exported entry, so that the
// cost of each layer is the difference between two rows of one run:
//
//	go test -run '^$' -bench MinLayers -count 10 ./internal/kernel
//
// stub is the kernel called directly, switch the generated switch that
// picks it, direct the generated function that calls the kernel between
// its tests (denseSummaryDirect), dense the exported DenseSummary, which
// inlines it: the path the API takes for a dense Min or Max; on the
// dispatch that the typed entries run (denseSummaryOn), entry a typed
// entry, the path before the direct functions; summary is the entry the
// API took before that.
func BenchmarkMinLayers(b *testing.B) {
	for _, isa := range []ISA{AVX2, AVX512} {
		if isa == AVX512 && !cpu.X86.HasAVX512F {
			continue
		}
		for _, n := range []int{64, 4096} {
			x := make([]float64, n)
			for i := range x {
				x[i] = float64((i*7919)%n) - float64(n/2) + 0.5
			}
			stub := summaryMinDenseF64AVX512
			if isa == AVX2 {
				stub = summaryMinDenseF64AVX2FMA
			}
			layers := []struct {
				name string
				f    func([]float64) float64
			}{
				{"stub", func(x []float64) float64 { lo, _, _ := stub(x); return lo }},
				{"switch", func(x []float64) float64 { lo, _, _ := summaryDenseAsm(isa, WantMin, hasFMA, x); return lo }},
				{"direct", func(x []float64) float64 { lo, _ := denseSummaryDirect(isa, x, WantMin); return lo }},
				{"on", func(x []float64) float64 { lo, _ := denseSummaryOn(isa, x, WantMin); return lo }},
				{"entry", func(x []float64) float64 { lo, _ := entryDenseSummaryF64(isa, x, WantMin); return lo }},
				{"dense", func(x []float64) float64 { lo, _ := DenseSummary(isa, x, WantMin); return lo }},
				{"summary", func(x []float64) float64 { lo, _, _ := Summary(isa, x, nil, 0, WantMin); return lo }},
			}
			for _, l := range layers {
				b.Run(fmt.Sprintf("isa=%s/n=%d/%s", isa, n, l.name), func(b *testing.B) {
					var s float64
					for b.Loop() {
						s += l.f(x)
					}
					benchSink = s
				})
			}
		}
	}
}

var benchSink float64
