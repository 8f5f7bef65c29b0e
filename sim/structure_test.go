package sim

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// The limits ARCHITECTURE.md sets on the code, over every Go file of the
// repository: tests, the browser app and the site included.
const (
	maxFileLines = 500
	maxFuncLines = 80
	// A composite literal longer than this is a data table (a catalog, a
	// test's cases): its lines do not count toward its function's length.
	tableLines = 10
	// maxTrainingFields bounds the structs of the training strategy, once
	// one struct of 33 fields.
	maxTrainingFields = 12
)

// TestStructureLimits holds the repository to the limits above.
func TestStructureLimits(t *testing.T) {
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "public", "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files++
		if n := fset.File(f.Pos()).LineCount(); n > maxFileLines {
			t.Errorf("%s: %d lines; at most %d (split it by concept)", path, n, maxFileLines)
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Body != nil {
				if n := funcLines(fset, fn); n > maxFuncLines {
					t.Errorf("%s: %s is %d lines outside data tables; at most %d", path, fn.Name.Name, n, maxFuncLines)
				}
			}
		}
		if filepath.ToSlash(filepath.Dir(path)) == "../sim/training" {
			checkFields(t, fset, path, f)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("walked %d Go files; the walk did not find the repository", files)
	}
}

// funcLines is fn's length in lines, less the lines of its data tables.
func funcLines(fset *token.FileSet, fn *ast.FuncDecl) int {
	line := func(p token.Pos) int { return fset.Position(p).Line }
	n := line(fn.End()) - line(fn.Pos()) + 1
	ast.Inspect(fn.Body, func(node ast.Node) bool {
		lit, ok := node.(*ast.CompositeLit)
		if !ok {
			return true
		}
		if span := line(lit.End()) - line(lit.Pos()) + 1; span > tableLines {
			n -= span
			return false // an outer table's lines are already taken off
		}
		return true
	})
	return n
}

// checkFields reports a struct of the training strategy with too many fields.
func checkFields(t *testing.T, fset *token.FileSet, path string, f *ast.File) {
	ast.Inspect(f, func(node ast.Node) bool {
		ts, ok := node.(*ast.TypeSpec)
		if !ok {
			return true
		}
		st, ok := ts.Type.(*ast.StructType)
		if !ok {
			return true
		}
		n := 0
		for _, fl := range st.Fields.List {
			n += max(1, len(fl.Names))
		}
		if n > maxTrainingFields {
			t.Errorf("%s: struct %s has %d fields; at most %d", path, ts.Name.Name, n, maxTrainingFields)
		}
		return true
	})
}
