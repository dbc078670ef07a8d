package searchlog_test

import (
	"errors"
	"testing"
	"unicode/utf8"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/events"
	"github.com/aislehq/aisle/internal/searchlog"
	"github.com/aislehq/aisle/internal/searchquery"
)

// FuzzSuggest: any parameters of GET /suggestions are a request or a bad parameter
// (400), never a panic; a request's suggestions stay within its limit and come from the
// candidates searched on enough days.
func FuzzSuggest(f *testing.F) {
	f.Add("cot", "5", "true", "cotton tee")
	f.Add("\xff", "0", "yes", "")
	f.Add("wool s ", "+20", "false", "wool socks")
	f.Fuzz(func(t *testing.T, q, limit, categories, past string) {
		req, err := searchlog.ParseRequest(q, limit, categories)
		if err != nil {
			if !errors.Is(err, events.ErrBadParameter) {
				t.Fatalf("q=%q limit=%q categories=%q: %v is no bad parameter", q, limit, categories, err)
			}
			return
		}
		if !utf8.ValidString(req.Q) || req.Limit < 1 || req.Limit > searchlog.MaxSuggestions {
			t.Fatalf("q=%q limit=%q: accepted %+v", q, limit, req)
		}
		candidates := []searchlog.Candidate{{Query: past, Searches: 3, Days: 3, Hits: 1}, {Query: past + " x", Searches: 9, Days: 1, Hits: 1}}
		m := searchquery.NewSuggestionMatcher(req.Q, searchv1alpha1.IndexSettings{}, []string{"x"})
		list := searchlog.Suggest(candidates, 2, req.Limit, m)
		if len(list) > 1 || (len(list) == 1 && list[0].Query != past) {
			t.Fatalf("q=%q past=%q: suggested %+v", q, past, list)
		}
	})
}
