// Command typed writes internal/kernel/typed.go: the kernel layer's
// exported entry points and, under each, one out-of-line entry per
// machine type.
//
// Each exported function is generic over the element type, named types
// included, and does no more than map T to its machine type (num.KindOf,
// a constant for each instantiation) and call that type's entry, which
// calls the family's dispatch (dispatch_<arch>.go). The entries have no
// type parameters and are kept out of line, so that every kernel under
// them is instantiated and optimised in the kernel package: a generic
// kernel body compiled in the package that instantiates an exported
// function (a user's) did not inline the kernel package's plain helpers,
// and the portable loops ran at a third to half of their speed (see
// docs/architecture.md). The entries are the same line for every type,
// hence generated from the table below.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"github.com/quiverlabs/quiver/internal/asm/elem"
	"go/format"
	"log"
	"os"
	"strings"
)

// A family is one exported entry point.
type family struct {
	name    string   // the exported function
	doc     string   // its comment, without the name
	tparams string   // its type parameters
	types   []string // the machine types it serves
	params  []string // "name type"; a type with T is the machine type's in the entries
	results []string // "type" or "name type": T is the machine type, S the 64-bit sum type
	entry   string   // the entries' name prefix
	call    string   // the entries' body: {T} is the machine type, {S} its sum type
	// direct, if set, is the function (with its type arguments) that
	// the exported one calls in its place: the architecture's short path
	// to the kernels (dispatch_<arch>.go, asmcall_amd64.go), which
	// inlines into the API's call. The switch on T to the entries is
	// then the unexported <name>Entries, for the direct function's
	// other inputs and for the architectures without a short path.
	direct string
}

var (
	floats   = []string{"F32", "F64"}
	integers = []string{"I8", "I16", "I32", "I64", "U8", "U16", "U32", "U64"}
	numbers  = append(append([]string{}, integers...), floats...)
)

