package yamlrest

import (
	"fmt"
	"sort"
	"strings"
)

// SupportedFeatures lists the test runner features (FORMAT.asciidoc,
// "Available test runner features") this runner implements. A test that
// needs any other one is skipped, as ES's own runner does, and the reason
// names the feature.
var SupportedFeatures = map[string]bool{
	"headers":                true,
	"warnings":               true,
	"warnings_regex":         true,
	"allowed_warnings":       true,
	"allowed_warnings_regex": true,
	"contains":               true,
	"close_to":               true,
	"stash_in_key":           true,
	"stash_in_path":          true,
	"embedded_stash_key":     true,
	"arbitrary_key":          true,
	"catch_unauthorized":     true,
	// The engine runs indices with the distribution's default shard count,
	// the condition this feature stands for.
	"default_shards": true,
}

// Env is what skip and requires sections are evaluated against.
type Env struct {
	// Version is the server's version.number from GET /.
	Version Version
	// ClusterFeatures are the named cluster features the server is taken to
	// have; synthetic gte_vX.Y.Z features are derived from Version.
	ClusterFeatures map[string]bool
}

func (e Env) hasClusterFeature(f string) (bool, error) {
	if strings.HasPrefix(f, "gte_v") {
		v, err := ParseVersion(strings.TrimPrefix(f, "gte_v"))
		if err != nil {
			return false, err
		}
		return e.Version.Compare(v) >= 0, nil
	}
	return e.ClusterFeatures[f], nil
}

// SkipReason evaluates one skip or requires step; "" means run the test.
func (e Env) SkipReason(s Step) (string, error) {
	m, ok := s.Arg.(map[string]any)
	if !ok {
		return "", fmt.Errorf("%s: %s needs a mapping", s, s.Op)
	}
	reason := scalarString(m["reason"])
	var why string
	var err error
	if s.Op == "requires" {
		why, err = e.requiresReason(m)
	} else {
		why, err = e.skipReason(m)
	}
	if err != nil || why == "" {
		return "", err
	}
	if reason != "" {
		why += " (" + reason + ")"
	}
	return why, nil
}

func (e Env) requiresReason(m map[string]any) (string, error) {
	if f := unsupported(m["test_runner_features"]); f != "" {
		return "runner feature [" + f + "] not supported", nil
	}
	for _, f := range stringList(m["cluster_features"]) {
		has, err := e.hasClusterFeature(f)
		if err != nil || !has {
			return "cluster feature [" + f + "] absent", err
		}
	}
	return "", nil
}

func (e Env) skipReason(m map[string]any) (string, error) {
	if f := unsupported(m["features"]); f != "" {
		return "runner feature [" + f + "] not supported", nil
	}
	if _, ok := m["awaits_fix"]; ok {
		return "awaits fix " + scalarString(m["awaits_fix"]), nil
	}
	if v, ok := m["version"]; ok {
		in, err := e.Version.InRanges(scalarString(v))
		if err != nil || in {
			return fmt.Sprintf("version %s in skip range [%s]", e.Version, scalarString(v)), err
		}
	}
	for _, f := range stringList(m["cluster_features"]) {
		has, err := e.hasClusterFeature(f)
		if err != nil || has {
			return "cluster feature [" + f + "] present", err
		}
	}
	return e.knownIssue(m["known_issues"])
}

func (e Env) knownIssue(v any) (string, error) {
	issues, _ := v.([]any)
	for _, i := range issues {
		im, _ := i.(map[string]any)
		has, err := e.hasClusterFeature(scalarString(im["cluster_feature"]))
		if err != nil {
			return "", err
		}
		fixed, err := e.hasClusterFeature(scalarString(im["fixed_by"]))
		if err != nil {
			return "", err
		}
		if has && !fixed {
			return "known issue " + scalarString(im["cluster_feature"]), nil
		}
	}
	return "", nil
}

// unsupported returns the first listed runner feature not implemented.
func unsupported(v any) string {
	list := stringList(v)
	sort.Strings(list)
	for _, f := range list {
		if !SupportedFeatures[f] {
			return f
		}
	}
	return ""
}

func stringList(v any) []string {
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			out = append(out, scalarString(e))
		}
		return out
	}
	return []string{scalarString(v)}
}
