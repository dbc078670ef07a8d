package yamlrest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// File is one parsed YAML test file.
type File struct {
	// Name is "<folder>/<file>.yml", the key used by skip lists and reports.
	Name     string
	Folder   string
	Setup    *Section
	Teardown *Section
	Tests    []*Section
}

// Section is setup, teardown or one test: an ordered list of steps.
type Section struct {
	Name  string
	Steps []Step
}

// Step is one operator (do, match, set, skip, ...) with its argument.
type Step struct {
	Op   string
	Arg  any
	Line int
}

// String renders the step for failure messages: "line 12: match {...}".
func (s Step) String() string {
	return fmt.Sprintf("line %d: %s %s", s.Line, s.Op, toJSON(s.Arg))
}

// LoadDir parses every <folder>/*.yml under dir, sorted by name.
func LoadDir(dir string) ([]*File, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*", "*.yml"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no YAML tests under %s/*/*.yml", dir)
	}
	sort.Strings(paths)
	files := make([]*File, 0, len(paths))
	for _, p := range paths {
		f, err := LoadFile(p)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// LoadFile parses one test file; its name is taken from the last two path
// elements.
func LoadFile(path string) (*File, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	folder := filepath.Base(filepath.Dir(path))
	f, err := Parse(folder+"/"+filepath.Base(path), string(raw))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Parse parses the text of a test file: a stream of YAML documents, each a
// mapping from section name to a list of steps.
func Parse(name, text string) (*File, error) {
	f := &File{Name: name, Folder: strings.SplitN(name, "/", 2)[0]}
	dec := yaml.NewDecoder(strings.NewReader(text))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := f.addDocument(&doc); err != nil {
			return nil, err
		}
	}
	return f, nil
}

func (f *File) addDocument(doc *yaml.Node) error {
	if len(doc.Content) == 0 {
		return nil // an empty document, e.g. a trailing "---"
	}
	m := doc.Content[0]
	if m.Kind == yaml.ScalarNode && m.ShortTag() == "!!null" {
		return nil
	}
	if m.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: a document must map section names to steps", m.Line)
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		sec, err := parseSection(m.Content[i].Value, m.Content[i+1])
		if err != nil {
			return err
		}
		switch sec.Name {
		case "setup":
			f.Setup = sec
		case "teardown":
			f.Teardown = sec
		default:
			f.Tests = append(f.Tests, sec)
		}
	}
	return nil
}

func parseSection(name string, n *yaml.Node) (*Section, error) {
	sec := &Section{Name: name}
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return sec, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("line %d: section %q must be a list of steps", n.Line, name)
	}
	for _, s := range n.Content {
		if s.Kind != yaml.MappingNode || len(s.Content) != 2 {
			return nil, fmt.Errorf("line %d: a step must be a mapping with exactly one operator", s.Line)
		}
		arg, err := fromNode(s.Content[1])
		if err != nil {
			return nil, err
		}
		sec.Steps = append(sec.Steps, Step{Op: s.Content[0].Value, Arg: arg, Line: s.Line})
	}
	return sec, nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
