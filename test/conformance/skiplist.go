package conformance

// ClusterFeatures are the named cluster features (`requires`/`skip`
// `cluster_features`) the engine is taken to have. Synthetic gte_vX.Y.Z
// features come from the version GET / reports.
var ClusterFeatures = map[string]bool{}

// SkipList is the one place where tests or steps are left out. Each entry
// names a feature outside DESIGN.md's Elasticsearch subset, or an assertion
// ES 8 itself no longer satisfies (README "Assertions that do not hold").
var SkipList = []Entry{}
