package plan

import (
	"testing"
	"time"
)

func TestAdmitted(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	entries := []Entry{
		{Name: "c", Created: t0.Add(time.Second)},
		{Name: "b", Created: t0},
		{Name: "a", Created: t0},
		{Name: "d", Created: t0.Add(2 * time.Second)},
	}
	cases := []struct {
		max  int
		want []string
	}{
		{0, nil},
		{1, []string{"a"}},
		{2, []string{"a", "b"}},
		{3, []string{"a", "b", "c"}},
		{10, []string{"a", "b", "c", "d"}},
	}
	for _, c := range cases {
		got := Admitted(entries, c.max)
		if len(got) != len(c.want) {
			t.Errorf("max %d: got %v, want %v", c.max, got, c.want)
		}
		for _, n := range c.want {
			if !got[n] {
				t.Errorf("max %d: %s not admitted (%v)", c.max, n, got)
			}
		}
	}
	if entries[0].Name != "c" {
		t.Error("Admitted reordered its input")
	}
}
