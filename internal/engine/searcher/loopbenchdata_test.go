package searcher

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/aislehq/aisle/internal/engine/mapper"
	"github.com/aislehq/aisle/internal/engine/store"
)

// benchWord is the word of rank i among 5,000 drawn with a Zipf distribution, as the
// words of product text are.
func benchWord(i uint64) string { return "w" + strconv.FormatUint(i, 36) }

const benchWords = 5000

// benchIndex indexes n records of about 1 KB (a name of four words, a description of
// about 900 characters, a brand) in bulks of 1,000, a refresh every 10,000.
func benchIndex(b *testing.B, n int) *store.Index {
	st, err := store.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = st.Close() })
	m, err := mapper.Parse(json.RawMessage(`{"properties":{"name":{"type":"text"},"description":{"type":"text"},"brand":{"type":"keyword"}}}`))
	if err != nil {
		b.Fatal(err)
	}
	ix, err := st.Create("records", store.CreateRequest{Mapping: m})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewSource(42))
	zipf := rand.NewZipf(r, 1.1, 10, benchWords-1)
	text := func(chars int) string {
		var sb strings.Builder
		for sb.Len() < chars {
			sb.WriteString(benchWord(zipf.Uint64()))
			sb.WriteByte(' ')
		}
		return sb.String()
	}
	for start := 0; start < n; start += 1000 {
		var ops []store.Op
		for i := start; i < min(start+1000, n); i++ {
			doc, _ := json.Marshal(map[string]any{"name": text(30), "description": text(900), "brand": fmt.Sprint("b", r.Intn(100))})
			ops = append(ops, store.Op{Kind: store.OpIndex, ID: fmt.Sprint(i), Source: doc})
		}
		if _, err := ix.Write(ops); err != nil {
			b.Fatal(err)
		}
		if (start/1000)%10 == 9 || start+1000 >= n {
			if err := ix.Refresh(); err != nil {
				b.Fatal(err)
			}
		}
	}
	return ix
}

// benchRequests are n catalog searches: a must term of the 100 most common words, and
// proximity phrases of it and another of them; and each one's proximity clauses alone,
// counted (for the log: how often they match).
func benchRequests(b *testing.B, n int) (searches, proximity []*Request) {
	q := rand.New(rand.NewSource(7))
	for i := 0; i < n; i++ {
		must, other := benchWord(uint64(q.Intn(100))), benchWord(uint64(q.Intn(100)))
		phrase := must + " " + other
		if q.Intn(2) == 0 {
			phrase = other + " " + must
		}
		var prox []string
		for j, slop := range []int{0, 2, 8} {
			prox = append(prox, fmt.Sprintf(`{"constant_score":{"boost":%d,"filter":{"multi_match":{"fields":["name","description"],"query":%q,"slop":%d,"type":"phrase"}}}}`, 27-9*j, phrase, slop))
		}
		dismax := fmt.Sprintf(`{"dis_max":{"queries":[%s]}}`, strings.Join(prox, ","))
		searches = append(searches, benchRequest(b, fmt.Sprintf(`{"size":20,"query":{"bool":{"must":[{"term":{"description":%q}}],"should":[%s]}}}`, must, dismax)))
		proximity = append(proximity, benchRequest(b, fmt.Sprintf(`{"size":0,"track_total_hits":true,"query":%s}`, dismax)))
	}
	return searches, proximity
}

func benchRequest(b *testing.B, body string) *Request {
	decoded, err := DecodeBody([]byte(body))
	if err != nil {
		b.Fatal(err)
	}
	req, err := ParseBody(decoded)
	if err != nil {
		b.Fatal(err)
	}
	return req
}
