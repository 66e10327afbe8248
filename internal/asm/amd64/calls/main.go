// Command calls writes internal/kernel/asmcall_amd64.go: the switches
// that call the amd64 assembly kernels. It reads the Go declarations the
// family generators wrote (the kernel package's *_stubs_amd64.go files),
// so a kernel added to a family's generator reaches its switch with the
// next go generate, and a switch never names a stub that does not exist.
//
// Each switch (a shape below) serves one signature for every instruction
// set and element type that has a stub of that shape: it maps T to its
// machine type (num.KindOf, a constant per instantiation), converts the
// slices of T with num.Cast, and calls the stub directly, so the compiler
// sees every callee and its //go:noescape and nothing the caller passes
// moves to the heap.
//
// A stub's name says what it is: the shape's prefix, the extreme it
// computes (Min, Max, MinMax; none for a kernel that computes both),
// the machine type (I8 ... U64, F32, F64), a variant (Dense, Masked,
// Valid), the instruction set (AVX2, AVX512) and, for a kernel that needs
// more than its instruction set, the feature (FMA: called instead of the
// kernel without it when the CPU has FMA3); each shape names its stubs
// with a pattern of those parts.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"github.com/quiverlabs/quiver/internal/asm/elem"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// A shape is one generated switch.
type shape struct {
	name    string   // the switch function
	doc     string   // its comment, without the name
	tparams string   // its type parameters, "" for none
	params  []param  // after "isa ISA" (and "want Extremes" if want)
	results []string // "type" or "name type"; a type parameter's result is converted
	want    bool     // the switch takes want and chooses among extremes
	pattern string   // the stub names: (?P<want>), (?P<type>), (?P<isa>)
	missing string   // the panic when no stub fits
	// featArg, if set, names a bool parameter (after want) that chooses
	// the stubs with a feature suffix in place of the CPU's feature
	// variable, so that a caller can also run the stub without it.
	featArg string
}

type param struct{ name, typ string }

