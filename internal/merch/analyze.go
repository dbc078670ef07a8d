package merch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/elastic/go-elasticsearch/v8"
	lru "github.com/hashicorp/golang-lru/v2"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// Patterns and queries are read by the index language's analysis of searchable fields
// (lowercase, stop words, stemming, folded accents), written out in the _analyze request
// by indexmapping.TextChain, so that the reading depends on the language only and not on
// which physical index the alias points at (a rebuild to another language is in
// progress, or no index exists yet). A rule keeps its patterns' terms with the language
// they were read in; the cache reads them again when the language has changed since.

// token is one term of an analysed text, with its place in the text in bytes.
type token struct {
	term       string
	start, end int
}

// queryCacheSize bounds the analysed queries a replica keeps.
const queryCacheSize = 4096

// chunkBytes bounds the text of one _analyze request: far below the token and character
// limits Elasticsearch sets on one request (index.analyze.max_token_count, 10,000).
const chunkBytes = 16 << 10

type analyzer struct {
	es      *elasticsearch.TypedClient
	queries *lru.Cache[string, []token]
}

func newAnalyzer(client *elasticsearch.TypedClient) *analyzer {
	c, _ := lru.New[string, []token](queryCacheSize)
	return &analyzer{es: client, queries: c}
}

// query analyses a search's query, from the cache when it was read lately.
func (a *analyzer) query(ctx context.Context, lang searchv1alpha1.Language, q string) ([]token, error) {
	key := string(lang) + "\x00" + q
	if toks, ok := a.queries.Get(key); ok {
		return toks, nil
	}
	out, err := a.analyze(ctx, lang, []string{q})
	if err != nil {
		return nil, err
	}
	a.queries.Add(key, out[0])
	return out[0], nil
}

// terms analyses texts, each apart, and returns their terms.
func (a *analyzer) terms(ctx context.Context, lang searchv1alpha1.Language, texts []string) ([][]string, error) {
	toks, err := a.analyze(ctx, lang, texts)
	if err != nil {
		return nil, err
	}
	out := make([][]string, len(toks))
	for i, ts := range toks {
		out[i] = termsOf(ts)
	}
	return out, nil
}

func termsOf(ts []token) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.term
	}
	return out
}

// analyze reads texts in as few _analyze requests as their size allows, and gives each
// text its own tokens.
func (a *analyzer) analyze(ctx context.Context, lang searchv1alpha1.Language, texts []string) ([][]token, error) {
	out := make([][]token, 0, len(texts))
	for len(texts) > 0 {
		n, size := 0, 0
		for n < len(texts) && (n == 0 || size+len(texts[n]) <= chunkBytes) {
			size += len(texts[n]) + 1
			n++
		}
		toks, err := a.request(ctx, lang, texts[:n])
		if err != nil {
			return nil, err
		}
		out = append(out, toks...)
		texts = texts[n:]
	}
	return out, nil
}

// analyzeAnswer is the part of an _analyze answer read here.
type analyzeAnswer struct {
	Tokens []struct {
		Token       string `json:"token"`
		StartOffset int    `json:"start_offset"`
		EndOffset   int    `json:"end_offset"`
	} `json:"tokens"`
}

// request analyses texts in one _analyze request. Elasticsearch reads an array of
// texts one after the other, each text's offsets continuing after the previous text's
// length (in UTF-16 units, Java's) and one more: that is how each token finds its text.
func (a *analyzer) request(ctx context.Context, lang searchv1alpha1.Language, texts []string) ([][]token, error) {
	body := indexmapping.TextChain(lang)
	body["text"] = texts
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	res, err := es.ReadBody(a.es.Indices.Analyze().Raw(bytes.NewReader(raw)).Perform(ctx)) //nolint:bodyclose // ReadBody closes it
	if err != nil {
		return nil, fmt.Errorf("analysing rule patterns and queries: %w", err)
	}
	var ans analyzeAnswer
	if err := json.Unmarshal(res, &ans); err != nil {
		return nil, fmt.Errorf("%w: decoding an _analyze answer: %w", es.ErrUnavailable, err)
	}
	bases := make([]int, len(texts)+1)
	for i, t := range texts {
		bases[i+1] = bases[i] + utf16Len(t) + 1
	}
	out := make([][]token, len(texts))
	for _, t := range ans.Tokens {
		i, _ := slices.BinarySearch(bases, t.StartOffset+1)
		i--
		if i < 0 || i >= len(texts) {
			continue
		}
		text := texts[i]
		out[i] = append(out[i], token{term: t.Token,
			start: byteOffset(text, t.StartOffset-bases[i]), end: byteOffset(text, t.EndOffset-bases[i])})
	}
	return out, nil
}

// utf16Len is the length of s in UTF-16 units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16Units(r)
	}
	return n
}

func utf16Units(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// byteOffset is the byte offset in s of the UTF-16 offset u (clamped to s).
func byteOffset(s string, u int) int {
	units := 0
	for i, r := range s {
		if units >= u {
			return i
		}
		units += utf16Units(r)
	}
	return len(s)
}
