package kernel

// sumWindows is SumFloatWindows for one machine type: each window's sum is
// the one the API's dense Sum computes on isa, the strict fold below cut
// elements and sumFloatOn from there, so a window's bits do not depend on
// being summed with others.
//
// Where sumFloatDirect calls the kernels itself (sumsDirect), a window
// calls it, a frame fewer than through sumFloatOn.
func sumWindows[T float32 | float64](isa ISA, sums, x []T, bounds []int, cut int) {
	sums = sums[:len(bounds)-1]
	direct := sumsDirect(isa)
	for k := range sums {
		w := x[bounds[k]:bounds[k+1]]
		switch {
		case len(w) < cut:
			sums[k] = StrictSum(w)
		case direct:
			sums[k] = sumFloatDirect(isa, w, nil, 0)
		default:
			sums[k] = sumFloatOn(isa, w, nil, 0)
		}
	}
}
