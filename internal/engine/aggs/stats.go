package aggs

import (
	"encoding/json"
	"math"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// moments are a metric's values summed up, documents without the field counted with
// the `missing` value when there is one (on an unmapped field, every document).
type moments struct {
	count      int64
	sum, sumSq float64
	min, max   float64
	empty      bool
}

func momentsOf(a *Agg, p *partial) (moments, error) {
	m := moments{count: p.count, sum: p.sum, sumSq: p.sumSq, min: p.min, max: p.max}
	if a.Missing != nil && p.missing > 0 {
		mv, err := a.missingValue()
		if err != nil {
			return m, err
		}
		n := float64(p.missing)
		m.count += p.missing
		m.sum += mv.num * n
		m.sumSq += mv.num * mv.num * n
		m.min, m.max = math.Min(m.min, mv.num), math.Max(m.max, mv.num)
	}
	m.empty = m.count == 0
	return m, nil
}

// orNull is x, or JSON null for a metric without values.
func (m moments) orNull(x float64) any {
	if m.empty {
		return nil
	}
	return x
}

func (m moments) avg() float64 { return m.sum / float64(m.count) }

func renderAvg(_ renderer, a *Agg, p *partial) (map[string]any, error) {
	m, err := momentsOf(a, p)
	if err != nil {
		return nil, err
	}
	return map[string]any{"value": m.orNull(m.avg())}, nil
}

// renderValueCount counts values (of any type); `missing` counts as one value.
func renderValueCount(_ renderer, a *Agg, p *partial) (map[string]any, error) {
	n := p.count
	if a.Missing != nil {
		n += p.missing
	}
	return map[string]any{"value": n}, nil
}

func renderStats(_ renderer, a *Agg, p *partial) (map[string]any, error) {
	m, err := momentsOf(a, p)
	if err != nil {
		return nil, err
	}
	return m.stats(), nil
}

func (m moments) stats() map[string]any {
	return map[string]any{"count": m.count, "min": m.orNull(m.min), "max": m.orNull(m.max),
		"avg": m.orNull(m.avg()), "sum": m.sum}
}

// renderExtendedStats adds ES's variance and standard deviation (population and
// sample) and the bounds sigma deviations around the mean.
func renderExtendedStats(_ renderer, a *Agg, p *partial) (map[string]any, error) {
	m, err := momentsOf(a, p)
	if err != nil {
		return nil, err
	}
	out := m.stats()
	n := float64(m.count)
	variance := math.Max(0, (m.sumSq-m.sum*m.sum/n)/n)
	sampling := math.Max(0, (m.sumSq-m.sum*m.sum/n)/(n-1))
	std, stdSampling := math.Sqrt(variance), math.Sqrt(sampling)
	sigma, avg := a.X.Sigma, m.avg()
	out["sum_of_squares"] = m.orNull(m.sumSq)
	for k, v := range map[string]float64{"variance": variance, "variance_population": variance,
		"variance_sampling": sampling, "std_deviation": std, "std_deviation_population": std,
		"std_deviation_sampling": stdSampling} {
		out[k] = m.orNull(v)
	}
	out["std_deviation_bounds"] = map[string]any{
		"upper": m.orNull(avg + sigma*std), "lower": m.orNull(avg - sigma*std),
		"upper_population": m.orNull(avg + sigma*std), "lower_population": m.orNull(avg - sigma*std),
		"upper_sampling": m.orNull(avg + sigma*stdSampling), "lower_sampling": m.orNull(avg - sigma*stdSampling),
	}
	return out, nil
}

// parseSigma reads extended_stats' sigma (2 by default, not negative).
func parseSigma(a *Agg, body map[string]any) error {
	x := a.extra()
	x.Sigma = 2
	v, ok := body["sigma"]
	if !ok {
		return nil
	}
	n, isNum := v.(json.Number)
	f, err := n.Float64()
	if !isNum || err != nil {
		return eserr.XContentParse("[1:1] [extended_stats] failed to parse field [sigma]")
	}
	if f < 0 {
		return eserr.IllegalArgument("[sigma] must be greater than or equal to 0. Found [%s] in [%s]", javaDouble(f), a.Name)
	}
	x.Sigma = f
	return nil
}
