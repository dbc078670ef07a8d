package apiserver

import (
	"encoding/json"
	"fmt"
	"math"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/strictjson"
)

// reRankingBody is the wire form of reRanking: its strength names its range when a
// value falls outside it, which the generic integer decoding cannot (issue 35).
type reRankingBody struct {
	Enabled     bool    `json:"enabled,omitempty"`
	MinSearches int32   `json:"minSearches,omitempty"`
	Strength    percent `json:"strength,omitempty"`
}

// percent is a whole percentage from 1 to 100 (0: absent, the default).
type percent int32

// UnmarshalJSON takes an integer from 1 to 100, naming the range otherwise.
func (p *percent) UnmarshalJSON(b []byte) error {
	var f float64
	if err := json.Unmarshal(b, &f); err != nil || f != math.Trunc(f) || f < 1 || f > 100 {
		return &strictjson.Problem{Msg: fmt.Sprintf("must be an integer from %d to %d, not %s", 1, 100, b)}
	}
	*p = percent(f)
	return nil
}

func reRankingBodyOf(r *searchv1alpha1.ReRanking) *reRankingBody {
	if r == nil {
		return nil
	}
	return &reRankingBody{Enabled: r.Enabled, MinSearches: r.MinSearches, Strength: percent(r.Strength)}
}

func (b *reRankingBody) reRanking() *searchv1alpha1.ReRanking {
	if b == nil {
		return nil
	}
	return &searchv1alpha1.ReRanking{Enabled: b.Enabled, MinSearches: b.MinSearches, Strength: int32(b.Strength)}
}
