package conformance

// ClusterFeatures are the named cluster features (`requires`/`skip`
// `cluster_features`) the engine claims. The engine presents itself as a
// current Elasticsearch 8, which has every feature these files name, so all
// are claimed: tests behind them run, and those outside the subset are left
// out below, in the one skip list, with the reason. Synthetic gte_vX.Y.Z
// features come from the version GET / reports.
var ClusterFeatures = map[string]bool{
	"index.throw_exception_on_index_creation_if_unsupported_value_type_in_alias": true,
	"index.throw_exception_for_unknown_token_in_rest_index_put_alias_action":     true,
	"mapper.unknown_field_mapping_update_error_message":                          true,
	"mapper.source.mode_from_index_setting":                                      true,
	"mapper.subobjects_false_mapping_update_fix":                                 true,
	"ids_query_limit_max_ids":                                                    true,
	"search.sort.int_sort_for_int_short_byte_fields":                             true,
}

// Reasons shared by several entries.
const (
	noType       = "ES 8 no longer returns _type (README: assertions that do not hold on ES 8)"
	closedIdx    = "closed indices (indices.close/open, expand_wildcards=closed) are outside the DESIGN subset"
	health       = "cluster.health is outside the DESIGN subset; a single-node engine has nothing to wait for"
	localParam   = "the deprecated `local` parameter is outside the DESIGN subset (and absent from the API spec)"
	aliasRouting = "alias routing (index_routing/search_routing) and alias filters are outside the DESIGN subset"
	dateMath     = "date-math index/alias names are outside the DESIGN subset"
	synthetic    = "synthetic _source is outside the DESIGN subset"
	subobjects   = "subobjects: false is outside the DESIGN subset"
	actionRes    = "update_aliases action_results (8.14+) is outside the DESIGN subset"
	storedFields = "stored_fields / store: true are outside the DESIGN subset"
	docvalues    = "docvalue_fields are outside the DESIGN subset"
	dateNanos    = "date_nanos fields are outside the DESIGN subset"
	dbqTasks     = "delete_by_query wait_for_completion=false with tasks.get, and scroll_size, are outside the DESIGN subset"
	dbqThrottle  = "delete_by_query slices / requests_per_second / scroll_size are outside the DESIGN subset"
	profile      = "search profile is outside the DESIGN subset"
	unmappedAgg  = "terms agg value_type/missing on unmapped fields is outside the DESIGN subset"
)

