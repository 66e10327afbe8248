package kernel

// sumWindows is SumFloatWindows for one machine type: each window's sum is
// the one the API's dense Sum computes on isa, the strict fold below cut
// elements and sumFloatOn from there, so a window's bits do not depend on
// being summed with others.
func sumWindows[T float32 | float64](isa ISA, sums, x []T, bounds []int, cut int) {
	sums = sums[:len(bounds)-1]
	for k := range sums {
		w := x[bounds[k]:bounds[k+1]]
		if len(w) < cut {
			sums[k] = StrictSum(w)
		} else {
			sums[k] = sumFloatOn(isa, w, nil, 0)
		}
	}
}
