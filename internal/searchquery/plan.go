package searchquery

// Plan is a search compiled (Compile): the bodies it sends and what shaping their
// answers needs, two things the driver uses at two moments (sending a round, reading its
// answers).
type Plan struct {
	Bodies  Bodies
	Shaping Shaping
}

// Bodies are the Elasticsearch bodies of one search, every one built by Compile.
type Bodies struct {
	// Search is the body of the search for its organic hits.
	Search []byte
	// Pinned is the body of the search for the records the rules promote (nil: none).
	Pinned []byte
	// Merge is the distinct merge round's (nil: the search does not group). It is sent
	// only when records without the distinct field match (Shaping.Ungrouped).
	Merge *MergeBodies
}

// MergeBodies are the bodies of a distinct search's merge round (distinctmerge.go): the
// records holding the distinct field (collapsed) and those without it, from the first
// hit to the end of the page.
type MergeBodies struct {
	Grouped, Single []byte
}

// Shaping is what turning the answers of a plan's bodies into the API response needs
// (Shape, ShapePinned, ShapeMerged).
type Shaping struct {
	Limit  int
	Offset int
	// Facets are the requested facet paths, in the order of the aggregations f0, f1, ...
	Facets []string
	// Retry: when the search matches nothing, a plan with one more word dropped from the
	// end may match (matchingStrategy all, more than one word left).
	Retry bool
	// IgnoredWords are the query words this plan does not use.
	IgnoredWords []string
	// Organic is the window of organic hits Bodies.Search asks for: the page's, or with
	// promoted records the one their places leave (RuleChanges.Window).
	Organic   Window
	highlight *highlightPlan
	explain   *explainPlan
	// facets lay out the facets' aggregations; distinct groups the hits (nil: not).
	facets   []facetAgg
	distinct *distinctPlan
}

// Grouped reports a plan that groups its hits (distinct): the backend refuses it when a
// record holds several values of the field.
func (p Shaping) Grouped() bool { return p.distinct != nil }