var shapes = []shape{
	{
		name:    "sumAsm",
		doc:     "is the wrapping integer sum kernel of isa for T on x, whose\nlength is a multiple of the kernel's step on AVX2; on AVX-512 the\nlast len(x) mod step elements take their validity from tail.",
		tparams: "[T num.Number, S int64 | uint64]",
		params:  []param{{"x", "[]T"}, {"bits", "[]byte"}, {"off", "int"}, {"tail", "uint64"}},
		results: []string{"S"},
		pattern: `^sum(?P<type>[IU]\d+)(?P<isa>AVX2|AVX512)$`,
		missing: "no sum kernel",
	},
	{
		name:    "countValidAsm",
		doc:     "counts the set bits of b, whole 8-byte words, on isa.",
		params:  []param{{"b", "[]byte"}},
		results: []string{"int"},
		pattern: `^countValid(?P<isa>AVX2|AVX512)$`,
		missing: "no count kernel",
	},
	{
		name:    "summaryDenseAsm",
		doc:     "is the dense summary kernel of isa for T computing want\n(min-only and max-only kernels exist for floats, and for every\ninteger type on AVX2; the fused kernel serves any want); fma\nchooses the AVX2 float kernels whose NaN sentinel is an FMA (the\ncaller passes hasFMA, or false for the additions' kernel).",
		tparams: "[T num.Number]",
		params:  []param{{"x", "[]T"}},
		results: []string{"lo T", "hi T", "nan bool"},
		want:    true,
		featArg: "fma",
		pattern: `^summary(?P<want>Min|Max)?Dense(?P<type>[IUF]\d+)(?P<isa>AVX2|AVX512)(?P<feat>FMA)?$`,
		missing: "no summary kernel",
	},
	{
		name:    "summaryMaskedAsm",
		doc:     "is summaryDenseAsm over the valid elements of x. bits is\nbyte-aligned with x[h:], after the h < 8 elements that head names\n(their validity in bits 0-7, h in bits 8-15; 0 for none), which the\nkernel takes as a step of their own (on AVX2 x holds a whole step\nafter them). tail holds the validity of the elements past the last\nwhole vector on AVX-512, and on AVX2 those of the last len mod step\nelements at the top of one step's bits (summaryAsm.maskedTail).",
		tparams: "[T num.Number]",
		params:  []param{{"x", "[]T"}, {"bits", "[]byte"}, {"head", "uint64"}, {"tail", "uint64"}},
		results: []string{"lo T", "hi T", "valid int", "nan bool"},
		want:    true,
		pattern: `^summary(?P<want>Min|Max)?Masked(?P<type>[IUF]\d+)(?P<isa>AVX2|AVX512)$`,
		missing: "no masked summary kernel",
	},
	{
		name:    "summarySeededAsm",
		doc:     "is the masked summary kernel of isa for T computing want that\nstarts from seed, a valid element of x, and blends it into the\ninvalid lanes (the AVX2 kernels of both extremes, and of one for\nfloats); bits, head and tail are summaryMaskedAsm's on AVX2. fma\nchooses the float kernels whose NaN check is an FMA sentinel, which\ncan alarm without a NaN (the caller passes hasFMA, or false for the\nkernel whose compares are exact).",
		tparams: "[T num.Number]",
		params:  []param{{"x", "[]T"}, {"bits", "[]byte"}, {"head", "uint64"}, {"tail", "uint64"}, {"seed", "T"}},
		results: []string{"lo T", "hi T", "valid int", "nan bool"},
		want:    true,
		featArg: "fma",
		pattern: `^summary(?P<want>Min|Max)?Seeded(?P<type>[IUF]\d+)(?P<isa>AVX2)(?P<feat>FMA)?$`,
		missing: "no seeded summary kernel",
	},
	{
		name:    "selMaxAsm",
		doc:     "is the largest index of sel (a whole number of steps) on isa.",
		params:  []param{{"sel", "[]uint32"}},
		results: []string{"uint32"},
		pattern: `^selMax(?P<isa>AVX2|AVX512)$`,
		missing: "no selection check kernel",
	},
	{
		name:    "selDenseAsm",
		doc:     "is the gathered min/max kernel of isa for T computing want\nover sel (a whole number of steps); see hasSelMinMax.",
		tparams: "[T num.Number]",
		params:  []param{{"x", "[]T"}, {"sel", "[]uint32"}},
		results: []string{"lo T", "hi T", "nan bool"},
		want:    true,
		pattern: `^sel(?P<want>Min|Max|MinMax)(?P<type>[IUF]\d+)(?P<isa>AVX2|AVX512)$`,
		missing: "no gathered min/max kernel",
	},
	{
		name:    "selValidAsm",
		doc:     "is selDenseAsm over the selected elements that bits (at\noff) marks valid, with their count.",
		tparams: "[T num.Number]",
		params:  []param{{"x", "[]T"}, {"sel", "[]uint32"}, {"bits", "[]byte"}, {"off", "int"}},
		results: []string{"lo T", "hi T", "nan bool", "valid int"},
		want:    true,
		pattern: `^sel(?P<want>Min|Max|MinMax)(?P<type>[IUF]\d+)Valid(?P<isa>AVX2|AVX512)$`,
		missing: "no gathered min/max kernel",
	},
}

// A direct function is a shape's switch written into a caller: the test
// of whether a kernel takes the input before it, and after it the test
// of the result and the way out of line where that fails. It is what an
// exported kernel entry calls (typed.go), and inlines into the API's
// call, so that a dense call crosses one Go frame between the API and
// the kernel (bench's H471-H477), where a switch of its own is one more.
type direct struct {
	name    string // the function
	doc     string // its comment, without the name
	tparams string
	params  string // its parameters
	results string // its results
	shape   string // the shape whose stubs it calls, with that shape's arguments
	pre     string // the statements before the switch on T
	// vars are the variables each call assigns, in the order of the
	// shape's results; a type parameter's is declared as the machine
	// type, and one that float or integer does not name is "_".
	vars []param
	// post is what follows the switch of a machine type's calls: float
	// for the floats, integer for the integers; {E} is the element's
	// name (F64) and {T} its Go type.
	float, integer string
}

