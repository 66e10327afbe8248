package quiver

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzDecode feeds arbitrary bytes to the decoder of every state type
// (the second argument picks the type), seeded with valid encodings of
// each. Decoding must not panic; a failure must return a "quiver: "
// error and leave the receiver unchanged; a success must give a state
// that reports its results, encodes to the same bytes (a SumState of a
// layout this machine lacks is folded, so its bytes may change, but not
// its sum), and takes further Adds and Merges.
func FuzzDecode(f *testing.F) {
	for i, c := range encCases {
		for seed := range uint64(3) {
			b, err := encFed(c, seed, int(seed)+1, seed == 2).MarshalBinary()
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b, uint8(i))
		}
		b, _ := c.new().MarshalBinary()
		f.Add(b, uint8(i))
	}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		c := encCases[int(which)%len(encCases)]
		s := encFed(c, 11, 1, false)
		before := marshal(t, s)
		err := s.UnmarshalBinary(data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "quiver: decoding ") {
				t.Fatalf("%s: error %q does not start with \"quiver: decoding \"", c.name, err)
			}
			if !bytes.Equal(before, marshal(t, s)) {
				t.Fatalf("%s: a failed decode changed the state", c.name)
			}
			return
		}
		res := s.results()
		enc := marshal(t, s)
		if !strings.HasPrefix(c.name, "sum_") && !bytes.Equal(enc, data) {
			t.Fatalf("%s: decoded and encoded again:\n%x\nwant\n%x", c.name, enc, data)
		}
		r := c.new()
		if err := r.UnmarshalBinary(enc); err != nil || r.results() != res {
			t.Fatalf("%s: the re-encoding decodes to %v, %s, want %s", c.name, err, r.results(), res)
		}
		g := &encGen{s: 3}
		s.feed(g)
		s.merge(r)
		s.results()
	})
}
