package engine_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/elastic/go-elasticsearch/v8/typedapi/core/search"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// catalogMapping is a small product catalog with an English analyzer and synonyms.
const catalogMapping = `{
 "settings":{"analysis":{
   "filter":{"syn":{"type":"synonym_graph","synonyms":["tv, television"]},"en_stem":{"type":"stemmer","language":"english"}},
   "analyzer":{"catalog":{"type":"custom","tokenizer":"standard","filter":["lowercase","asciifolding","syn","stop","en_stem"]}}}},
 "mappings":{"properties":{
   "title":{"type":"text","analyzer":"catalog","fields":{"keyword":{"type":"keyword"}}},
   "description":{"type":"text"},
   "brand":{"type":"keyword"},"category":{"type":"keyword"},
   "price":{"type":"float"},"stock":{"type":"long"},"created":{"type":"date"},"tags":{"type":"keyword"}}}}`

var catalog = []string{
	`{"title":"Crème Brûlée Torch","description":"kitchen tool for desserts","brand":"acme","category":"kitchen","price":25.5,"stock":4,"created":"2024-01-15T10:00:00Z","tags":["cooking","gift"]}`,
	`{"title":"Running Shoes","description":"light running shoes","brand":"zoom","category":"sport","price":89.9,"stock":10,"created":"2024-02-01T00:00:00Z","tags":["run"]}`,
	`{"title":"Television 55 inch","description":"big screen","brand":"acme","category":"electronics","price":499,"stock":2,"created":"2024-02-20T12:00:00Z"}`,
	`{"title":"Trail Running Shoe","description":"grippy trail shoe","brand":"zoom","category":"sport","price":120,"stock":0,"created":"2024-03-05T00:00:00Z","tags":["run","trail"]}`,
	`{"title":"Kitchen Knife","description":"sharp chef knife","brand":"blade","category":"kitchen","price":45,"stock":7,"created":"2024-03-10T00:00:00Z","tags":["cooking"]}`,
	`{"title":"TV Stand","description":"wooden stand","brand":"woody","category":"furniture","price":150,"created":"2024-03-11T00:00:00Z"}`,
}

func loadCatalog(idx string) { loadIndex(idx, catalogMapping, catalog) }

// loadIndex creates idx with mapping and indexes docs as documents "1", "2", ..., refreshed.
func loadIndex(idx, mapping string, docs []string) {
	_, err := es.Indices.Create(idx).Raw(strings.NewReader(mapping)).Do(ctx)
	Expect(err).NotTo(HaveOccurred())
	b := es.Bulk().Index(idx).Refresh(refresh.True)
	for i, doc := range docs {
		Expect(b.IndexOp(types.IndexOperation{Id_: ptr(fmt.Sprint(i + 1))}, json.RawMessage(doc))).To(Succeed())
	}
	res, err := b.Do(ctx)
	Expect(err).NotTo(HaveOccurred())
	Expect(res.Errors).To(BeFalse())
}

func ids(res *search.Response) []string {
	out := make([]string, 0, len(res.Hits.Hits))
	for _, h := range res.Hits.Hits {
		out = append(out, *h.Id_)
	}
	return out
}

func query(raw string) *types.Query {
	var q types.Query
	Expect(json.Unmarshal([]byte(raw), &q)).To(Succeed())
	return &q
}

