package conformance

var searchSkips = concat(
	tests("search/10_source_filtering.yml", storedFields, "fields in body", "fields in body with source"),
	tests("search/10_source_filtering.yml", docvalues, "docvalue_fields", "multiple docvalue_fields",
		"docvalue_fields as url param", "docvalue_fields with explicit format", "docvalue_fields - double"),
	tests("search/30_limits.yml", "scroll, rescore, docvalue_fields limits, script_fields and regexp/query_string are outside the DESIGN subset (README)",
		"Request window limits with scroll", "Rescore window limits", "Docvalues_fields size limit",
		"Script_fields size limit", "Regexp length limit"),
	tests("search/90_search_after.yml", dateNanos+"; so are sort `format` and `numeric_type`", "date_nanos", "Format sort values"),
	tests("search/95_sort_mixed_numeric_types.yml", "byte/short/integer sort semantics (search.sort.int_sort_for_int_short_byte_fields) are outside the DESIGN subset",
		"Sort missing values sort last"),
	tests("search/171_term_query.yml", "case_insensitive term queries are outside the DESIGN subset",
		"case insensitive term query on blank keyword is consistent"),
	existsSkips(),
	[]Entry{{File: "search/350_point_in_time.yml", Test: "msearch", Step: "match responses.0.hits.total.value",
		Reason: "queries on the _index metadata field are outside the DESIGN subset (a match on _index matches nothing, with or without a point in time); the step's point in time search runs and the others assert it"}},
	tests("search/410_named_queries.yml", "include_named_queries_score (ES 8.8) is absent from the REST API spec the runner and the engine follow, so the engine returns matched_queries as an array only",
		"named_queries_with_score"),
)

// existsSkips leaves out the exists-query tests on metadata fields outside
// the subset (README: routing, _routing/_seq_no/_version). The field types the
// README lists (geo_point, binary, ip, half_float, doc_values: false) are
// accepted by the engine and their exists tests run.
func existsSkips() []Entry {
	return tests("search/160_exists_query.yml", "_routing/_seq_no/_version as queryable fields and custom routing are outside the DESIGN subset",
		"Test exists query on _routing field", "Test exists query on _seq_no field", "Test exists query on _version field")
}

var aggSkips = concat(
	tests("search.aggregation/20_terms.yml", "execution_hint with indices.stats fielddata is outside the DESIGN subset",
		"Global ordinals are not loaded with the map execution hint",
		"Global ordinals are loaded with the global_ordinals execution hint"),
	tests("search.aggregation/20_terms.yml", "terms agg partitions are outside the DESIGN subset",
		"Partitioned string test", "Partitioned integer test"),
	tests("search.aggregation/20_terms.yml", unmappedAgg,
		"Unmapped strings", "Unmapped booleans", "Unmapped dates", "Unmapped longs", "Unmapped doubles",
		"Value type mismatch fails shard", "Value type mismatch fails shard with no docs"),
	tests("search.aggregation/20_terms.yml", "scripts are outside the DESIGN subset", "No field or script"),
	tests("search.aggregation/20_terms.yml", profile,
		"string profiler via global ordinals filters implementation",
		"string profiler via global ordinals native implementation",
		"string profiler via map", "numeric profiler"),
	tests("search.aggregation/20_terms.yml", "simple_query_string/query_string are outside the DESIGN subset", "min_doc_count"),
	tests("search.aggregation/20_terms.yml", "nested fields/aggregations are outside the DESIGN subset",
		"order by sub agg containing nested", "order by sub agg containing filter"),
	tests("search.aggregation/50_filter.yml", "request_cache with indices.stats and terms lookup are outside the DESIGN subset",
		"Terms lookup gets cached", "Standard queries get cached"),
	tests("search.aggregation/170_cardinality_metric.yml", "cardinality precision_threshold is outside the DESIGN subset",
		"Basic test", "Invalid Precision test"),
	tests("search.aggregation/170_cardinality_metric.yml", profile, "profiler int", "profiler double", "profiler string"),
	tests("search.aggregation/360_date_histogram.yml", "date_range fields and hard_bounds are outside the DESIGN subset",
		"date_histogram on range with hard bounds"),
	tests("search.aggregation/360_date_histogram.yml", "date_histogram time_zone is outside the DESIGN subset (the engine answers 400)",
		"date_histogram on date_nanos with timezone fixed interval",
		"date_histogram on date_nanos with timezone calendar interval"),
	tests("search.aggregation/360_date_histogram.yml", "time_zone and composite aggregations are outside the DESIGN subset",
		"date_histogram and date_histogram_composite timezone"),
	tests("search.aggregation/360_date_histogram.yml", profile, "Multi-value date histogram docvalues only"),
)

var deleteByQuerySkips = concat(
	tests("delete_by_query/10_basic.yml", dbqTasks,
		"wait_for_completion=false", "Can override scroll_size"),
	tests("delete_by_query/20_validation.yml", dbqThrottle,
		"invalid scroll_size fails", "requests_per_second cannot be an empty string",
		"requests_per_second cannot be negative", "requests_per_second cannot be zero",
		"requests_per_second cannot be unlimited", "junk in slices fails", "zero slices fails"),
	tests("delete_by_query/20_validation.yml", storedFields, "source fields may not be modified"),
)
