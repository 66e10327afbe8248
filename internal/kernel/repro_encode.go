package kernel

// The canonical form of a ReproAcc, for the binary encoding of the
// reproducible states (ADR-107): the flags and the exact sum as a sign and
// a magnitude in base-2^40 digits, trimmed of zero digits at both ends.
// Two accumulators that hold the same value and flags have the same
// canonical form, whatever their digits between normalisations, so the
// encoding is a function of the multiset of values fed.

const (
	// ReproDigitBits is the width of one digit of the canonical form.
	ReproDigitBits = reproDigitBits
	// ReproDigitCount is the number of digits of an accumulator.
	ReproDigitCount = reproDigits
	// ReproDigitLimit bounds the digits a canonical form may use: an exact
	// sum of fewer than 2^63 finite float64 values is below 2^1087, whose
	// digit index is 54, so digits Bot..Bot+N-1 lie below index 55. The
	// bound keeps every digit of a decoded accumulator, and of any merge
	// of 2^20 of them, far from int64's range.
	ReproDigitLimit = reproDigits - 1
)

// ReproCanon is the canonical form of a ReproAcc.
type ReproCanon struct {
	NaN, PosInf, NegInf, NonNegZero, Any bool
	Neg                                  bool // the exact sum is negative
	Bot                                  int  // index of the lowest digit of Mag
	N                                    int  // digits in use: Mag[:N], worth Mag[i]·2^(40(Bot+i)-1074)
	Mag                                  [reproDigits]uint64
}

// Canon returns a's canonical form. It does not change a or allocate.
func (a *ReproAcc) Canon() (c ReproCanon) {
	c.NaN, c.PosInf, c.NegInf, c.NonNegZero, c.Any = a.nan, a.posInf, a.negInf, a.nonNegZero, a.any
	if a.low == 0 {
		return c
	}
	var d [reproDigits]int64
	bot, w := int(a.low-1), reproWindow(a.top)
	copy(d[bot:w], a.digits[bot:w])
	if normalizeDigits(d[bot:w]) < 0 {
		c.Neg = true
		for i := bot; i < w; i++ {
			d[i] = -d[i]
		}
		normalizeDigits(d[bot:w])
	}
	lo, hi := bot, w-1
	for lo <= hi && d[lo] == 0 {
		lo++
	}
	for hi >= lo && d[hi] == 0 {
		hi--
	}
	if lo > hi {
		c.Neg = false
		return c
	}
	c.Bot, c.N = lo, hi-lo+1
	for i := range c.N {
		c.Mag[i] = uint64(d[lo+i])
	}
	return c
}

// Check returns "" if c is a canonical form that Canon can return, and
// otherwise what is wrong with it.
func (c *ReproCanon) Check() string {
	switch {
	case c.N < 0 || c.Bot < 0 || c.N > ReproDigitLimit || c.Bot > ReproDigitLimit-c.N:
		return "digits beyond the range of an exact sum"
	case c.N == 0 && c.Neg:
		return "a negative zero magnitude"
	case c.N > 0 && (c.Mag[0] == 0 || c.Mag[c.N-1] == 0):
		return "a zero digit at an end of the magnitude"
	case c.N > 0 && !c.NonNegZero:
		return "a non-zero sum without a non-zero value"
	case (c.NaN || c.PosInf || c.NegInf || c.NonNegZero) && !c.Any:
		return "flags of values without the flag that values took part"
	}
	for _, m := range c.Mag[:c.N] {
		if m>>reproDigitBits != 0 {
			return "a digit of 40 bits or more"
		}
	}
	return ""
}

// Acc returns the accumulator of the checked canonical form c: the same
// value and flags, so the same sum, merges and further additions.
func (c *ReproCanon) Acc() (a ReproAcc) {
	a.nan, a.posInf, a.negInf, a.nonNegZero, a.any = c.NaN, c.PosInf, c.NegInf, c.NonNegZero, c.Any
	if c.N == 0 {
		return a
	}
	for i, m := range c.Mag[:c.N] {
		if c.Neg {
			a.digits[c.Bot+i] = -int64(m)
		} else {
			a.digits[c.Bot+i] = int64(m)
		}
	}
	a.low, a.top = int32(c.Bot+1), int32(c.Bot+c.N)
	return a
}
