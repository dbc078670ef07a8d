package httpapi

import (
	"sort"
	"strings"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// commonParams are the parameters every ES endpoint takes (BaseRestHandler's
// ALWAYS_SUPPORTED, and error_trace, which the REST controller reads). Timeouts are not
// among them: each API that takes one lists it.
var commonParams = []string{"pretty", "human", "error_trace", "filter_path", "format"}

// The query parameters of the APIs the engine serves, as Elasticsearch 8 names them (its
// REST API specification and the typed client agree on these). A parameter outside its
// API's list is answered 400, as ES answers it.
var (
	resolveParams = []string{"ignore_unavailable", "allow_no_indices", "expand_wildcards"}
	// ackParams: index-metadata changes, acknowledged by the master within a timeout.
	ackParams         = []string{"master_timeout", "timeout"}
	createIndexParams = with(ackParams, "wait_for_active_shards")
	deleteIndexParams = with(resolveParams, ackParams...)
	existsIndexParams = with(resolveParams, "local", "flat_settings", "include_defaults")
	getIndexParams    = with(existsIndexParams, "features", "master_timeout")
	aliasReadParams   = with(resolveParams, "local")
	getMappingParams  = with(resolveParams, "local", "master_timeout")
	putMappingParams  = with(resolveParams, "write_index_only", "master_timeout", "timeout")
	getSettingsParams = with(resolveParams, "flat_settings", "include_defaults", "local", "master_timeout")
	putSettingsParams = with(resolveParams, "preserve_existing", "flat_settings", "reopen", "master_timeout", "timeout")
	deleteDocParams   = []string{"if_seq_no", "if_primary_term", "refresh", "routing", "timeout", "version", "version_type", "wait_for_active_shards"}
	healthParams      = []string{"level", "local", "master_timeout", "timeout", "wait_for_active_shards", "wait_for_nodes", "wait_for_events",
		"wait_for_no_relocating_shards", "wait_for_no_initializing_shards", "wait_for_status", "expand_wildcards"}
	// analyzeParams: _analyze names its index in the path or here.
	analyzeParams = []string{"index"}
	statsParams   = with(resolveParams, "level", "completion_fields", "fielddata_fields", "fields", "groups",
		"include_segment_file_sizes", "include_unloaded_segments", "forbid_closed_indices")
)

// checkParams refuses the request's parameters outside allowed and the common ones, all of
// them in one message, sorted, in ES's words.
func checkParams(q *req, allowed []string) *eserr.Error {
	var unknown []string
	for k := range q.params {
		if !isOneOf(k, allowed) && !isOneOf(k, commonParams) {
			unknown = append(unknown, "["+k+"]")
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	plural := ""
	if len(unknown) > 1 {
		plural = "s"
	}
	return eserr.IllegalArgument("request [%s] contains unrecognized parameter%s: %s", q.r.URL.Path, plural, strings.Join(unknown, ", "))
}

func isOneOf(s string, list []string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

func with(base []string, more ...string) []string {
	out := append([]string{}, base...)
	return append(out, more...)
}