// SkipList is the one place where tests or steps are left out. Each entry
// names a feature outside DESIGN.md's Elasticsearch subset (the README's
// "Files that use features outside the subset"), or an assertion ES 8
// itself no longer satisfies.
var SkipList = concat(
	[]Entry{
		{File: "delete/11_shard_header.yml", Test: "Delete check shard header", Step: "match _type", Reason: noType},
		{File: "delete/11_shard_header.yml", Test: "Delete check shard header", Step: "do cluster.health", Reason: health},
		{File: "mget/10_basic.yml", Test: "Basic multi-get", Step: "match docs.1._type", Reason: noType},
		{File: "mget/10_basic.yml", Test: "Basic multi-get", Step: "match docs.2._type", Reason: noType},
		{File: "mget/13_missing_metadata.yml", Test: "Missing metadata", Step: "match docs.0._type", Reason: noType},
		{File: "search/20_default_values.yml", Test: "Basic search", Step: "match hits.hits.0._type", Reason: noType},

		{File: "index/10_with_id.yml", Test: "Index with ID", Reason: "non-ASCII index names and the 512-byte id limit are outside the DESIGN subset (README)"},
		{File: "delete/50_refresh.yml", Test: "Refresh", Reason: "needs 5 shards with number_of_routing_shards, routing.rebalance.enable, cluster.health and _routing: outside the DESIGN subset"},
		{File: "create/60_refresh.yml", Test: "Refresh", Reason: "creates its index with routing.rebalance.enable (shard allocation), outside the DESIGN subset"},
		{File: "get/60_realtime_refresh.yml", Test: "Realtime Refresh", Reason: "realtime=false semantics and auto_expand_replicas are outside the DESIGN subset"},
		{File: "mget/60_realtime_refresh.yml", Test: "Realtime Refresh", Reason: "realtime=false semantics, auto_expand_replicas and cluster.health are outside the DESIGN subset"},
		{File: "get/70_source_filtering.yml", Test: "Source filtering", Lines: [2]int{54, 64}, Reason: storedFields},
		{File: "bulk/10_basic.yml", Test: "When setting require_alias flag per request", Reason: "require_alias is outside the DESIGN subset"},
		{File: "bulk/10_basic.yml", Test: "When setting require_alias flag", Reason: "require_alias is outside the DESIGN subset"},
		{File: "count/10_basic.yml", Test: "test negative terminate_after throws IAE", Reason: "terminate_after is outside the DESIGN subset"},

		{File: "indices.create/10_basic.yml", Test: "Create index with wait_for_active_shards set to all", Reason: "wait_for_active_shards is outside the DESIGN subset and absent from the legacy indices.create spec (README known mismatch)"},
		{File: "indices.create/10_basic.yml", Test: "Create index with aliases", Reason: aliasRouting},
		{File: "indices.create/10_basic.yml", Test: "Throw exception for unsupported value type", Reason: aliasRouting},
		{File: "indices.create/10_basic.yml", Test: "Create index without soft deletes", Reason: "index.soft_deletes is outside the DESIGN subset"},
		{File: "indices.create/10_basic.yml", Test: "Create with alias containing date math", Reason: dateMath},
		{File: "indices.create/10_basic.yml", Test: "Create index with invalid runtime field type", Reason: "runtime fields are outside the DESIGN subset"},

		{File: "indices.get/10_basic.yml", Test: "setup", Step: "do indices.close", Reason: closedIdx},
		{File: "indices.get/10_basic.yml", Test: "setup", Step: "do cluster.health", Reason: health},
		{File: "indices.get/10_basic.yml", Test: "Should return test_index_2 if expand_wildcards=open", Reason: closedIdx + "; without the closed index in setup test_index_3 is open"},
		{File: "indices.get/10_basic.yml", Test: "Should return test_index_3 if expand_wildcards=closed", Reason: closedIdx},
		{File: "indices.get/10_basic.yml", Test: "Should return test_index_2 and test_index_3 if expand_wildcards=open,closed", Reason: closedIdx},
		{File: "indices.get_alias/10_basic.yml", Test: "Get alias with local flag", Reason: localParam},
		{File: "indices.get_alias/10_basic.yml", Test: "Get alias against closed indices", Reason: closedIdx},
		{File: "indices.exists/10_basic.yml", Test: "Test indices.exists with local flag", Reason: localParam},
		{File: "indices.get_settings/10_basic.yml", Test: "Get /_settings with local flag", Reason: localParam},
		{File: "indices.put_settings/10_basic.yml", Test: "Test preserve_existing settings", Reason: "preserve_existing, translog.durability, flat_settings and closed indices are outside the DESIGN subset"},

		{File: "indices.put_mapping/10_basic.yml", Test: "enabling synthetic source from explicit succeeds", Reason: synthetic},
		{File: "indices.put_mapping/10_basic.yml", Test: "enabling synthetic source succeeds", Reason: synthetic},
		{File: "indices.put_mapping/10_basic.yml", Test: "enabling synthetic source when no mapping succeeds", Reason: synthetic},
		{File: "indices.put_mapping/10_basic.yml", Test: "modify field type with subobjects:false", Reason: subobjects},
		{File: "indices.put_mapping/10_basic.yml", Test: "modify nested field type with subobjects:false", Reason: subobjects},

		{File: "indices.update_aliases/10_basic.yml", Test: "Basic test for aliases", Reason: aliasRouting},
		{File: "indices.update_aliases/10_basic.yml", Test: "Basic test for multiple aliases", Reason: aliasRouting},
		{File: "indices.update_aliases/10_basic.yml", Test: "Aliases with date math", Reason: dateMath},
		{File: "indices.delete_alias/10_basic.yml", Test: "Basic test for delete alias", Reason: aliasRouting},
		{File: "indices.update_aliases/40_must_exist.yml", Test: "Partial success with must_exist == false", Reason: actionRes},
		{File: "indices.update_aliases/40_must_exist.yml", Test: "Partial success with must_exist == null (default)", Reason: actionRes},
		{File: "indices.update_aliases/40_must_exist.yml", Test: "No action_results field if all actions successful", Reason: actionRes},
		{File: "indices.update_aliases/40_must_exist.yml", Test: "Single result per input action", Reason: actionRes},
		{File: "indices.put_alias/10_basic.yml", Test: "Can create filtered alias with a date_nanos range query", Reason: aliasRouting + "; " + dateNanos},
		{File: "indices.put_alias/10_basic.yml", Test: "Throw exception for unknown token", Reason: aliasRouting + " (the test's errors come from alias routing parsing)"},

		{File: "indices.refresh/10_basic.yml", Test: "setup", Step: "do cluster.health", Reason: health},
		{File: "indices.refresh/10_basic.yml", Test: "Indices refresh test _all", Step: "match _shards.total", Reason: "asserts shard totals of 5-shard indices; multiple shards are outside the DESIGN subset"},
		{File: "indices.refresh/10_basic.yml", Test: "Indices refresh test _all", Step: "match _shards.successful", Reason: "asserts shard totals of 5-shard indices; multiple shards are outside the DESIGN subset"},
		{File: "indices.refresh/10_basic.yml", Test: "Indices refresh test empty array", Step: "match _shards.total", Reason: "asserts shard totals of 5-shard indices; multiple shards are outside the DESIGN subset"},
		{File: "indices.refresh/10_basic.yml", Test: "Indices refresh test empty array", Step: "match _shards.successful", Reason: "asserts shard totals of 5-shard indices; multiple shards are outside the DESIGN subset"},
	},
	searchSkips,
	aggSkips,
	deleteByQuerySkips,
	analysisSkips,
	facetSkips,
	updateSkips,
	vectorSkips,
)

func concat(lists ...[]Entry) []Entry {
	var out []Entry
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// tests skips whole tests of one file for one reason.
func tests(file, reason string, names ...string) []Entry {
	out := make([]Entry, 0, len(names))
	for _, n := range names {
		out = append(out, Entry{File: file, Test: n, Reason: reason})
	}
	return out
}
