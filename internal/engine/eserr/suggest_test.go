package eserr

import "testing"

func TestDidYouMean(t *testing.T) {
	cases := map[string]string{
		"jlp": " did you mean [jlh]?",
		"foo": "",
		"gnp": " did you mean [gnd]?",
	}
	for field, want := range cases {
		if got := DidYouMean(field, []string{"jlh", "gnd", "percentage"}); got != want {
			t.Errorf("DidYouMean(%q) = %q, want %q", field, got, want)
		}
	}
	if got := DidYouMean("foo", []string{"bar", "fop", "fou", "baz"}); got != " did you mean any of [fop, fou]?" {
		t.Errorf("several candidates: %q", got)
	}
}