var directs = []direct{
	{
		name: "denseSummaryDirect",
		doc: "is DenseSummary on amd64: the kernel that denseKernelISA picks,\n" +
			"called from here, and the test of its result; an input no kernel\n" +
			"takes goes to the typed entries, and a NaN alarm or a zero float\n" +
			"extreme to settleDenseF32 and settleDenseF64, out of line, so that\n" +
			"nothing they need is spilled around the kernel's call.",
		tparams: "[T num.Number]",
		params:  "isa ISA, x []T, want Extremes",
		results: "(lo T, hi T)",
		shape:   "summaryDenseAsm",
		pre: "k, ok := denseKernelISA[T](isa, len(x))\n" +
			"if !ok {\nreturn denseSummaryEntries(isa, x, want)\n}\n",
		vars:    []param{{"l", "T"}, {"h", "T"}, {"alarm", "bool"}},
		float:   "if !alarm && l != 0 && h != 0 {\nreturn T(l), T(h)\n}\nl, h = settleDense{E}(k, num.Cast[{T}](x), want, l, h, alarm)\nreturn T(l), T(h)\n",
		integer: "return T(l), T(h)\n",
	},
}

// feats maps a stub's feature suffix to the condition that the CPU has
// it: such a stub is called in place of the one without the suffix.
var feats = map[string]string{"FMA": "hasFMA"}

// wants maps a stub's extreme part to the Extremes it serves; "" and
// MinMax are the fused kernels, which serve any want.
var wants = map[string]string{"Min": "WantMin", "Max": "WantMax"}

type stub struct {
	name              string
	want, typ, isa    string
	feat              string // a feature the stub needs beyond isa, or ""
	nparams, nresults int
}

func main() {
	dir := flag.String("stubs", "", "the kernel package's directory, holding *_stubs_amd64.go")
	out := flag.String("out", "", "the file to write")
	flag.Parse()
	if *dir == "" || *out == "" {
		log.Fatal("calls: -stubs and -out are required")
	}
	stubs := readStubs(*dir)
	var b bytes.Buffer
	b.WriteString(header)
	for _, s := range shapes {
		writeShape(&b, s, stubs)
	}
	for _, d := range directs {
		writeDirect(&b, d, stubs)
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		log.Fatalf("calls: %v\n%s", err, b.Bytes())
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}

const header = `// Code generated by internal/asm/amd64/calls. DO NOT EDIT.

//go:build amd64 && !purego

package kernel

import "github.com/quiverlabs/quiver/internal/num"

// The calls into the amd64 assembly: one switch per kernel shape over the
// instruction set, T's machine type and, for the summary kernels, the
// extremes wanted; each case is a direct call of the generated stub, so
// that the compiler sees every callee (and its //go:noescape) and nothing
// the caller passes has to move to the heap. The dispatch
// (dispatch_amd64.go) and the wrappers of sum_amd64.go, summary_amd64.go
// and gather_amd64.go call these; the reproducible sum's are in
// repro_amd64.go. A combination without a
// kernel panics: the wrappers only ask for kernels that exist (see the
// has* functions).
//
// After the switches, the direct functions: a switch written into the
// function that an exported kernel entry calls (typed.go), between the
// test of whether a kernel takes the input and the test of its result,
// so that the API's dense call reaches its kernel through one Go frame.
`

// readStubs returns the functions declared without a body in the
// directory's *_stubs_amd64.go files.
func readStubs(dir string) []stub {
	files, err := filepath.Glob(filepath.Join(dir, "*_stubs_amd64.go"))
	if err != nil || len(files) == 0 {
		log.Fatalf("calls: no stubs in %s", dir)
	}
	sort.Strings(files)
	var stubs []stub
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			log.Fatal(err)
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body != nil {
				continue
			}
			stubs = append(stubs, stub{
				name:     fd.Name.Name,
				nparams:  fd.Type.Params.NumFields(),
				nresults: fd.Type.Results.NumFields(),
			})
		}
	}
	return stubs
}

