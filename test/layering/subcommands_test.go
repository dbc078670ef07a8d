package layering

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aislehq/aisle/internal/repo"
)

// productionCommands are the subcommands of cmd/aisle a cluster runs.
var productionCommands = []string{"apiserver", "operator"}

// TestProductionSubcommandsLinkNoEngine checks the whole import graph of the operator
// and apiserver subcommands. cmd/aisle is one package that also holds the engine and dev
// subcommands, so its files are told apart: each subcommand registers itself in an init
// function of its own file (commands["name"] = ...); the files of the production
// subcommands and those registering none (the shared ones) make the production graph.
func TestProductionSubcommandsLinkNoEngine(t *testing.T) {
	root, err := repo.Root()
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(root, "cmd", "aisle", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var imports, registered []string
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		cmds := registeredCommands(f)
		registered = append(registered, cmds...)
		if len(cmds) > 0 && !slices.ContainsFunc(cmds, func(c string) bool { return slices.Contains(productionCommands, c) }) {
			continue
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			imports = append(imports, p)
		}
	}
	for _, c := range productionCommands {
		if !slices.Contains(registered, c) {
			t.Fatalf("no file of cmd/aisle registers the %s subcommand (registered: %v)", c, registered)
		}
	}
	cmd := exec.Command("go", append([]string{"list", "-deps"}, imports...)...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/aislehq/aisle/apiserver") || !slices.Contains(deps, "github.com/aislehq/aisle/controllers") {
		t.Fatalf("the subcommands' graph holds neither the API server nor the operator: %d packages", len(deps))
	}
	for _, dep := range deps {
		if linksEngine(dep) {
			t.Errorf("the apiserver or operator subcommand depends on %s", dep)
		}
	}
}

// registeredCommands are the names a file registers: commands["name"] = ... .
func registeredCommands(f *ast.File) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for _, lhs := range as.Lhs {
			ix, ok := lhs.(*ast.IndexExpr)
			if !ok {
				continue
			}
			if id, ok := ix.X.(*ast.Ident); !ok || id.Name != "commands" {
				continue
			}
			if lit, ok := ix.Index.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				name, _ := strconv.Unquote(lit.Value)
				out = append(out, name)
			}
		}
		return true
	})
	return out
}