var _ = Describe("Search API", Ordered, func() {
	idx := "catalog"
	BeforeAll(func() { loadCatalog(idx) })

	DescribeTable("queries match the documents ES would return",
		func(q string, expected []string, ordered bool) {
			res, err := es.Search().Index(idx).Query(query(q)).Size(20).Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			if ordered {
				Expect(ids(res)).To(Equal(expected))
			} else {
				Expect(ids(res)).To(ConsistOf(expected))
			}
			Expect(res.Hits.Total.Value).To(Equal(int64(len(expected))))
		},
		// ES docs: Query DSL "Match all query".
		Entry("match_all", `{"match_all":{}}`, []string{"1", "2", "3", "4", "5", "6"}, false),
		// ES docs: "Match query" with analysis: stemming (shoes/shoe), stop words, asciifolding, synonyms.
		Entry("match with stemming", `{"match":{"title":"shoes"}}`, []string{"2", "4"}, false),
		Entry("match with asciifolding", `{"match":{"title":"creme brulee"}}`, []string{"1"}, false),
		Entry("match with synonyms", `{"match":{"title":"tv"}}`, []string{"3", "6"}, false),
		Entry("match operator and", `{"match":{"title":{"query":"trail shoes","operator":"and"}}}`, []string{"4"}, false),
		// ES docs: "Multi-match query" with field boosts (title^3 ranks title matches first).
		Entry("multi_match with boost", `{"multi_match":{"query":"knife","fields":["title^3","description"]}}`, []string{"5"}, true),
		// ES docs: "Match phrase prefix query".
		Entry("match_phrase_prefix", `{"match_phrase_prefix":{"title":"trail ru"}}`, []string{"4"}, false),
		// ES docs: "Term query" on keyword, "Terms query", "Range query", "Exists query", "IDs", "Prefix".
		Entry("term on keyword", `{"term":{"brand":"acme"}}`, []string{"1", "3"}, false),
		Entry("term is not analyzed", `{"term":{"brand":"ACME"}}`, []string{}, false),
		Entry("terms", `{"terms":{"category":["sport","furniture"]}}`, []string{"2", "4", "6"}, false),
		Entry("range on float", `{"range":{"price":{"gte":45,"lt":150}}}`, []string{"2", "4", "5"}, false),
		Entry("range on date", `{"range":{"created":{"gte":"2024-03-01","lte":"2024-03-10"}}}`, []string{"4", "5"}, false),
		// ES takes dates of years 0 to 9999 as range bounds; the engine's nanosecond
		// columns end in 1677 and 2262, and a bound beyond leaves that side open.
		Entry("range on date from the year 0", `{"range":{"created":{"gte":"0000-01-01","lte":"2024-03-10"}}}`, []string{"1", "2", "3", "4", "5"}, false),
		Entry("range on date up to the year 9999", `{"range":{"created":{"gte":"2024-03-01","lt":"9999-12-31"}}}`, []string{"4", "5", "6"}, false),
		Entry("range on date after 2262", `{"range":{"created":{"gte":"9999-01-01"}}}`, []string{}, false),
		Entry("range on date before 1677", `{"range":{"created":{"lt":"1000-01-01"}}}`, []string{}, false),
		Entry("range on date in epoch millis of the year 0", `{"range":{"created":{"gte":-62167219200000}}}`, []string{"1", "2", "3", "4", "5", "6"}, false),
		Entry("range on long", `{"range":{"stock":{"gt":3}}}`, []string{"1", "2", "5"}, false),
		Entry("exists", `{"exists":{"field":"stock"}}`, []string{"1", "2", "3", "4", "5"}, false),
		Entry("exists on array field", `{"exists":{"field":"tags"}}`, []string{"1", "2", "4", "5"}, false),
		Entry("ids", `{"ids":{"values":["2","6","99"]}}`, []string{"2", "6"}, false),
		Entry("prefix on keyword", `{"prefix":{"category":"kit"}}`, []string{"1", "5"}, false),
		// ES docs: "Boolean query": must/filter/should/must_not and minimum_should_match.
		Entry("bool", `{"bool":{"must":[{"match":{"description":"shoe shoes"}}],"filter":[{"term":{"brand":"zoom"}}],"must_not":[{"term":{"stock":0}}]}}`, []string{"2"}, false),
		Entry("bool should only", `{"bool":{"should":[{"term":{"brand":"blade"}},{"term":{"brand":"woody"}}]}}`, []string{"5", "6"}, false),
		Entry("bool minimum_should_match", `{"bool":{"should":[{"term":{"tags":"run"}},{"term":{"tags":"trail"}}],"minimum_should_match":2}}`, []string{"4"}, false),
		Entry("unmapped field matches nothing", `{"term":{"nope":"x"}}`, []string{}, false),
		Entry("bool should is optional beside must, and ranks", `{"bool":{"must":[{"term":{"brand":"zoom"}}],"should":[{"term":{"tags":"trail"}}]}}`, []string{"4", "2"}, true),
		Entry("bool should is optional beside filter", `{"bool":{"filter":[{"term":{"brand":"zoom"}}],"should":[{"term":{"tags":"trail"}}]}}`, []string{"2", "4"}, false),
		Entry("bool minimum_should_match above the should clauses matches nothing", `{"bool":{"should":[{"term":{"tags":"run"}}],"minimum_should_match":2}}`, []string{}, false),
		Entry("bool with only must_not matches everything else", `{"bool":{"must_not":[{"term":{"brand":"acme"}}]}}`, []string{"2", "4", "5", "6"}, false),
		Entry("bool range filter beside a scoring clause", `{"bool":{"must":[{"match":{"title":"shoes"}}],"filter":[{"range":{"price":{"gte":100}}}]}}`, []string{"4"}, false),
		// ES docs: "Match query" > "Fuzziness" (AUTO: one edit for 3-5 characters, two above)
		// and "minimum_should_match".
		Entry("match with fuzziness AUTO", `{"match":{"title":{"query":"kniffe","fuzziness":"AUTO"}}}`, []string{"5"}, false),
		Entry("match without fuzziness is exact", `{"match":{"title":"kniffe"}}`, []string{}, false),
		Entry("match minimum_should_match", `{"match":{"title":{"query":"trail running shoes","minimum_should_match":3}}}`, []string{"4"}, false),
	)

	DescribeTable("bad searches get ES's error type and status",
		func(body string, status int, typ string, reason string) {
			code, raw, _ := rawDo("POST", "/"+idx+"/_search", "application/json", body)
			Expect(code).To(Equal(status))
			Expect(raw).To(ContainSubstring(`"type":"` + typ + `"`))
			Expect(raw).To(ContainSubstring(reason))
		},
		// ES docs: Query DSL — unknown query names are parsing errors.
		Entry("unknown query type", `{"query":{"fuzzy_wuzzy":{}}}`, 400, "parsing_exception", "unknown query [fuzzy_wuzzy]"),
		Entry("malformed JSON", `{"query":`, 400, "x_content_parse_exception", "failed to parse"),
		Entry("unknown top-level key", `{"querx":{}}`, 400, "parsing_exception", "Unknown key for a START_OBJECT in [querx]"),
		// ES docs: "Paginate search results" — index.max_result_window (10,000).
		Entry("result window too large", `{"from":9995,"size":10}`, 400, "illegal_argument_exception", "Result window is too large, from + size must be less than or equal to: [10000] but was [10005]"),
		Entry("negative from", `{"from":-1}`, 400, "illegal_argument_exception", "[from] parameter cannot be negative"),
		// ES docs: "Sort search results" — sorting on text needs fielddata.
		Entry("sort on text field", `{"sort":["title"]}`, 400, "illegal_argument_exception", "Fielddata is disabled on [title]"),
		Entry("sort on unmapped field", `{"sort":["nope"]}`, 400, "query_shard_exception", "No mapping found for [nope] in order to sort on"),
		Entry("terms agg on text field", `{"aggs":{"t":{"terms":{"field":"title"}}}}`, 400, "illegal_argument_exception", "Fielddata is disabled"),
		Entry("search_after without sort", `{"search_after":[1]}`, 400, "illegal_argument_exception", "Sort must contain at least one field"),
		// ES docs: "Match query" > "operator": OR or AND.
		Entry("match with an unknown operator", `{"query":{"match":{"title":{"query":"a b","operator":"xor"}}}}`, 400, "illegal_argument_exception", "No enum constant org.elasticsearch.index.query.Operator.XOR"),
	)

	// ES docs: "track_total_hits": false omits the total; an integer caps it with "gte".
	It("honours track_total_hits", func() {
		res, err := es.Search().Index(idx).TrackTotalHits(1).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Hits.Total.Value).To(Equal(int64(1)))
		Expect(res.Hits.Total.Relation.String()).To(Equal("gte"))
		code, raw, _ := rawDo("POST", "/"+idx+"/_search", "application/json", `{"track_total_hits":false}`)
		Expect(code).To(Equal(200))
		var out struct {
			Hits map[string]json.RawMessage `json:"hits"`
		}
		Expect(json.Unmarshal([]byte(raw), &out)).To(Succeed())
		Expect(out.Hits).NotTo(HaveKey("total"))
	})

	// ES docs: "Retrieve selected fields" > _source filtering.
	It("filters _source", func() {
		res, err := es.Search().Index(idx).Query(query(`{"ids":{"values":["1"]}}`)).
			Source_(types.SourceFilter{Includes: []string{"title", "pri*"}}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(res.Hits.Hits[0].Source_)).To(MatchJSON(`{"title":"Crème Brûlée Torch","price":25.5}`))
	})

	// ES docs: "Sort search results" — sort values are returned in hits[].sort.
	It("sorts by numeric and keyword fields", func() {
		code, raw, _ := rawDo("POST", "/"+idx+"/_search", "application/json", `{"sort":[{"brand":"asc"},{"price":{"order":"desc"}}],"_source":false}`)
		Expect(code).To(Equal(200))
		var out struct {
			Hits struct {
				Hits []struct {
					ID   string `json:"_id"`
					Sort []any  `json:"sort"`
				} `json:"hits"`
			} `json:"hits"`
		}
		Expect(json.Unmarshal([]byte(raw), &out)).To(Succeed())
		var got []string
		for _, h := range out.Hits.Hits {
			got = append(got, h.ID)
		}
		Expect(got).To(Equal([]string{"3", "1", "5", "6", "4", "2"}))
		Expect(out.Hits.Hits[0].Sort).To(Equal([]any{"acme", 499.0}))
	})

	// ES docs: "Terms aggregation" > "Order": default _count desc then _key asc;
	// sum_other_doc_count counts documents of buckets not returned.
	It("orders terms aggregations like ES and reports other counts", func() {
		res, err := es.Search().Index(idx).Size(0).TypedKeys(true).Aggregations(map[string]types.Aggregations{
			"brands":    {Terms: &types.TermsAggregation{Field: ptr("brand"), Size: ptr(2)}},
			"brand_key": {Terms: &types.TermsAggregation{Field: ptr("brand"), Order: map[string]any{"_key": "desc"}}},
			"tags":      {Terms: &types.TermsAggregation{Field: ptr("tags")}},
		}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		brands := res.Aggregations["brands"].(*types.StringTermsAggregate)
		buckets := brands.Buckets.([]types.StringTermsBucket)
		Expect(buckets).To(HaveLen(2))
		Expect(buckets[0].Key).To(Equal("acme"))
		Expect(buckets[0].DocCount).To(Equal(int64(2)))
		Expect(buckets[1].Key).To(Equal("zoom"))
		Expect(*brands.SumOtherDocCount).To(Equal(int64(2)))
		byKey := res.Aggregations["brand_key"].(*types.StringTermsAggregate).Buckets.([]types.StringTermsBucket)
		keys := []any{}
		for _, b := range byKey {
			keys = append(keys, b.Key)
		}
		Expect(keys).To(Equal([]any{"zoom", "woody", "blade", "acme"}))
		tags := res.Aggregations["tags"].(*types.StringTermsAggregate).Buckets.([]types.StringTermsBucket)
		Expect(tags[0].Key).To(Equal("cooking"))
		Expect(tags[1].Key).To(Equal("run"))
		Expect(tags[2].Key).To(Equal("gift"))
	})

	// ES docs: "Filter", "Min", "Max", "Cardinality", "Date histogram" aggregations.
	It("computes filter, min, max, cardinality and date_histogram aggregations", func() {
		body := `{"size":0,"query":{"range":{"price":{"lte":200}}},"aggs":{
			"cheap":{"filter":{"range":{"price":{"lt":50}}},"aggs":{"lo":{"min":{"field":"price"}},"hi":{"max":{"field":"price"}}}},
			"brands":{"cardinality":{"field":"brand"}},
			"months":{"date_histogram":{"field":"created","calendar_interval":"month"},"aggs":{"n":{"cardinality":{"field":"brand"}}}}}}`
		aggs := searchAggs(idx, body)
		Expect(string(aggs["cheap"])).To(MatchJSON(`{"doc_count":2,"lo":{"value":25.5},"hi":{"value":45}}`))
		Expect(string(aggs["brands"])).To(MatchJSON(`{"value":4}`))
		Expect(string(aggs["months"])).To(MatchJSON(`{"buckets":[
			{"key_as_string":"2024-01-01T00:00:00.000Z","key":1704067200000,"doc_count":1,"n":{"value":1}},
			{"key_as_string":"2024-02-01T00:00:00.000Z","key":1706745600000,"doc_count":1,"n":{"value":1}},
			{"key_as_string":"2024-03-01T00:00:00.000Z","key":1709251200000,"doc_count":3,"n":{"value":3}}]}`))
	})

	// ES docs: "Date histogram aggregation" > "Missing value" and "Extended bounds":
	// min_doc_count defaults to 0, so the months between two months with documents come
	// back empty; extended_bounds stretches the buckets to its min and max; min_doc_count 1
	// keeps only months with documents. Empty buckets still carry their sub-aggregations.
	DescribeTable("returns date_histogram buckets between and around the data",
		func(histogram string, want ...string) {
			body := `{"size":0,"query":{"range":{"price":{"gte":25,"lte":50}}},"aggs":{"months":{"date_histogram":` +
				histogram + `,"aggs":{"n":{"cardinality":{"field":"brand"}}}}}}`
			Expect(string(searchAggs(idx, body)["months"])).To(MatchJSON(`{"buckets":[` + strings.Join(want, ",") + `]}`))
		},
		Entry("empty months between the data by default", `{"field":"created","calendar_interval":"month"}`,
			jan, emptyFeb, mar),
		Entry("extended_bounds around the data", `{"field":"created","calendar_interval":"month","min_doc_count":0,
			"extended_bounds":{"min":"2023-12-15","max":"2024-04-02"}}`,
			emptyDec, jan, emptyFeb, mar, emptyApr),
		Entry("extended_bounds inside the data change nothing", `{"field":"created","calendar_interval":"month",
			"extended_bounds":{"min":"2024-02-10","max":"2024-02-11"}}`,
			jan, emptyFeb, mar),
		Entry("only months with documents at min_doc_count 1", `{"field":"created","calendar_interval":"month","min_doc_count":1,
			"extended_bounds":{"min":"2023-12-15","max":"2024-04-02"}}`,
			jan, mar),
	)

	// ES docs: "Delete by query API" > "conflicts": a document changed after the snapshot
	// the query ran on is a version conflict; it aborts (409) unless conflicts=proceed.
	It("reports version conflicts in delete by query", func() {
		other := uniqueIndex("dbqc")
		code, _, _ := rawDo("PUT", "/"+other, "application/json", `{"settings":{"index.refresh_interval":"-1"}}`)
		Expect(code).To(Equal(200))
		code, _, _ = rawDo("PUT", "/"+other+"/_doc/1?refresh=true", "application/json", `{"a":1}`)
		Expect(code).To(Equal(201))
		code, _, _ = rawDo("PUT", "/"+other+"/_doc/1", "application/json", `{"a":2}`)
		Expect(code).To(Equal(200))
		code, body, _ := rawDo("POST", "/"+other+"/_delete_by_query", "application/json", `{"query":{"match_all":{}}}`)
		Expect(code).To(Equal(409))
		Expect(body).To(ContainSubstring(`"version_conflicts":1`))
		Expect(body).To(ContainSubstring(`version_conflict_engine_exception`))
		code, body, _ = rawDo("POST", "/"+other+"/_delete_by_query?conflicts=proceed", "application/json", `{"query":{"match_all":{}}}`)
		Expect(code).To(Equal(200))
		Expect(body).To(ContainSubstring(`"deleted":0`))
		got, err := es.Get(other, "1").Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Found).To(BeTrue())
	})

	// ES docs: "Delete by query API" response fields.
	It("deletes by query", func() {
		other := uniqueIndex("dbq")
		loadCatalog(other)
		res, err := es.DeleteByQuery(other).Query(query(`{"term":{"category":"sport"}}`)).Refresh(true).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(*res.Deleted).To(Equal(int64(2)))
		Expect(*res.Total).To(Equal(int64(2)))
		cnt, err := es.Count().Index(other).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(cnt.Count).To(Equal(int64(4)))
	})
})