// match returns the stubs of shape s, with their parts.
func match(s shape, stubs []stub) []stub {
	re := regexp.MustCompile(s.pattern)
	var m []stub
	for _, st := range stubs {
		sub := re.FindStringSubmatch(st.name)
		if sub == nil {
			continue
		}
		for i, g := range re.SubexpNames() {
			switch g {
			case "want":
				st.want = sub[i]
			case "type":
				st.typ = sub[i]
			case "isa":
				st.isa = sub[i]
			case "feat":
				st.feat = sub[i]
			}
		}
		if st.want == "MinMax" {
			st.want = ""
		}
		if st.nparams != len(s.params) || st.nresults != len(s.results) {
			log.Fatalf("calls: %s has %d parameters and %d results, shape %s %d and %d",
				st.name, st.nparams, st.nresults, s.name, len(s.params), len(s.results))
		}
		m = append(m, st)
	}
	if len(m) == 0 {
		log.Fatalf("calls: no stub matches %s (%s)", s.name, s.pattern)
	}
	return m
}

func writeShape(b *bytes.Buffer, s shape, stubs []stub) {
	m := match(s, stubs)
	var sig []string
	sig = append(sig, "isa ISA")
	if s.want {
		sig = append(sig, "want Extremes")
	}
	if s.featArg != "" {
		sig = append(sig, s.featArg+" bool")
	}
	for _, p := range s.params {
		sig = append(sig, p.name+" "+p.typ)
	}
	res := strings.Join(s.results, ", ")
	if len(s.results) > 1 {
		res = "(" + res + ")"
	}
	fmt.Fprintf(b, "\n// %s %s\nfunc %s%s(%s) %s {\n", s.name, strings.ReplaceAll(s.doc, "\n", "\n// "), s.name, s.tparams, strings.Join(sig, ", "), res)
	typed := m[0].typ != ""
	if typed {
		b.WriteString("switch num.KindOf[T]() {\n")
		for _, e := range elem.Elems {
			t := e.Name
			var of []stub
			for _, st := range m {
				if st.typ == t {
					of = append(of, st)
				}
			}
			if len(of) == 0 {
				continue
			}
			fmt.Fprintf(b, "case num.%s:\n", elem.Named(t).Kind())
			writeCases(b, s, of)
		}
		b.WriteString("}\n")
	} else {
		writeCases(b, s, m)
	}
	fmt.Fprintf(b, "panic(%q)\n}\n", "quiver: internal error: "+s.missing)
}

// writeCases writes the calls of one machine type's stubs: those for one
// extreme first, then the fused ones, which serve any want.
func writeCases(b *bytes.Buffer, s shape, of []stub) {
	sortStubs(of)
	b.WriteString("switch {\n")
	for _, st := range of {
		fmt.Fprintf(b, "case %s:\n", condition(s, st, "isa", false))
		writeCall(b, s, st)
	}
	b.WriteString("}\n")
}

// sortStubs orders one machine type's stubs as their switch tries them:
// those for one extreme first, then the fused ones, which serve any
// want; a stub needing a feature before the one without it.
func sortStubs(of []stub) {
	sort.SliceStable(of, func(i, j int) bool {
		if (of[i].want == "") != (of[j].want == "") {
			return of[i].want != ""
		}
		if of[i].want != of[j].want {
			return of[i].want < of[j].want
		}
		if of[i].isa != of[j].isa {
			return of[i].isa < of[j].isa
		}
		return of[i].feat > of[j].feat // a stub needing a feature before its fallback
	})
}

// condition is the case that calls stub st of shape s on the
// instruction set named isa; cpu says to test a feature on the CPU's
// variable (feats) even where the shape takes it as an argument.
func condition(s shape, st stub, isa string, cpu bool) string {
	cond := isa + " == " + st.isa
	if st.want != "" {
		cond = "want == " + wants[st.want] + " && " + cond
	}
	switch {
	case st.feat != "" && s.featArg != "" && !cpu:
		cond += " && " + s.featArg
	case st.feat != "":
		cond += " && " + feats[st.feat]
	}
	return cond
}

