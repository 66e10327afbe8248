// Package elem describes the element types the kernels and their Go
// declarations are generated for. It imports nothing of avo, so that
// generators of plain Go (typed, amd64/calls) share it with the avo ones
// without taking on avo's command-line flags.
package elem

import "strings"

// Elem describes one element type that the kernels are generated for.
type Elem struct {
	Name   string // suffix in kernel names: F64, I8, ...
	GoType string // the Go type in kernel signatures
	Size   int    // bytes
	Signed bool   // signed integer or float
	Float  bool
}

// SumType is the Go type of the element's sum: the element type for
// floats, int64 for signed integers, uint64 for unsigned ones.
func (e Elem) SumType() string {
	switch {
	case e.Float:
		return e.GoType
	case e.Signed:
		return "int64"
	}
	return "uint64"
}

// Elems lists every element type, in the order the kernels are emitted.
var Elems = []Elem{
	{"F32", "float32", 4, true, true},
	{"F64", "float64", 8, true, true},
	{"I8", "int8", 1, true, false},
	{"I16", "int16", 2, true, false},
	{"I32", "int32", 4, true, false},
	{"I64", "int64", 8, true, false},
	{"U8", "uint8", 1, false, false},
	{"U16", "uint16", 2, false, false},
	{"U32", "uint32", 4, false, false},
	{"U64", "uint64", 8, false, false},
}

// Named returns the element type whose Name is name; it panics for any
// other name, a mistake in a generator's tables.
func Named(name string) Elem {
	for _, e := range Elems {
		if e.Name == name {
			return e
		}
	}
	panic("elem: no element type " + name)
}

// Kind is the name of the element type's num.Kind constant: Float64,
// Int8, Uint32, ...
func (e Elem) Kind() string {
	return strings.ToUpper(e.GoType[:1]) + e.GoType[1:]
}