// Monthly buckets of the catalog's documents priced 25 to 50, with their brand counts.
const (
	emptyDec = `{"key_as_string":"2023-12-01T00:00:00.000Z","key":1701388800000,"doc_count":0,"n":{"value":0}}`
	jan      = `{"key_as_string":"2024-01-01T00:00:00.000Z","key":1704067200000,"doc_count":1,"n":{"value":1}}`
	emptyFeb = `{"key_as_string":"2024-02-01T00:00:00.000Z","key":1706745600000,"doc_count":0,"n":{"value":0}}`
	mar      = `{"key_as_string":"2024-03-01T00:00:00.000Z","key":1709251200000,"doc_count":1,"n":{"value":1}}`
	emptyApr = `{"key_as_string":"2024-04-01T00:00:00.000Z","key":1711929600000,"doc_count":0,"n":{"value":0}}`
)

// searchAggs runs a raw search body on index and returns its aggregations, as JSON.
func searchAggs(index, body string) map[string]json.RawMessage {
	code, raw, _ := rawDo("POST", "/"+index+"/_search", "application/json", body)
	Expect(code).To(Equal(200), raw)
	var out struct {
		Aggregations map[string]json.RawMessage `json:"aggregations"`
	}
	Expect(json.Unmarshal([]byte(raw), &out)).To(Succeed())
	return out.Aggregations
}
