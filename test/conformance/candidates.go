package conformance

import (
	"fmt"
	"os"
	"path/filepath"
)

// Candidates are the files of candidates/ (Elasticsearch's tests for APIs that were
// outside the subset when the files were gathered) whose API the engine has since added
// to the subset: the suite runs them beside test/, so the new API is held to
// Elasticsearch's own tests.
var Candidates = []string{
	"search.aggregation/130_sum_metric.yml", // sum: the Events page's revenue and counts
	"mlt/10_basic.yml",                      // more_like_this: similar products
	"mlt/20_docs.yml",
	"mlt/25_docs_one_shard.yml",
	"mlt/30_unlike.yml",
	"search.aggregation/30_sig_terms.yml", // significant_terms: goes with
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