// callOf is the call of stub st with shape s's parameters.
func callOf(s shape, st stub) string {
	var args []string
	for _, p := range s.params {
		switch p.typ {
		case "[]T":
			args = append(args, fmt.Sprintf("num.Cast[%s](%s)", elem.Named(st.typ).GoType, p.name))
		case "T":
			args = append(args, fmt.Sprintf("%s(%s)", elem.Named(st.typ).GoType, p.name))
		default:
			args = append(args, p.name)
		}
	}
	return st.name + "(" + strings.Join(args, ", ") + ")"
}

func writeCall(b *bytes.Buffer, s shape, st stub) {
	call := callOf(s, st)
	switch len(s.results) {
	case 0:
		fmt.Fprintf(b, "%s\nreturn\n", call)
		return
	case 1:
		fmt.Fprintf(b, "return %s\n", convert(typeOf(s.results[0]), call))
		return
	}
	var names, outs []string
	for i, r := range s.results {
		v := fmt.Sprintf("r%d", i)
		names = append(names, v)
		outs = append(outs, convert(typeOf(r), v))
	}
	fmt.Fprintf(b, "%s := %s\nreturn %s\n", strings.Join(names, ", "), call, strings.Join(outs, ", "))
}

// typeOf is the type of a result written "type" or "name type".
func typeOf(r string) string {
	f := strings.Fields(r)
	return f[len(f)-1]
}

// convert wraps v in a conversion to a result type that is a type
// parameter; the stubs return machine types.
func convert(typ, v string) string {
	if typ == "T" || typ == "S" {
		return typ + "(" + v + ")"
	}
	return v
}

// writeDirect writes direct function d: its prologue, then per machine
// type the declarations of d.vars, the calls of the stubs of d.shape (on
// instruction set k, the one the prologue picked) assigning them, and
// d.float or d.integer.
func writeDirect(b *bytes.Buffer, d direct, stubs []stub) {
	var s shape
	for _, sh := range shapes {
		if sh.name == d.shape {
			s = sh
		}
	}
	if s.name == "" || len(d.vars) != len(s.results) {
		log.Fatalf("calls: direct %s: no shape %s of %d results", d.name, d.shape, len(d.vars))
	}
	m := match(s, stubs)
	fmt.Fprintf(b, "\n// %s %s\nfunc %s%s(%s) %s {\n%s", d.name, strings.ReplaceAll(d.doc, "\n", "\n// "), d.name, d.tparams, d.params, d.results, d.pre)
	b.WriteString("switch num.KindOf[T]() {\n")
	for _, e := range elem.Elems {
		var of []stub
		for _, st := range m {
			if st.typ == e.Name {
				of = append(of, st)
			}
		}
		if len(of) == 0 {
			continue
		}
		gt := elem.Named(e.Name).GoType
		fmt.Fprintf(b, "case num.%s:\n", elem.Named(e.Name).Kind())
		post := d.integer
		if strings.HasPrefix(e.Name, "F") {
			post = d.float
		}
		var assign []string
		for _, v := range d.vars {
			if !regexp.MustCompile(`\b` + v.name + `\b`).MatchString(post) {
				assign = append(assign, "_") // a result this type does not use
				continue
			}
			typ := v.typ
			if typ == "T" {
				typ = gt
			}
			fmt.Fprintf(b, "var %s %s\n", v.name, typ)
			assign = append(assign, v.name)
		}
		sortStubs(of)
		b.WriteString("switch {\n")
		for _, st := range of {
			fmt.Fprintf(b, "case %s:\n%s = %s\n", condition(s, st, "k", true), strings.Join(assign, ", "), callOf(s, st))
		}
		fmt.Fprintf(b, "default:\npanic(%q)\n}\n", "quiver: internal error: "+s.missing)
		b.WriteString(strings.NewReplacer("{E}", e.Name, "{T}", gt).Replace(post))
	}
	fmt.Fprintf(b, "}\npanic(%q)\n}\n", "quiver: internal error: "+s.missing)
}
