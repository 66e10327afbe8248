package testkit

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Undemonstrated returns the exported package-level functions and types
// of the Go package in dir (its source files of every build) that no
// runnable example demonstrates, sorted. An example demonstrates a name N
// when it is ExampleN or ExampleN_suffix (a method of N, or a variant),
// and it is runnable when it has an Output comment, so that go test runs
// it and compares what it prints. Methods need no example of their own:
// their type's examples show them in use.
func Undemonstrated(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	names := map[string]bool{}
	var tests []*ast.File
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		if strings.HasSuffix(name, "_test.go") {
			tests = append(tests, f)
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					names[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if t, ok := s.(*ast.TypeSpec); ok && t.Name.IsExported() {
						names[t.Name.Name] = true
					}
				}
			}
		}
	}
	for _, ex := range doc.Examples(tests...) {
		if ex.Output == "" && !ex.EmptyOutput {
			continue // compiled, never run: it shows nothing checked
		}
		name, _, _ := strings.Cut(ex.Name, "_")
		delete(names, name)
	}
	return slices.Sorted(maps.Keys(names)), nil
}

// CheckExamples fails t for every name of the package in dir that
// [Undemonstrated] returns.
func CheckExamples(t testing.TB, dir string) {
	t.Helper()
	missing, err := Undemonstrated(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range missing {
		t.Errorf("%s has no runnable example (func Example%s with an Output comment)", name, name)
	}
}
