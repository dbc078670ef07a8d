package searchquery

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// Records without the distinct field are each a group of their own (as in Algolia),
// where Elasticsearch's collapse puts them together in one group. A search counts them
// (the group count's missing aggregation): when some match, a second round asks for the
// grouped records (those holding the field, collapsed) and the others, both from the
// first hit to the end of the page, in one _msearch, and merges the two by their sort
// values, which the hits' sort makes a total order (its last key is objectID): the page
// is cut from the merged list. The second round reads the groups of every page before
// the one asked for, so a deep page costs more when such records match.

// Ungrouped reports an answer to a distinct search in which records without the
// distinct field match: the search needs its merge round (Bodies.Merge).
func (p Shaping) Ungrouped(raw []byte) (bool, error) {
	if p.distinct == nil {
		return false, nil
	}
	var res struct {
		Aggregations struct {
			Groups json.RawMessage `json:"groups"`
		} `json:"aggregations"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return false, fmt.Errorf("decoding the search answer: %w", err)
	}
	if len(res.Aggregations.Groups) == 0 {
		return false, nil
	}
	var c groupCount
	if err := json.Unmarshal(res.Aggregations.Groups, &c); err != nil {
		return false, fmt.Errorf("decoding the group count: %w", err)
	}
	return c.Missing.DocCount > 0, nil
}

// groupedBodies are a grouped search's body and its merge round's, made from the
// search's finished body: the records holding the distinct field (collapsed) and those
// without it, from the first hit to the end of page. The three share their query, sort,
// _source and highlight, marshalled once (wireParts): the merge round is rarely sent,
// and marshalling the query again for each of its bodies was most of what building them
// cost.
func groupedBodies(d *distinctPlan, body searchBody, page Window) ([]byte, *MergeBodies, error) {
	parts, err := wirePartsOf(body)
	if err != nil {
		return nil, nil, err
	}
	search, err := json.Marshal(parts.body(body))
	if err != nil {
		return nil, nil, err
	}
	top := func(collapsed bool, filter any) wireBody {
		b := parts.body(body)
		b.Aggs = nil
		if !collapsed {
			b.Collapse = nil
		}
		b.From, b.Size, b.TrackTotalHits = 0, page.From+page.Size, false
		// The body's post_filter: the selections, and the promoted records kept out.
		var pf []any
		if body.PostFilter != nil {
			pf = append(pf, body.PostFilter)
		}
		b.PostFilter = and(append(pf, filter))
		return b
	}
	exists := map[string]any{"exists": map[string]any{"field": d.field}}
	grouped, err := json.Marshal(top(true, exists))
	if err != nil {
		return nil, nil, err
	}
	single, err := json.Marshal(top(false, map[string]any{"bool": map[string]any{"must_not": []any{exists}}}))
	if err != nil {
		return nil, nil, err
	}
	return search, &MergeBodies{Grouped: grouped, Single: single}, nil
}

// ShapeMerged is the answer of a search with its merge round: the facets and total of
// its first answer, the page cut from the grouped and single records merged.
func ShapeMerged(p Shaping, first, grouped, single []byte) (Response, error) {
	out, err := Shape(p, first)
	if err != nil {
		return Response{}, err
	}
	var g, s esResponse
	for _, a := range []struct {
		raw []byte
		res *esResponse
	}{{grouped, &g}, {single, &s}} {
		if err := json.Unmarshal(a.raw, a.res); err != nil {
			return Response{}, fmt.Errorf("decoding the search answer: %w", err)
		}
	}
	merged := mergeRanked(g.Hits.Hits, s.Hits.Hits, p.distinct.desc)
	page := merged[min(p.Offset, len(merged)):min(p.Offset+p.Limit, len(merged))]
	out.Hits = out.Hits[:0]
	shape := p.hitShaper()
	for _, h := range page {
		hits, err := p.distinct.expand(h, shape)
		if err != nil {
			return Response{}, err
		}
		out.Hits = append(out.Hits, hits...)
	}
	return out, nil
}

// mergeRanked merges two lists of hits sorted by the same sort into one.
func mergeRanked(a, b []esHit, desc []bool) []esHit {
	out := make([]esHit, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if compareSort(b[0].Sort, a[0].Sort, desc) < 0 {
			out, b = append(out, b[0]), b[1:]
			continue
		}
		out, a = append(out, a[0]), a[1:]
	}
	return append(append(out, a...), b...)
}

// compareSort orders two hits by their sort values as Elasticsearch does: key by key, in
// each key's direction, a missing value last either way.
func compareSort(x, y []json.RawMessage, desc []bool) int {
	for i := 0; i < len(x) && i < len(y) && i < len(desc); i++ {
		a, b := sortValue(x[i]), sortValue(y[i])
		switch {
		case a == nil && b == nil:
			continue
		case a == nil:
			return 1
		case b == nil:
			return -1
		}
		c := compareValues(a, b)
		if desc[i] {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

// sortValue reads a sort value: a number (Elasticsearch writes the infinities of
// missing doubles as strings), a string, or nil for null.
func sortValue(raw json.RawMessage) any {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return nil
	}
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return nil
		}
		return f
	case string:
		switch x {
		case "Infinity":
			return math.Inf(1)
		case "-Infinity":
			return math.Inf(-1)
		}
		return x
	case bool:
		if x {
			return 1.0
		}
		return 0.0
	}
	return nil
}

// compareValues compares two sort values of one key: numbers numerically, strings by
// their bytes (as keyword fields sort), a number before a string.
func compareValues(a, b any) int {
	fa, aNum := a.(float64)
	fb, bNum := b.(float64)
	switch {
	case aNum && bNum:
		return cmp.Compare(fa, fb)
	case aNum:
		return -1
	case bNum:
		return 1
	}
	return strings.Compare(a.(string), b.(string))
}
