//go:build purego || !(amd64 || arm64)

package kernel

// testISAs are the ISAs of this build: portable Go only.
func testISAs() []testISA {
	if purego {
		return []testISA{{Scalar, true}}
	}
	return []testISA{{Generic, true}, {Scalar, true}}
}
