package conformance

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/aislehq/aisle/test/conformance/yamlrest"
)

// Candidates are the files of candidates/ (Elasticsearch's tests for APIs that were
// outside the subset when the files were gathered) whose API the engine has since added
// to the subset: the suite runs them beside test/, so the new API is held to
// Elasticsearch's own tests.
var Candidates = []string{
	"search.aggregation/130_sum_metric.yml", // sum: the Events page's revenue and counts
	// _analyze and the analysis the language analyzers use (issue 21)
	"indices.analyze/10_analyze.yml",
	"indices.analyze/10_synonyms.yml",
	"indices.analyze/20_analyze_limit.yml",
	"indices.analyze/21_analyze_max_char_count.yml",
	"analysis-common/20_analyzers.yml",
	"analysis-common/40_token_filters.yml",
	// highlight (issue 21)
	"search.highlight/10_unified.yml",
	"search.highlight/70_number_of_fragments.yml",
	"search.highlight/issue69009.yml",
	"search/510_fragment_trimming_fix.yml",
	// Lucene's scoring and the queries of tiered ranking (issue 21)
	"search/310_match_bool_prefix.yml",
	"search/410_named_queries.yml",
	"search/610_function_score.yml",
	// collapse, post_filter, facet aggregations and multi-search (issue 22)
	"search/110_field_collapsing.yml",
	"search/111_field_collapsing_with_max_score.yml",
	"search/115_multiple_field_collapsing.yml",
	"search.aggregation/100_avg_metric.yml",
	"search.aggregation/140_value_count_metric.yml",
	"search.aggregation/150_stats_metric.yml",
	"search.aggregation/160_extended_stats_metric.yml",
	"search.aggregation/200_top_hits_metric.yml",
	"search.aggregation/200_top_hits.yml",
	"search.aggregation/220_filters_bucket.yml",
	"search.aggregation/380_global.yml",
	"search.aggregation/40_range.yml",
	"search.aggregation/10_histogram.yml",
	"msearch/10_basic.yml",
	"msearch/20_typed_keys.yml",
	"msearch/40_routing.yml",
	// more_like_this and significant_terms: the similar and goes-with lists (issue 23)
	"mlt/10_basic.yml",
	"mlt/20_docs.yml",
	"mlt/25_docs_one_shard.yml",
	"mlt/30_unlike.yml",
	"search.aggregation/30_sig_terms.yml",
	// the update API and bulk update actions, without scripts (issue 37)
	"update/10_doc.yml",
	"update/11_shard_header.yml",
	"update/12_result.yml",
	"update/13_legacy_doc.yml",
	"update/16_noop.yml",
	"update/20_doc_upsert.yml",
	"update/22_doc_as_upsert.yml",
	"update/35_if_seq_no.yml",
	"update/60_refresh.yml",
	"update/80_source_filtering.yml",
	"update/90_error.yml",
	"update/95_require_alias.yml",
	// dense_vector, the knn search option and query, the standard and knn retrievers (issue 38)
	"search.vectors/40_knn_search.yml",
	"search.vectors/40_knn_search_cosine.yml",
	"search.vectors/41_knn_search_byte_quantized.yml",
	"search.vectors/42_knn_search_flat.yml",
	"search.vectors/45_knn_search_byte.yml",
	"search.vectors/110_knn_query_with_filter.yml",
	"search.vectors/120_knn_query_multiple_shards.yml",
	"search.vectors/140_knn_query_with_other_queries.yml",
	"search.vectors/150_knn_search_missing_params.yml",
	"search.vectors/160_knn_query_missing_params.yml",
	"search.vectors/170_knn_search_hex_encoded_byte_vectors.yml",
	"search.vectors/175_knn_query_hex_encoded_byte_vectors.yml",
	"search.vectors/180_update_dense_vector_type.yml",
	"search.vectors/190_knn_query-with-k-param.yml",
	"search.retrievers/10_standard_retriever.yml",
	"search.retrievers/20_knn_retriever.yml",
	// point in time: the snapshot GET /records pages and streams read (issue 37);
	// search_after is test/search/90_search_after.yml's
	"search/350_point_in_time.yml",
}

// CandidateSpecs are the API specs of candidates/api that the candidate files in force
// call.
var CandidateSpecs = []string{"indices.analyze.json", "msearch.json", "update.json", "knn_search.json",
	"open_point_in_time.json", "close_point_in_time.json"}

// LoadSpecs reads the API specs of dir/api and CandidateSpecs.
func LoadSpecs(dir string) (*yamlrest.Specs, error) {
	specs, err := yamlrest.LoadSpecs(filepath.Join(dir, "api"))
	if err != nil {
		return nil, err
	}
	for _, name := range CandidateSpecs {
		raw, err := os.ReadFile(filepath.Join(dir, "candidates", "api", name))
		if err != nil {
			return nil, fmt.Errorf("candidate API spec %s: %w", name, err)
		}
		if err := specs.Add(name, raw); err != nil {
			return nil, fmt.Errorf("candidate API spec %s: %w", name, err)
		}
	}
	return specs, nil
}

// CandidatePaths returns the paths of Candidates under dir (see Dir); a listed file that
// is missing is an error, never a reason to skip.
func CandidatePaths(dir string) ([]string, error) {
	out := make([]string, 0, len(Candidates))
	for _, c := range Candidates {
		p := filepath.Join(dir, "candidates", filepath.FromSlash(c))
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("candidate conformance file %s: %w", c, err)
		}
		out = append(out, p)
	}
	return out, nil
}
