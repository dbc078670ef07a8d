package aggs

import (
	"strings"

	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/eserr"
)

// kind is an aggregation type beside the core ones of parse.go, collect.go and
// render.go, which look it up here: its parsing, its collector and its rendering.
type kind struct {
	// params are the body's keys of an aggregation on a field, parsed as the core ones
	// (field, missing, format) before parse; nil for the others, whose body parseRaw
	// reads whole.
	params   []string
	parse    func(a *Agg, body map[string]any) error
	parseRaw func(a *Agg, v any, c *dsl.Context) error
	// build makes its collector; nil collects it as a metric (metric.go).
	build  func(sh *shard, a *Agg, subs []aggregator) (aggregator, error)
	render func(r renderer, a *Agg, p *partial) (map[string]any, error)
	// numeric kinds take number, date and boolean fields only.
	numeric bool
}

func (k *kind) numbers() bool { return k != nil && k.numeric }

var metricParams = []string{"field", "missing", "format"}

var kinds map[string]*kind

func init() {
	kinds = map[string]*kind{
		"avg":            {params: metricParams, render: renderAvg, numeric: true},
		"value_count":    {params: metricParams, render: renderValueCount},
		"stats":          {params: metricParams, render: renderStats, numeric: true},
		"extended_stats": {params: append(metricParams, "sigma"), parse: parseSigma, render: renderExtendedStats, numeric: true},
		"filters":        {parseRaw: parseFilters, build: newFilters, render: renderer.filters},
		"global":         {parseRaw: parseGlobal, build: newGlobal, render: renderer.global},
		"top_hits":       {parseRaw: parseTopHits, build: newTopHits, render: renderer.topHits},
		"range":          {params: rangeParams, parse: parseRanges, build: newRange, render: renderer.ranges, numeric: true},
		"histogram":      {params: histogramParams, parse: parseNumHistogram, build: newNumHistogram, render: renderer.numHistogram, numeric: true},
	}
}

// Extra holds the options of the kinds of this file.
type Extra struct {
	Sigma     float64      // extended_stats
	Filters   *filtersSpec // filters
	Top       *TopHits     // top_hits
	Ranges    []numRange   // range
	Keyed     bool         // range, histogram: buckets by key
	Histogram *numHisto    // histogram
	// DateOffset shifts date_histogram buckets, in milliseconds.
	DateOffset int64
}

func (a *Agg) extra() *Extra {
	if a.X == nil {
		a.X = &Extra{}
	}
	return a.X
}

// parseDateOffset reads a date_histogram offset: a signed fixed interval ("+1d", "-6h").
func (a *Agg) parseDateOffset(v any) error {
	s, ok := v.(string)
	if v == nil {
		return nil
	}
	neg := strings.HasPrefix(s, "-")
	d, err := parseFixed(strings.TrimLeft(s, "+-"))
	if !ok || err != nil {
		return eserr.IllegalArgument("failed to parse setting [date_histogram.offset] with value [%v] as a time value: unit is missing or unrecognized", v)
	}
	if neg {
		d = -d
	}
	a.extra().DateOffset = d.Milliseconds()
	return nil
}

func (a *Agg) dateOffset() int64 {
	if a.X == nil {
		return 0
	}
	return a.X.DateOffset
}