var families = []family{
	{
		name:    "SumFloat",
		doc:     "is the float sum of the valid elements of x in isa's ADR-013\norder.",
		tparams: "[T constraints.Float]",
		types:   floats,
		params:  []string{"isa ISA", "x []T", "bits []byte", "off int"},
		results: []string{"T"},
		entry:   "entrySum",
		call:    "sumFloatOn(isa, x, bits, off)",
		direct:  "sumFloatDirect",
	},
	{
		name:    "SumFloatWindows",
		doc:     "writes to sums[k-1] the float sum of window k of x,\nx[bounds[k-1]:bounds[k]] (the bounds checked by the caller, len(sums)\n= len(bounds)-1), as the API's dense Sum computes it on isa: the strict\nfold below cut elements, SumFloat from there. One call for all windows\nsheds the layers a call of SumFloat per window goes through.",
		tparams: "[T constraints.Float]",
		types:   floats,
		params:  []string{"isa ISA", "sums []T", "x []T", "bounds []int", "cut int"},
		entry:   "entryWindows",
		call:    "sumWindows(isa, sums, x, bounds, cut)",
	},
	{
		name:    "SumInt",
		doc:     "is the wrapping sum of the valid elements of x, in S (the bits\nare the same in int64 and uint64).",
		tparams: "[T constraints.Integer, S int64 | uint64]",
		types:   integers,
		params:  []string{"isa ISA", "x []T", "bits []byte", "off int"},
		results: []string{"S"},
		entry:   "entrySum",
		call:    "sumIntOn[{T}, {S}](isa, x, bits, off)",
		direct:  "sumIntDirect[T, S]",
	},
	{
		name:    "Summary",
		doc:     "is the min and max of the valid elements under the rules of\nref.Summary (canonical NaN, first of equal values, identities when\nempty) and their count; with WantMin or WantMax only that extreme is\nmeaningful.",
		tparams: "[T num.Number]",
		types:   numbers,
		params:  []string{"isa ISA", "x []T", "bits []byte", "off int", "want Extremes"},
		results: []string{"lo T", "hi T", "valid int"},
		entry:   "entrySummary",
		call:    "summaryOn(isa, x, bits, off, want)",
		direct:  "summaryDirect",
	},
	{
		name:    "DenseSummary",
		doc:     "is the min and max of a non-empty dense x under the rules of\nSummary, by the shortest path: the API's dense Min, Max, MinMax and\nSummarize. With WantMin (WantMax) only that extreme is meaningful.",
		tparams: "[T num.Number]",
		types:   numbers,
		params:  []string{"isa ISA", "x []T", "want Extremes"},
		results: []string{"lo T", "hi T"},
		entry:   "entryDenseSummary",
		call:    "denseSummaryOn(isa, x, want)",
		direct:  "denseSummaryDirect",
	},
	{
		name:    "SelSumInt",
		doc:     "is the wrapping sum of the selected valid elements, in S, the\nsame Go loop on every ISA (gathers lost to it: bench/selgather_test.go).\nIt checks each index as it reads it.",
		tparams: "[T constraints.Integer, S int64 | uint64]",
		types:   integers,
		params:  []string{"isa ISA", "x []T", "bm []byte", "off int", "sel []uint32"},
		results: []string{"S"},
		entry:   "entrySelSum",
		call:    "selSumInt[{T}, {S}](x, bm, off, sel)",
	},
	{
		name:    "SelSumFloat",
		doc:     "is the strict left fold from +0.0 of the selected valid\nelements in selection order, the same on every ISA. It checks each\nindex as it reads it.",
		tparams: "[T constraints.Float]",
		types:   floats,
		params:  []string{"isa ISA", "x []T", "bm []byte", "off int", "sel []uint32"},
		results: []string{"T"},
		entry:   "entrySelSum",
		call:    "foldSelected(0, x, bm, off, sel)",
	},
	{
		name:    "FoldSelected",
		doc:     "adds the selected valid elements of x to s, in selection\norder: the strict left fold of a selected float sum, continued from s.\nIt checks each index as it reads it.",
		tparams: "[T constraints.Float]",
		types:   floats,
		params:  []string{"s T", "x []T", "bm []byte", "off int", "sel []uint32"},
		results: []string{"T"},
		entry:   "entryFoldSelected",
		call:    "foldSelected(s, x, bm, off, sel)",
	},
	{
		name:    "SelSummary",
		doc:     "is Summary over a selection, in selection order; it checks\nthe indices. valid is the participating count with WantBoth (with\nWantMin or WantMax it may be any positive number when something took\npart).",
		tparams: "[T num.Number]",
		types:   numbers,
		params:  []string{"isa ISA", "x []T", "bm []byte", "off int", "sel []uint32", "want Extremes"},
		results: []string{"lo T", "hi T", "valid int"},
		entry:   "entrySelSummary",
		call:    "selSummaryOn(isa, x, bm, off, sel, want)",
	},
	{
		name:    "SelExact",
		doc:     "is the exact sum of the selected valid elements; it checks\neach index as it reads it.",
		tparams: "[T constraints.Integer]",
		types:   integers,
		params:  []string{"x []T", "bm []byte", "off int", "sel []uint32"},
		results: []string{"num.Int128"},
		entry:   "entrySelExact",
		call:    "selExact(x, bm, off, sel)",
	},
	{
		name:    "SumLanes",
		doc:     "adds x, whose length is a positive multiple of isa's block for\nT, into the unfolded lane accumulators acc in the order of ADR-013\nstep 1 (see the API's SumState).",
		tparams: "[T constraints.Float]",
		types:   floats,
		params:  []string{"isa ISA", "acc []T", "x []T", "bits []byte", "off int"},
		entry:   "entrySumLanes",
		call:    "sumLanesOn(isa, acc, x, bits, off)",
		direct:  "sumLanesDirect",
	},
}

