// Package judged reads the judged relevance sets of ../shared/relevance (real catalogs
// with relevance judgments made by people) at run time and scores ranked lists against
// them. The data is never copied into the project: Dir finds it beside the repository.
package judged

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/aislehq/aisle/internal/repo"
)

// Field is a searchable field of a set with the weight both systems give it: Aisle's
// searchableFields weight and multi_match's boost.
type Field struct {
	Path   string
	Weight int32
}

// Set is one judged catalog.
type Set struct {
	Name string
	// Fields are searched, heaviest first.
	Fields []Field
	// Products are the records, each with its objectID.
	Products []map[string]any
	// Queries are the judged queries in the order of the judgments file.
	Queries []string
	// Gains are each query's judged records and their gain.
	Gains map[string]map[string]float64
	// Vectors and QueryVectors are the set's sentence vectors, when it has them.
	Vectors, QueryVectors map[string][]float32
}

// Dir is the judged data's folder: AISLE_RELEVANCE_DIR, or ../shared/relevance beside
// the repository.
func Dir() (string, error) {
	if d := os.Getenv("AISLE_RELEVANCE_DIR"); d != "" {
		return d, nil
	}
	root, err := repo.Root()
	if err != nil {
		return "", err
	}
	d := filepath.Join(filepath.Dir(root), "shared", "relevance")
	if _, err := os.Stat(d); err != nil {
		return "", fmt.Errorf("judged data: %w", err)
	}
	return d, nil
}

// The fields are the ones each set's README lists, with the weights a shop would give
// them: the product's name first, then who makes it, then its longer texts.
var (
	icecatFields = []Field{{"title", 4}, {"name", 3}, {"supplier", 2}, {"description", 1}}
	esciFields   = []Field{{"title", 4}, {"brand", 3}, {"color", 2}, {"bullets", 1}, {"description", 1}}
)

// Icecat reads the Icecat electronics set: gains 2^rating - 1.
func Icecat(dir string) (*Set, error) {
	s := &Set{Name: "icecat", Fields: icecatFields}
	if err := s.readProducts(filepath.Join(dir, "icecat-products.jsonl.gz")); err != nil {
		return nil, err
	}
	return s, s.readJudgments(filepath.Join(dir, "icecat-judgments-dev.csv"), ',', func(r string) (float64, error) {
		n, err := strconv.Atoi(r)
		return float64(int(1)<<n - 1), err
	})
}

// ESCI reads the Amazon ESCI set: Exact 1, Substitute 0.1, Complement 0.01, Irrelevant 0
// (the file's ratings 100, 10, 1, 0), and its sentence vectors.
func ESCI(dir string) (*Set, error) {
	s := &Set{Name: "esci", Fields: esciFields}
	if err := s.readProducts(filepath.Join(dir, "esci-products.jsonl.gz")); err != nil {
		return nil, err
	}
	err := s.readJudgments(filepath.Join(dir, "esci-judgments-dev.tsv"), '\t', func(r string) (float64, error) {
		n, err := strconv.Atoi(r)
		return float64(n) / 100, err
	})
	if err != nil {
		return nil, err
	}
	if s.Vectors, err = readVectors(filepath.Join(dir, "esci-use-lite-vectors.jsonl.gz"), "objectID"); err != nil {
		return nil, err
	}
	s.QueryVectors, err = readVectors(filepath.Join(dir, "esci-use-lite-queries-dev.jsonl.gz"), "query")
	return s, err
}

func (s *Set) readProducts(path string) error {
	return eachLine(path, func(line []byte) error {
		var p map[string]any
		if err := json.Unmarshal(line, &p); err != nil {
			return err
		}
		if _, ok := p["objectID"].(string); !ok {
			return errors.New("a product without objectID")
		}
		s.Products = append(s.Products, p)
		return nil
	})
}

func (s *Set) readJudgments(path string, sep rune, gain func(string) (float64, error)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma, r.LazyQuotes, r.FieldsPerRecord = sep, true, 3
	rows, err := r.ReadAll()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	s.Gains = map[string]map[string]float64{}
	for _, row := range rows[1:] {
		g, err := gain(strings.TrimSpace(row[2]))
		if err != nil {
			return fmt.Errorf("%s: rating %q: %w", path, row[2], err)
		}
		q := row[0]
		if s.Gains[q] == nil {
			s.Gains[q] = map[string]float64{}
			s.Queries = append(s.Queries, q)
		}
		s.Gains[q][row[1]] = g
	}
	return nil
}

func readVectors(path, key string) (map[string][]float32, error) {
	out := map[string][]float32{}
	err := eachLine(path, func(line []byte) error {
		var v map[string]any
		if err := json.Unmarshal(line, &v); err != nil {
			return err
		}
		raw, _ := v["vector"].([]any)
		vec := make([]float32, len(raw))
		for i, x := range raw {
			f, _ := x.(float64)
			vec[i] = float32(f)
		}
		name, _ := v[key].(string)
		out[name] = vec
		return nil
	})
	return out, err
}

func eachLine(path string, fn func([]byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	sc := bufio.NewScanner(z)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		if err := fn(sc.Bytes()); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := sc.Err(); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// LengthClass is a query's class by its number of words: "1", "2-3" or "4+".
func LengthClass(q string) string {
	switch n := len(strings.Fields(q)); {
	case n <= 1:
		return "1"
	case n <= 3:
		return "2-3"
	}
	return "4+"
}

// Classes are the length classes in report order, "all" first.
var Classes = []string{"all", "1", "2-3", "4+"}

// sortedGains are a query's judged gains, best first: the ideal list.
func sortedGains(gains map[string]float64) []float64 {
	out := make([]float64, 0, len(gains))
	for _, g := range gains {
		out = append(out, g)
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(out)))
	return out
}
