package conformance

// Reasons for the analysis and highlighting tests left out.
const (
	otherFilter = "the engine has the token filters of ES's language analyzers and a few more (docs/engine.md); this test's filter is not one of them"
	otherLang   = "the engine has twelve of ES's language analyzers (docs/engine.md); this one is not among them"
)

var analysisSkips = concat(
	tests("analysis-common/40_token_filters.yml", otherFilter,
		"trim", "word_delimiter", "word_delimiter_graph", "unique", "length", "uppercase", "ngram", "edge_ngram",
		"reverse", "decompounder", "truncate", "pattern_capture", "pattern_replace", "limit_count", "common_grams",
		"arabic_normalization", "bengali_normalization", "hindi_normalization", "indic_normalization",
		"persian_normalization", "scandinavian_normalization", "serbian_normalization", "sorani_normalization",
		"cjk_width", "cjk_bigram", "delimited_payload_filter", "keep_filter", "keep_types_filter", "classic",
		"decimal_digit", "fingerprint", "min_hash", "scandinavian_folding", "arabic_stem", "brazilian_stem",
		"czech_stem", "bengali_stem"),
	tests("analysis-common/40_token_filters.yml", "german_stem is Lucene's GermanStemmer, an algorithm the engine does not have (the german analyzer stems with light_german, which it has)",
		"german_stem"),
	tests("analysis-common/40_token_filters.yml", "the engine's synonym filter puts out a flattened graph in rule order, not Lucene's token graph (flatten_graph is absent too)",
		"synonym_graph and flatten_graph"),
	tests("analysis-common/20_analyzers.yml", otherLang, "bengali"),
	tests("search.highlight/10_unified.yml", "the combined_fields query is outside the DESIGN subset",
		"Basic combined_fields query"),
	tests("indices.analyze/10_synonyms.yml", "char filters (html_strip) are not supported by the engine, nor analyzing synonym rules with the analyzer's chain",
		"Synonym filter with char_filter"),
)
