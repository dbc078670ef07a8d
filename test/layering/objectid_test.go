package layering

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aislehq/aisle/internal/repo"
)

// spelledAnywhere are the files that may spell "objectID" out: its one declaration
// (indexmapping.ObjectIDField), and a merchandising rule's own identifier, which is not a
// record's.
var spelledAnywhere = []string{"internal/indexmapping/mapping.go", "internal/merch/", "apiserver/rules.go"}

// TestObjectIDFieldIsSpelledOnce checks that the production code names a record's
// identifier through indexmapping.ObjectIDField: a json struct tag must be a literal, and
// a route's parameter is named by its route, so those two are not counted.
func TestObjectIDFieldIsSpelledOnce(t *testing.T) {
	root, err := repo.Root()
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"internal", "apiserver", "controllers"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			for _, p := range spelledAnywhere {
				if strings.HasPrefix(filepath.ToSlash(rel), p) {
					return nil
				}
			}
			for _, pos := range objectIDLiterals(t, path) {
				t.Errorf("%s:%d spells \"objectID\" out: use indexmapping.ObjectIDField", rel, pos)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// objectIDLiterals are the lines of path holding the string literal "objectID", out of
// struct tags and route parameters (c.Params("objectID")).
func objectIDLiterals(t *testing.T, path string) []int {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			// Its tag is a literal holding json:"objectID"; its type and names hold none.
			return false
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Params" {
				return false
			}
		case *ast.BasicLit:
			if s, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING && s == "objectID" {
				lines = append(lines, fset.Position(n.Pos()).Line)
			}
		}
		return true
	})
	return lines
}
