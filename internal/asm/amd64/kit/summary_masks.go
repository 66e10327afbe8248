package kit

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Helpers for kernels whose bitmap is byte-aligned: the Go wrapper has
// already folded the elements before the first byte boundary, so element
// 8*i+b of the kernel's input is bit b of byte i and every block of
// vectors starts on a byte. Vectors then take their bits with plain loads
// of exactly the bytes that cover them, with no shifts and no reads past
// the block.

// KLoadAligned loads the validity bits of one AVX-512 vector of lanes
// elements (8, 16, 32 or 64) from the lanes/8 bytes at m into a new
// opmask register: lane l follows bit l.
func KLoadAligned(m Mem, lanes int) reg.OpmaskVirtual {
	k := K()
	switch lanes {
	case 8:
		KMOVB(m, k)
	case 16:
		KMOVW(m, k)
	case 32:
		KMOVD(m, k)
	case 64:
		KMOVQ(m, k)
	default:
		panic(fmt.Sprintf("kit: no opmask load for %d lanes", lanes))
	}
	return k
}

// PopcountBytes adds the number of set bits in the nbytes bytes at m to
// cnt, reading exactly those bytes (8-, 4-, 2- and 1-byte loads).
func PopcountBytes(m Mem, nbytes int, cnt reg.GPVirtual) {
	off := 0
	for ; nbytes-off >= 8; off += 8 {
		t := GP64()
		POPCNTQ(m.Offset(off), t)
		ADDQ(t, cnt)
	}
	if nbytes-off >= 4 {
		t := GP32()
		POPCNTL(m.Offset(off), t)
		ADDQ(t.As64(), cnt)
		off += 4
	}
	if nbytes-off >= 2 {
		t := GP32()
		MOVWLZX(m.Offset(off), t)
		POPCNTL(t, t)
		ADDQ(t.As64(), cnt)
		off += 2
	}
	if nbytes-off >= 1 {
		t := GP32()
		MOVBLZX(m.Offset(off), t)
		POPCNTL(t, t)
		ADDQ(t.As64(), cnt)
	}
}

var tables = map[string]Mem{}

// Table emits (once per generated file, under name) a read-only table of
// vals, each of size bytes (1, 2, 4 or 8), and returns its address; a
// later call with the same name returns the first table.
func Table(name string, size int, vals []uint64) Mem {
	if m, ok := tables[name]; ok {
		return m
	}
	m := GLOBL(name, RODATA|NOPTR)
	for i, v := range vals {
		switch size {
		case 1:
			DATA(i, U8(uint8(v)))
		case 2:
			DATA(2*i, U16(uint16(v)))
		case 4:
			DATA(4*i, U32(uint32(v)))
		default:
			DATA(8*i, U64(v))
		}
	}
	tables[name] = m
	return m
}

// InvalidLanesAligned expands the validity bits of AVX2 vector j of a
// block (vectors of 32/laneBytes lanes whose bits start at the byte-aligned
// address bits) into a lane mask that is all ones where the element is NOT
// valid and all zeros where it is, usable by every blend (VPBLENDVB
// included) whatever the lane width. zero must hold all zero bits.
//
// The bits are broadcast from memory into every lane, each lane keeps its
// own bit (AND with a one-bit selector) and compares equal to zero. Only
// the bytes that cover vector j are read.
func InvalidLanesAligned(bits Mem, laneBytes, j int, zero reg.VecVirtual) reg.VecVirtual {
	lanes := 32 / laneBytes
	b, inv := YMM(), YMM()
	sel := make([]uint64, lanes)
	switch laneBytes {
	case 8:
		// Four lanes are half a byte: vector j uses byte j/2, bits 4*(j%2)...
		VPBROADCASTB(bits.Offset(j/2), b)
		for l := range sel {
			sel[l] = 1 << (4*(j%2) + l)
		}
		VPAND(Table(fmt.Sprintf("alignedsel64_%d", j%2), 8, sel), b, b)
		VPCMPEQQ(zero, b, inv)
	case 4:
		VPBROADCASTB(bits.Offset(j), b)
		for l := range sel {
			sel[l] = 1 << l
		}
		VPAND(Table("alignedsel32", 4, sel), b, b)
		VPCMPEQD(zero, b, inv)
	case 2:
		VPBROADCASTW(bits.Offset(2*j), b)
		for l := range sel {
			sel[l] = 1 << l
		}
		VPAND(Table("alignedsel16", 2, sel), b, b)
		VPCMPEQW(zero, b, inv)
	case 1:
		// 32 lanes: the 4 bytes at 4*j, byte l/8 of them to lane l.
		// VPSHUFB indexes within each 128-bit half, and the broadcast put
		// all four bytes into both halves.
		VPBROADCASTD(bits.Offset(4*j), b)
		shuf := make([]uint64, 32)
		for l := range sel {
			sel[l] = 1 << (l % 8)
			shuf[l] = uint64(l / 8)
		}
		VPSHUFB(Table("alignedshuf8", 1, shuf), b, b)
		VPAND(Table("alignedsel8", 1, sel), b, b)
		VPCMPEQB(zero, b, inv)
	default:
		panic(fmt.Sprintf("kit: no lane masks for %d-byte lanes", laneBytes))
	}
	return inv
}

// BroadcastBitsAligned loads the nbits (8, 16 or 32) bitmap bits at the
// byte-aligned address m into every lane of a new YMM register, ready for
// MSBLanes. It reads exactly nbits/8 bytes.
func BroadcastBitsAligned(m Mem, nbits int) reg.VecVirtual {
	b := YMM()
	switch nbits {
	case 8:
		VPBROADCASTB(m, b)
	case 16:
		VPBROADCASTW(m, b)
	case 32:
		VPBROADCASTD(m, b)
	default:
		panic(fmt.Sprintf("kit: cannot broadcast %d bits", nbits))
	}
	return b
}

// MSBCountsAligned is the read-only vector of shift counts that
// MSBLanes shifts the lanes of AVX2 vector j (of 32/laneBytes lanes of
// laneBytes = 4 or 8 bytes) by: a memory operand for each shift, or the
// source of a register that a kernel with one to spare loads once.
func MSBCountsAligned(laneBytes, j int) Mem {
	lanes := 32 / laneBytes
	bits := 8 * laneBytes
	counts := make([]uint64, lanes)
	for l := range counts {
		counts[l] = uint64(bits - 1 - (j*lanes + l))
	}
	return Table(fmt.Sprintf("alignedmsb%d_%d", bits, j), laneBytes, counts)
}

// MSBLanes returns the blend mask of AVX2 vector j from bits broadcast by
// BroadcastBitsAligned, given counts, MSBCountsAligned(laneBytes, j) or a
// register loaded from it: the most significant bit of lane l is validity
// bit j*lanes+l, the other bits are unspecified, which is all VBLENDVPS
// and VBLENDVPD read. One variable shift per vector.
//
// The broadcast repeats the 8, 16 or 32 bits through each lane, so bit i
// of them sits at bit i of the lane and a left shift by lanebits-1-i puts
// it on top, pushing the repetitions out.
func MSBLanes(bcast reg.VecVirtual, counts Op, laneBytes int) reg.VecVirtual {
	x := YMM()
	if laneBytes == 8 {
		VPSLLVQ(counts, bcast, x)
	} else {
		VPSLLVD(counts, bcast, x)
	}
	return x
}