func main() {
	out := flag.String("out", "", "the file to write")
	flag.Parse()
	if *out == "" {
		log.Fatal("typed: -out is required")
	}
	var b bytes.Buffer
	b.WriteString(header)
	for _, f := range families {
		write(&b, f)
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		log.Fatalf("typed: %v\n%s", err, b.Bytes())
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}

const header = `// Code generated by internal/asm/typed. DO NOT EDIT.

package kernel

import (
	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
)

// The exported entry points of the kernel families. Each is generic over
// the element type, named types included, and does no more than map T to
// its machine type (num.KindOf, a constant for each instantiation) and
// call that type's entry below, which runs the family's ISA switch
// (dispatch_<arch>.go). The typed entries have no type parameters and are
// kept out of line, so that every kernel under them is instantiated and
// optimised in this package: a generic kernel body compiled in the
// package that instantiates an exported function (a user's) did not
// inline this package's small helpers, and the portable loops ran at half
// speed.
//
// The sums, the extremes and the lane sums of SumState are the
// exception: their exported entry is one call of the architecture's
// direct function (sumFloatDirect, sumIntDirect, summaryDirect,
// denseSummaryDirect, sumLanesDirect), which inlines into the API. On amd64
// that function tests whether a kernel takes the input, calls it, and
// tests the result, with nothing but assembly below it; everything else
// (the portable ISAs, the rescues, the loops) it leaves to the entries.
// Between the API and the kernel a dense Min crossed four Go frames,
// each of which cost about a nanosecond (bench's H471-H477).
`

func split(p string) (name, typ string) {
	f := strings.Fields(p)
	if len(f) == 1 {
		return "", f[0]
	}
	return f[0], f[1]
}

// subst writes the machine type of t for T (and its sum type for S) in a
// parameter or result type.
func subst(typ, t string) string {
	switch typ {
	case "T":
		return elem.Named(t).GoType
	case "S":
		return elem.Named(t).SumType()
	case "[]T":
		return "[]" + elem.Named(t).GoType
	}
	return typ
}

func resultList(rs []string, t string) string {
	if len(rs) == 0 {
		return ""
	}
	var out []string
	named := false
	for _, r := range rs {
		n, typ := split(r)
		if t != "" {
			typ = subst(typ, t)
		}
		if n != "" {
			named = true
			out = append(out, n+" "+typ)
		} else {
			out = append(out, typ)
		}
	}
	if len(out) == 1 && !named {
		return out[0]
	}
	return "(" + strings.Join(out, ", ") + ")"
}

func write(b *bytes.Buffer, f family) {
	fmt.Fprintf(b, "\n// %s %s\nfunc %s%s(%s) %s {\n", f.name, strings.ReplaceAll(f.doc, "\n", "\n// "),
		f.name, f.tparams, strings.Join(f.params, ", "), resultList(f.results, ""))
	if f.direct != "" {
		var names []string
		for _, p := range f.params {
			n, _ := split(p)
			names = append(names, n)
		}
		ret := "return "
		if len(f.results) == 0 {
			ret = ""
		}
		fmt.Fprintf(b, "%s%s(%s)\n}\n", ret, f.direct, strings.Join(names, ", "))
		entries := strings.ToLower(f.name[:1]) + f.name[1:] + "Entries"
		fmt.Fprintf(b, "\n// %s is %s through the typed entries below.\nfunc %s%s(%s) %s {\n",
			entries, f.name, entries, f.tparams, strings.Join(f.params, ", "), resultList(f.results, ""))
	}
	b.WriteString("switch num.KindOf[T]() {\n")
	for _, t := range f.types {
		mt := elem.Named(t).GoType
		var args []string
		for _, p := range f.params {
			n, typ := split(p)
			switch typ {
			case "[]T":
				args = append(args, fmt.Sprintf("num.Cast[%s](%s)", mt, n))
			case "T":
				args = append(args, fmt.Sprintf("%s(%s)", mt, n))
			default:
				args = append(args, n)
			}
		}
		call := fmt.Sprintf("%s%s(%s)", f.entry, t, strings.Join(args, ", "))
		fmt.Fprintf(b, "case num.%s:\n", elem.Named(t).Kind())
		switch len(f.results) {
		case 0:
			fmt.Fprintf(b, "%s\nreturn\n", call)
		case 1:
			fmt.Fprintf(b, "return %s\n", convert(f.results[0], call))
		default:
			var vs, outs []string
			for i, r := range f.results {
				v := fmt.Sprintf("r%d", i)
				vs = append(vs, v)
				outs = append(outs, convert(r, v))
			}
			fmt.Fprintf(b, "%s := %s\nreturn %s\n", strings.Join(vs, ", "), call, strings.Join(outs, ", "))
		}
	}
	b.WriteString("}\n")
	what := map[int]string{2: "a float", 8: "an integer", 10: "a number"}[len(f.types)]
	fmt.Fprintf(b, "panic(%q)\n}\n", "quiver: internal error: not "+what+" type")
	for _, t := range f.types {
		var ps []string
		for _, p := range f.params {
			n, typ := split(p)
			ps = append(ps, n+" "+subst(typ, t))
		}
		body := strings.NewReplacer("{T}", elem.Named(t).GoType, "{S}", elem.Named(t).SumType()).Replace(f.call)
		ret := "return "
		if len(f.results) == 0 {
			ret = ""
		}
		fmt.Fprintf(b, "\n//go:noinline\nfunc %s%s(%s) %s {\n%s%s\n}\n", f.entry, t, strings.Join(ps, ", "), resultList(f.results, t), ret, body)
	}
}

// convert wraps a value in a conversion to a result type that is a type
// parameter.
func convert(r, v string) string {
	_, typ := split(r)
	if typ == "T" || typ == "S" {
		return typ + "(" + v + ")"
	}
	return v
}
