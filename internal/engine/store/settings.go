package store

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// Settings are index settings in ES's flat form ("index.number_of_shards": "1"); values are
// strings or string lists, as ES stores them.
type Settings struct {
	Flat map[string]any
}

// FlattenSettings turns a nested or flat settings body into flat keys prefixed "index.".
func FlattenSettings(raw map[string]any) map[string]any {
	out := map[string]any{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, vv := range x {
				p := k
				if prefix != "" {
					p = prefix + "." + k
				}
				walk(p, vv)
			}
		case []any:
			list := make([]any, len(x))
			for i, e := range x {
				list[i] = scalar(e)
			}
			out[prefix] = list
		default:
			out[prefix] = scalar(x)
		}
	}
	walk("", raw)
	fixed := map[string]any{}
	for k, v := range out {
		if !strings.HasPrefix(k, "index.") {
			k = "index." + k
		}
		fixed[k] = v
	}
	return fixed
}

func scalar(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

var dynamicSettings = map[string]bool{
	"index.number_of_replicas": true, "index.refresh_interval": true, "index.max_result_window": true,
	"index.auto_expand_replicas": true, "index.max_docvalue_fields_search": true, "index.max_script_fields": true,
	"index.max_terms_count": true, "index.max_inner_result_window": true, "index.hidden": true,
	"index.priority": true, "index.query.default_field": true, "index.max_ngram_diff": true,
	"index.translog.durability": true, "index.search.idle.after": true, "index.max_shingle_diff": true,
	"index.max_rescore_window": true, "index.max_regex_length": true, "index.default_pipeline": true,
	"index.final_pipeline": true, "index.gc_deletes": true, "index.analyze.max_token_count": true,
	"index.highlight.max_analyzed_offset": true,
}

var staticSettings = map[string]bool{
	"index.number_of_shards": true, "index.codec": true, "index.number_of_routing_shards": true,
	"index.uuid": true, "index.creation_date": true, "index.provided_name": true, "index.version.created": true,
	"index.sort.field": true, "index.sort.order": true, "index.mode": true,
}

func knownSetting(k string) bool {
	if dynamicSettings[k] || staticSettings[k] {
		return true
	}
	for _, p := range []string{"index.analysis.", "index.blocks.", "index.routing.", "index.mapping.", "index.merge.", "index.similarity.", "index.lifecycle.", "index.translog.", "index.store.", "index.unassigned."} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

func isDynamic(k string) bool {
	if dynamicSettings[k] {
		return true
	}
	for _, p := range []string{"index.blocks.", "index.routing.", "index.mapping.", "index.merge.", "index.lifecycle.", "index.unassigned."} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// ValidateNew checks settings for index creation, filling ES's defaults.
func ValidateNew(flat map[string]any) error {
	for k, v := range flat {
		if !knownSetting(k) {
			return eserr.IllegalArgument("unknown setting [%s] please check that any required plugins are installed, or check the breaking changes documentation for removed settings", k)
		}
		if err := validateValue(k, v); err != nil {
			return err
		}
	}
	if _, ok := flat["index.number_of_shards"]; !ok {
		flat["index.number_of_shards"] = "1"
	}
	if _, ok := flat["index.number_of_replicas"]; !ok {
		flat["index.number_of_replicas"] = "1"
	}
	return nil
}

func validateValue(k string, v any) error {
	s, _ := v.(string)
	switch k {
	case "index.number_of_shards":
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return eserr.IllegalArgument("Failed to parse value [%s] for setting [index.number_of_shards] must be >= 1", s)
		}
	case "index.number_of_replicas", "index.max_result_window", "index.max_docvalue_fields_search", "index.max_terms_count":
		n, err := strconv.Atoi(s)
		if err != nil {
			return eserr.IllegalArgument("Failed to parse value [%s] for setting [%s]", s, k)
		}
		if n < 0 || (n < 1 && k == "index.max_result_window") {
			return eserr.IllegalArgument("Failed to parse value [%s] for setting [%s] must be >= %d", s, k, map[bool]int{true: 1, false: 0}[k == "index.max_result_window"])
		}
	case "index.refresh_interval":
		if _, err := parseDuration(s); err != nil {
			return eserr.IllegalArgument("failed to parse setting [index.refresh_interval] with value [%s] as a time value: unit is missing or unrecognized", s)
		}
	}
	return checkActionable(k, s)
}

// onlyAtDefault lists settings that would change what the engine does but that it does
// not act on (ingest pipelines, index modes, hidden indices, a query default field): they
// are accepted at the value that means ES's default behaviour and refused otherwise, so
// that no request is silently served as if they were unset.
var onlyAtDefault = map[string]string{
	"index.default_pipeline": "_none", "index.final_pipeline": "_none", "index.mode": "standard",
	"index.hidden": "false", "index.query.default_field": "*",
}

// checkActionable refuses a setting value the engine would store but not honour.
// index.gc_deletes is refused at any value: the engine keeps tombstones for good
// (docs/engine.md), which no value of it describes.
func checkActionable(k, s string) error {
	def, defaultOnly := onlyAtDefault[k]
	if k == "index.gc_deletes" || (defaultOnly && !strings.EqualFold(s, def)) {
		return eserr.IllegalArgument("setting [%s] with value [%s] is not supported by this engine", k, s)
	}
	return nil
}

// ValidateUpdate checks a settings update against the current settings of an open index.
func ValidateUpdate(cur, upd map[string]any, index, uuid string) error {
	var static []string
	for k, v := range upd {
		if !knownSetting(k) {
			return eserr.IllegalArgument("unknown setting [%s] please check that any required plugins are installed, or check the breaking changes documentation for removed settings", k)
		}
		if v != nil {
			if err := validateValue(k, v); err != nil {
				return err
			}
		}
		if !isDynamic(k) && fmt.Sprint(cur[k]) != fmt.Sprint(v) {
			static = append(static, k)
		}
	}
	if len(static) > 0 {
		sort.Strings(static)
		return eserr.IllegalArgument("Can't update non dynamic settings [[%s]] for open indices [[%s/%s]]", strings.Join(static, ", "), index, uuid)
	}
	return nil
}

func parseDuration(s string) (time.Duration, error) {
	if s == "-1" {
		return -1, nil
	}
	units := []struct {
		suf string
		d   time.Duration
	}{{"nanos", time.Nanosecond}, {"micros", time.Microsecond}, {"ms", time.Millisecond}, {"s", time.Second}, {"m", time.Minute}, {"h", time.Hour}, {"d", 24 * time.Hour}}
	for _, u := range units {
		if strings.HasSuffix(s, u.suf) {
			n, err := strconv.ParseFloat(strings.TrimSuffix(s, u.suf), 64)
			if err != nil || n < 0 {
				return 0, fmt.Errorf("bad duration")
			}
			return time.Duration(n * float64(u.d)), nil
		}
	}
	return 0, fmt.Errorf("bad duration")
}

// RefreshInterval is index.refresh_interval (default 1s; negative disables).
func (s *Settings) RefreshInterval() time.Duration {
	v, _ := s.Flat["index.refresh_interval"].(string)
	if v == "" {
		return time.Second
	}
	d, err := parseDuration(v)
	if err != nil {
		return time.Second
	}
	return d
}

// Int returns an integer setting or a default.
func (s *Settings) Int(key string, def int) int {
	v, _ := s.Flat[key].(string)
	if n, err := strconv.Atoi(v); err == nil {
		return n
	}
	return def
}

// MaxResultWindow is index.max_result_window (default 10,000).
func (s *Settings) MaxResultWindow() int { return s.Int("index.max_result_window", 10000) }

// Nested renders the flat settings as ES's nested form.
func (s *Settings) Nested() map[string]any { return Unflatten(s.Flat) }

// Unflatten turns dotted keys into nested objects.
func Unflatten(flat map[string]any) map[string]any {
	out := map[string]any{}
	keys := make([]string, 0, len(flat))
	for k := range flat {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts := strings.Split(k, ".")
		m := out
		for _, p := range parts[:len(parts)-1] {
			next, ok := m[p].(map[string]any)
			if !ok {
				next = map[string]any{}
				m[p] = next
			}
			m = next
		}
		m[parts[len(parts)-1]] = flat[k]
	}
	return out
}

// AnalysisTree returns the nested "analysis" block or nil.
func (s *Settings) AnalysisTree() any {
	sub := map[string]any{}
	for k, v := range s.Flat {
		if strings.HasPrefix(k, "index.analysis.") {
			sub[strings.TrimPrefix(k, "index.analysis.")] = v
		}
	}
	if len(sub) == 0 {
		return nil
	}
	return Unflatten(sub)
}
