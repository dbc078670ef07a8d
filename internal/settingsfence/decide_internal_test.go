package settingsfence

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stypes "k8s.io/apimachinery/pkg/types"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

func TestDecide(t *testing.T) {
	bound := 250 * time.Millisecond
	for _, c := range []struct {
		name string
		held bool
		age  time.Duration
		want use
	}{
		{"no mark read yet", false, 0, readNow},
		{"read just now", true, 0, useHeld},
		{"read less than half the bound ago", true, 124 * time.Millisecond, useHeld},
		{"read half the bound ago", true, 125 * time.Millisecond, useRefresh},
		{"read just under the bound ago", true, 249 * time.Millisecond, useRefresh},
		{"read the bound ago", true, bound, readNow},
		{"read long ago", true, time.Hour, readNow},
	} {
		if got := decide(c.held, c.age, bound); got != c.want {
			t.Errorf("%s: decide(%v, %v) = %v, want %v", c.name, c.held, c.age, got, c.want)
		}
	}
}

func TestMarkHeldBy(t *testing.T) {
	index := func(uid string, gen int64) *searchv1alpha1.SearchIndex {
		return &searchv1alpha1.SearchIndex{ObjectMeta: metav1.ObjectMeta{UID: k8stypes.UID("u" + uid), Generation: gen}}
	}
	for _, c := range []struct {
		name string
		mark Mark
		idx  *searchv1alpha1.SearchIndex
		want bool
	}{
		{"no mark", Mark{}, index("1", 1), true},
		{"the generation written", Mark{UID: "u1", Generation: 4}, index("1", 4), true},
		{"a later generation", Mark{UID: "u1", Generation: 4}, index("1", 5), true},
		{"an earlier generation", Mark{UID: "u1", Generation: 4}, index("1", 3), false},
		{"another object of the same name", Mark{UID: "u1", Generation: 4}, index("2", 1), true},
	} {
		if got := c.mark.HeldBy(c.idx); got != c.want {
			t.Errorf("%s: %+v.HeldBy(generation %d) = %v, want %v", c.name, c.mark, c.idx.Generation, got, c.want)
		}
	}
}

func TestMarkRaises(t *testing.T) {
	for _, c := range []struct {
		name       string
		prev, next Mark
		want       bool
	}{
		{"no mark yet", Mark{}, Mark{UID: "u1", Generation: 1}, true},
		{"a later generation", Mark{UID: "u1", Generation: 3}, Mark{UID: "u1", Generation: 4}, true},
		{"the same generation", Mark{UID: "u1", Generation: 4}, Mark{UID: "u1", Generation: 4}, false},
		{"an earlier generation, written by a slower replica", Mark{UID: "u1", Generation: 5}, Mark{UID: "u1", Generation: 4}, false},
		{"an index created again", Mark{UID: "u1", Generation: 9}, Mark{UID: "u2", Generation: 2}, true},
	} {
		if got := c.next.raises(c.prev); got != c.want {
			t.Errorf("%s: %+v.raises(%+v) = %v, want %v", c.name, c.next, c.prev, got, c.want)
		}
	}
}
