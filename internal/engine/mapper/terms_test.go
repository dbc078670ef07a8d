package mapper

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	index "github.com/blevesearch/bleve_index_api"
)

// analyzedByName analyzes every field of the document built from src and merges the
// frequencies and lengths of same-named fields as zap does (TokenFrequencies.MergeAll),
// giving, per field name, term → frequency and the total length.
func analyzedByName(t *testing.T, b *Builder, src string) (map[string]map[string]int, map[string]int) {
	doc, _, err := b.Build("1", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	merged, lengths := map[string]index.TokenFrequencies{}, map[string]int{}
	for _, f := range doc.Fields {
		f.Analyze()
		lengths[f.Name()] += f.AnalyzedLength()
		if m := merged[f.Name()]; m != nil {
			m.MergeAll(f.Name(), f.AnalyzedTokenFrequencies())
		} else {
			merged[f.Name()] = f.AnalyzedTokenFrequencies()
		}
	}
	out := map[string]map[string]int{}
	for name, tfs := range merged {
		out[name] = map[string]int{}
		for term, tf := range tfs {
			out[name][term] = tf.Frequency()
		}
	}
	return out, lengths
}

// TestKeywordArrayIsOneFieldWithTheSameTerms checks that a keyword array, indexed as one
// field with a term per value, gives zap the frequencies and lengths that one field per
// value gave, duplicates, nested arrays, arrays of objects and ignore_above included.
func TestKeywordArrayIsOneFieldWithTheSameTerms(t *testing.T) {
	m, err := Parse(json.RawMessage(`{"properties":{"tags":{"type":"keyword","ignore_above":4},
		"v":{"properties":{"c":{"type":"keyword"}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	b := &Builder{Mapping: m, Analyzer: func(string) analysis.Analyzer { return nil }}
	r := rand.New(rand.NewSource(6))
	values := []string{`"a"`, `"b"`, `"a"`, `"long value"`, `["a","c"]`, `null`}
	for i := 0; i < 2000; i++ {
		var tags, objs []string
		for j := 0; j < r.Intn(5); j++ {
			tags = append(tags, values[r.Intn(len(values))])
			objs = append(objs, `{"c":`+values[r.Intn(len(values))]+`}`)
		}
		array := fmt.Sprintf(`{"tags":[%s],"v":[%s]}`, strings.Join(tags, ","), strings.Join(objs, ","))
		gotF, gotL := analyzedByName(t, b, array)
		// The reference: the same values one field each, as separate single-value sources
		// merged by name (what indexing an array value by value gave).
		wantF, wantL := map[string]map[string]int{}, map[string]int{}
		for k := range tags {
			f, l := analyzedByName(t, b, fmt.Sprintf(`{"tags":%s,"v":%s}`, tags[k], objs[k]))
			for name, terms := range f {
				if wantF[name] == nil {
					wantF[name] = map[string]int{}
				}
				for term, n := range terms {
					wantF[name][term] += n
				}
			}
			for name, n := range l {
				wantL[name] += n
			}
		}
		if fmt.Sprint(gotF) != fmt.Sprint(wantF) || fmt.Sprint(gotL) != fmt.Sprint(wantL) {
			t.Fatalf("%s:\n got %v %v\nwant %v %v", array, gotF, gotL, wantF, wantL)
		}
	}
}
