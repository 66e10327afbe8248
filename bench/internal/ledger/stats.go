package ledger

import (
	"math"
	"slices"
)

// Median returns the median of xs: the middle value of an odd count, the
// mean of the two middle values of an even count, NaN for no values. The
// median rather than the mean, because on a shared machine the noise is
// one-sided (a neighbour only ever makes a run slower) and a few slow
// passes must not move the figure.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// Spread is the relative width of xs around its median, (max-min)/median:
// 0 for identical samples. It tells a reader which medians to trust less.
func Spread(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return (slices.Max(xs) - slices.Min(xs)) / Median(xs)
}

// Speedup is how many times faster a run taking t is than one taking base:
// base/t, so 2 means twice as fast and 0.5 half as fast. Either time
// missing or not positive gives NaN.
func Speedup(base, t float64) float64 {
	if !(base > 0) || !(t > 0) {
		return math.NaN()
	}
	return base / t
}

// Geomean is the geometric mean of the finite positive values of xs, the
// only mean under which a 2x win and a 2x loss cancel; it also returns how
// many values it used. With none it returns NaN and 0.
func Geomean(xs []float64) (float64, int) {
	sum, n := 0.0, 0
	for _, x := range xs {
		if x > 0 && !math.IsInf(x, 0) {
			sum += math.Log(x)
			n++
		}
	}
	if n == 0 {
		return math.NaN(), 0
	}
	return math.Exp(sum / float64(n)), n
}
