//go:build arm64 && !purego

package kernel

import "golang.org/x/sys/cpu"

// testISAs are the ISAs of this build, with the CPU check of the API's
// backend_arm64.go.
func testISAs() []testISA {
	return []testISA{{NEON, cpu.ARM64.HasASIMD}, {Generic, true}, {Scalar, true}}
}
