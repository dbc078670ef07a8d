package conformance

import "fmt"

// Reasons of the vector search files' skips (issue 38).
const (
	noFlushSpec      = "indices.flush has no API spec in the files the runner reads (api/ nor candidates/api/); the engine's refresh already writes segments, and its durability does not depend on a flush"
	noForcemergeSpec = "indices.forcemerge has no API spec in the files the runner reads; the engine merges segments in the background"
	scriptScore      = "script_score and painless vector functions are outside the DESIGN subset"
	vectorTies       = "documents of equal score are ordered by the engine's document order, not by indexing order (docs/engine.md, Differences)"
)

var vectorSkips = concat(
	flushAndMerge("search.vectors/41_knn_search_byte_quantized.yml", "setup", "Knn search with mip",
		"Test create, merge, and search cosine", "Test create, merge, and search dot_product"),
	tests("search.vectors/41_knn_search_byte_quantized.yml", "ES scores int8_hnsw hits from int8-quantized vectors, whose error lets moose (at distance 10.44) pass similarity 10.3; the engine scores every hit from the full-precision vectors, as ES's rescore_vector does",
		"KNN Vector similarity search only"),
	[]Entry{
		{File: "search.vectors/180_update_dense_vector_type.yml", Test: "Test create and update dense vector mapping with per-doc indexing and flush", Step: "do indices.flush", Reason: noFlushSpec},
		{File: "search.vectors/180_update_dense_vector_type.yml", Test: "Index, update and merge", Step: "do indices.forcemerge", Reason: noForcemergeSpec},
		{File: "search.vectors/175_knn_query_hex_encoded_byte_vectors.yml", Test: "Knn search with hex string for byte field - dimensions mismatch",
			Reason: "expects an older wording of the dimensions error (\"different dimension [4] than the index vectors [3]\"); the engine answers ES 8.19's, which 170's same test expects"},
	},
	// [1,1,1,2], [2,1,1,1] and [1,1,2,1] are equally far from [1,1,1,1]: the places of
	// those ties are left out, the rest of each search is checked.
	tiedPlaces("search.vectors/180_update_dense_vector_type.yml", "Test create and update dense vector mapping with per-doc indexing and flush", 4),
	tiedPlaces("search.vectors/180_update_dense_vector_type.yml", "Test create and update dense vector mapping with bulk indexing", 4),
	tiedPlaces("search.vectors/180_update_dense_vector_type.yml", "Index, update and merge", 3),
	tests("search.vectors/40_knn_search.yml", "requires gte_v8.16.0 like its twin \"Nonexistent field returns empty query\" but expects the opposite (an error): ES 8.16+ answers an unmapped kNN field with no hits, as the engine does",
		"Nonexistent field throws error"),
	tests("search.vectors/40_knn_search.yml", "the term query's deprecated [term] key for its value (in place of [value]) is outside the DESIGN subset",
		"Knn search with _name"),
	tests("search.vectors/41_knn_search_byte_quantized.yml", scriptScore, "Cosine similarity with indexed vector"),
	tests("search.vectors/42_knn_search_flat.yml", scriptScore, "Cosine similarity with indexed vector"),
	tests("search.vectors/45_knn_search_byte.yml", "index.query.parse.allow_unmapped_fields is outside the DESIGN subset",
		"Test nonexistent field is match none"),
	tests("search.vectors/45_knn_search_byte.yml", "expects rabbit (term score 0.446, no kNN score: not among k=2) above cow (kNN score (1+cos)/2 = 0.694 for byte cosine, as Lucene's VectorSimilarityFunction.COSINE computes it); the engine scores as Lucene documents it",
		"kNN search plus query"),
	tests("search.vectors/110_knn_query_with_filter.yml", "the wildcard query is outside the DESIGN subset",
		"PRE_FILTER: knn query with alias filter as pre-filter"),
	tests("search.vectors/120_knn_query_multiple_shards.yml", "include_named_queries_score (ES 8.8) is absent from the REST API spec the runner and the engine follow",
		"Hybrid search combines scores from knn and other queries"),
	tests("search.vectors/120_knn_query_multiple_shards.yml", "pipeline aggregations (sum_bucket) are outside the DESIGN subset",
		"Aggregations with collected number of docs depends on num_candidates"),
	tests("search.vectors/140_knn_query_with_other_queries.yml", "expects 5 kNN hits from num_candidates 10 without k, where 110's and 190's tests of the same ES release take k from num_candidates (5 hits for 5); the engine follows those",
		"dis_max query with knn query"),
	tests("search.vectors/140_knn_query_with_other_queries.yml", vectorTies+": documents 1 and 4 both score 10",
		"Function score query with knn query"),
	tests("search.retrievers/10_standard_retriever.yml", "terminate_after is outside the DESIGN subset", "standard retriever terminate after"),
	tests("search.retrievers/10_standard_retriever.yml", "min_score and script_score are outside the DESIGN subset", "standard retriever min score"),
)

// tiedPlaces leaves out the checks of a test's hits 1 to last by id, where its
// documents tie.
func tiedPlaces(file, test string, last int) []Entry {
	out := make([]Entry, 0, last)
	for i := 1; i <= last; i++ {
		out = append(out, Entry{File: file, Test: test, Step: fmt.Sprintf("match hits.hits.%d._id", i), Reason: vectorTies})
	}
	return out
}

// flushAndMerge leaves out the flush and force-merge steps of tests.
func flushAndMerge(file string, tests ...string) []Entry {
	var out []Entry
	for _, t := range tests {
		out = append(out, Entry{File: file, Test: t, Step: "do indices.flush", Reason: noFlushSpec},
			Entry{File: file, Test: t, Step: "do indices.forcemerge", Reason: noForcemergeSpec})
	}
	return out
}
