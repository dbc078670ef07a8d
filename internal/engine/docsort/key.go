package docsort

import (
	"bytes"
	"cmp"
	"strconv"
	"time"

	"github.com/blevesearch/bleve/v2/numeric"

	"github.com/aislehq/aisle/internal/engine/columns"
	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
)

// Val is one clause's value of one document. Only the part of the clause's kind is set,
// so two values of the same clause compare part by part.
type Val struct {
	F       float64 // _score
	N       int64   // numbers and dates (the sortable int64 of their full-precision term), _doc
	B       []byte  // keyword and boolean terms: a view of the column's term, not a copy
	Missing bool
}

type kind uint8

const (
	byScore kind = iota
	byDoc
	byNumber
	byTerm
)

// clause is a Spec bound to one reader's columns.
type clause struct {
	kind kind
	desc bool
	typ  string            // the field's type, for rendering
	cols []*columns.Column // nil on an unmapped field: every document misses it
	one  [1]uint32
}

// Sorter computes sort keys of one reader's documents. It keeps scratch state: one
// goroutine uses it.
type Sorter struct {
	specs   []Spec
	clauses []clause
}

// Bind resolves specs against a reader's columns; leaf gives a field's mapping, nil when
// the field is unmapped (then its unmapped_type, if any, names the type).
func Bind(specs []Spec, v *columns.View, leaf func(string) *mapper.Leaf) (*Sorter, error) {
	s := &Sorter{specs: specs, clauses: make([]clause, len(specs))}
	for i, sp := range specs {
		c := &s.clauses[i]
		c.desc = sp.Desc
		switch sp.Field {
		case "_score":
			c.kind, c.typ = byScore, "_score"
			continue
		case "_doc", "_id":
			c.kind, c.typ = byDoc, "long"
			continue
		}
		if err := c.bindField(sp, v, leaf(sp.Field)); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (c *clause) bindField(sp Spec, v *columns.View, l *mapper.Leaf) error {
	c.typ = sp.UnmappedType
	if l != nil {
		c.typ = l.Type
	}
	if c.typ == "" {
		return eserr.New(400, "query_shard_exception", "No mapping found for [%s] in order to sort on", sp.Field)
	}
	prefix := ""
	switch {
	case c.typ == "keyword" || c.typ == "boolean":
		c.kind = byTerm
	case mapper.Numeric(c.typ) || c.typ == "date":
		c.kind, prefix = byNumber, columns.FullPrecision
	default:
		return eserr.IllegalArgument("can't sort on %s field [%s] in this engine", c.typ, sp.Field)
	}
	if l == nil {
		return nil
	}
	cols, err := v.Field(sp.Field, prefix)
	c.cols = cols
	return err
}

// Len is the number of values of a key.
func (s *Sorter) Len() int { return len(s.clauses) }

// Specs are the clauses the sorter was bound from.
func (s *Sorter) Specs() []Spec { return s.specs }

// Fill sets key (of Len values) to the sort key of a document: local in segment seg,
// doc in the reader, with its score. A multi-valued field sorts by its lowest value
// ascending and its highest descending, as ES's default sort mode does.
func (s *Sorter) Fill(key []Val, seg int, local, doc uint64, score float64) {
	for i := range s.clauses {
		c := &s.clauses[i]
		k := &key[i]
		*k = Val{}
		switch c.kind {
		case byScore:
			k.F = score
		case byDoc:
			k.N = int64(doc)
		default:
			c.fill(k, seg, local)
		}
	}
}

func (c *clause) fill(k *Val, seg int, local uint64) {
	if c.cols == nil {
		k.Missing = true
		return
	}
	col := c.cols[seg]
	ords := col.Ords(local, &c.one)
	if len(ords) == 0 {
		k.Missing = true
		return
	}
	o := ords[0]
	if c.desc {
		o = ords[len(ords)-1]
	}
	if c.kind == byNumber {
		k.N = col.Int64s()[o]
	} else {
		k.B = col.Terms[o]
	}
}

// Compare orders two keys by specs: negative when a sorts first. A missing value sorts
// last whatever the order, unless its clause says missing: _first.
func Compare(specs []Spec, a, b []Val) int {
	for i, sp := range specs {
		if c := compareVal(sp, a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

func compareVal(sp Spec, x, y Val) int {
	if x.Missing || y.Missing {
		switch {
		case x.Missing == y.Missing:
			return 0
		case x.Missing == sp.MissingFirst:
			return -1
		}
		return 1
	}
	c := cmp.Compare(x.F, y.F)
	if c == 0 {
		c = cmp.Compare(x.N, y.N)
	}
	if c == 0 {
		c = bytes.Compare(x.B, y.B)
	}
	if sp.Desc {
		return -c
	}
	return c
}

// Types are the clauses' field types ("_score" for the score), as the sort values of a
// hit are rendered.
func (s *Sorter) Types() []string {
	out := make([]string, len(s.clauses))
	for i, c := range s.clauses {
		out[i] = c.typ
	}
	return out
}

// Decoded renders a key as bleve renders a hit's sort values (DecodedSort): numbers as
// decimal strings, dates in RFC 3339, terms as they are, "" for a missing value and for
// the score (read from the hit).
func (s *Sorter) Decoded(key []Val) []string {
	out := make([]string, len(key))
	for i, k := range key {
		c := s.clauses[i]
		switch {
		case k.Missing || c.kind == byScore:
		case c.kind == byDoc:
			out[i] = strconv.FormatInt(k.N, 10)
		case c.kind == byTerm:
			out[i] = string(k.B)
		case c.typ == "date":
			out[i] = time.Unix(0, k.N).UTC().Format(time.RFC3339Nano)
		default:
			out[i] = strconv.FormatFloat(numeric.Int64ToFloat64(k.N), 'g', -1, 64)
		}
	}
	return out
}

// After is the key of search_after values given as Decoded renders them; a value that
// cannot be read is missing.
func (s *Sorter) After(enc []string) []Val {
	out := make([]Val, len(s.clauses))
	for i, c := range s.clauses {
		if i >= len(enc) {
			break
		}
		out[i] = c.parse(enc[i])
	}
	return out
}

func (c *clause) parse(e string) Val {
	switch {
	case c.kind == byTerm:
		return Val{B: []byte(e)}
	case c.kind == byNumber && c.typ == "date":
		t, err := time.Parse(time.RFC3339Nano, e)
		return Val{N: t.UnixNano(), Missing: err != nil}
	}
	f, err := strconv.ParseFloat(e, 64)
	switch c.kind {
	case byScore:
		return Val{F: f, Missing: err != nil}
	case byDoc:
		return Val{N: int64(f), Missing: err != nil}
	}
	return Val{N: numeric.Float64ToInt64(f), Missing: err != nil}
}
