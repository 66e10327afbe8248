//go:build amd64 && !purego

package kernel

import (
	"encoding/binary"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestAMDFamily checks amdFamily against the kernel's own reading of
// CPUID in /proc/cpuinfo, where there is one: the vendor, and on an AMD
// CPU the family with its extended part (Zen 5 reports 15 + 11 = 26).
func TestAMDFamily(t *testing.T) {
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skip("no /proc/cpuinfo")
	}
	field := func(key string) string {
		for line := range strings.Lines(string(info)) {
			k, v, ok := strings.Cut(line, ":")
			if ok && strings.TrimSpace(k) == key {
				return strings.TrimSpace(v)
			}
		}
		return ""
	}
	_, b, c, d := cpuid(0, 0)
	var id [12]byte
	binary.LittleEndian.PutUint32(id[0:], b)
	binary.LittleEndian.PutUint32(id[4:], d)
	binary.LittleEndian.PutUint32(id[8:], c)
	vendor := string(id[:])
	if v := field("vendor_id"); v != vendor {
		// An emulator (qemu -cpu Haswell) answers CPUID for its own model.
		t.Skipf("CPUID says %q, /proc/cpuinfo %q: an emulated CPU", vendor, v)
	}
	want := 0
	if vendor == "AuthenticAMD" {
		if want, err = strconv.Atoi(field("cpu family")); err != nil {
			t.Fatalf("cpu family: %v", err)
		}
	}
	if got := amdFamily(); got != want {
		t.Errorf("amdFamily() = %d on %s, /proc/cpuinfo says %d", got, vendor, want)
	}
}

// TestFromDRAM checks the order-free kernels' size cut of the AVX-512
// backend: the AVX2 kernel from dramBytes of dense input where
// avx2FromDRAM holds, the AVX-512 one at every size where it does not.
func TestFromDRAM(t *testing.T) {
	defer func(v bool) { avx2FromDRAM = v }(avx2FromDRAM)
	for _, cut := range []bool{true, false} {
		avx2FromDRAM = cut
		for _, c := range []struct {
			n8, n1 int // elements of float64 and of uint8
			want   bool
		}{
			{dramBytes/8 - 1, dramBytes - 1, false},
			{dramBytes / 8, dramBytes, cut},
			{1 << 40, 1 << 43, cut},
		} {
			if got := fromDRAM[float64](c.n8); got != c.want {
				t.Errorf("avx2FromDRAM=%v: fromDRAM[float64](%d) = %v, want %v", cut, c.n8, got, c.want)
			}
			if got := fromDRAM[uint8](c.n1); got != c.want {
				t.Errorf("avx2FromDRAM=%v: fromDRAM[uint8](%d) = %v, want %v", cut, c.n1, got, c.want)
			}
		}
	}
}
