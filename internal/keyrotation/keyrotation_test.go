package keyrotation

import (
	"reflect"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func key(hash string, issued time.Time) *searchv1alpha1.IssuedKey {
	return &searchv1alpha1.IssuedKey{Hash: hash, Prefix: "aisle_" + hash, IssuedAt: metav1.Time{Time: issued}}
}

func dur(d time.Duration) *metav1.Duration { return &metav1.Duration{Duration: d} }

func TestIssueReasons(t *testing.T) {
	cur := key("h1", t0)
	cases := []struct {
		name   string
		spec   searchv1alpha1.APIKeySpec
		status searchv1alpha1.APIKeyStatus
		secret string
		now    time.Time
		want   Reason
	}{
		{"first key", searchv1alpha1.APIKeySpec{}, searchv1alpha1.APIKeyStatus{}, "", t0, Initial},
		{"steady", searchv1alpha1.APIKeySpec{}, searchv1alpha1.APIKeyStatus{Current: cur}, "h1", t0, None},
		{"secret lost", searchv1alpha1.APIKeySpec{}, searchv1alpha1.APIKeyStatus{Current: cur}, "", t0, Replaced},
		{"secret edited", searchv1alpha1.APIKeySpec{}, searchv1alpha1.APIKeyStatus{Current: cur}, "other", t0, Replaced},
		{"request new", searchv1alpha1.APIKeySpec{Rotation: &searchv1alpha1.KeyRotation{Request: "b"}},
			searchv1alpha1.APIKeyStatus{Current: cur, LastRotationRequest: "a"}, "h1", t0, Requested},
		{"request honoured", searchv1alpha1.APIKeySpec{Rotation: &searchv1alpha1.KeyRotation{Request: "a"}},
			searchv1alpha1.APIKeyStatus{Current: cur, LastRotationRequest: "a"}, "h1", t0, None},
		{"schedule due", searchv1alpha1.APIKeySpec{Rotation: &searchv1alpha1.KeyRotation{Every: dur(time.Hour)}},
			searchv1alpha1.APIKeyStatus{Current: cur}, "h1", t0.Add(time.Hour), Scheduled},
		{"schedule not due", searchv1alpha1.APIKeySpec{Rotation: &searchv1alpha1.KeyRotation{Every: dur(time.Hour)}},
			searchv1alpha1.APIKeyStatus{Current: cur}, "h1", t0.Add(59 * time.Minute), None},
	}
	for _, c := range cases {
		if got := Decide(c.spec, c.status, c.secret, c.now).Issue; got != c.want {
			t.Errorf("%s: Issue = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestRotationKeepsPreviousForOverlap(t *testing.T) {
	spec := searchv1alpha1.APIKeySpec{Rotation: &searchv1alpha1.KeyRotation{Request: "r2", Overlap: dur(2 * time.Hour)}}
	status := searchv1alpha1.APIKeyStatus{Current: key("h1", t0), LastRotationRequest: "r1"}
	now := t0.Add(time.Minute)
	d := Decide(spec, status, "h1", now)
	if d.Issue != Requested || len(d.Previous) != 1 || d.Previous[0].Hash != "h1" {
		t.Fatalf("decision = %+v", d)
	}
	if !d.Previous[0].RevokeAt.Time.Equal(now.Add(2*time.Hour)) || d.RequeueAfter != 2*time.Hour {
		t.Errorf("revokeAt %v requeue %v", d.Previous[0].RevokeAt, d.RequeueAfter)
	}
	if status.Current.RevokeAt != nil {
		t.Error("Decide changed its input")
	}
}

func TestZeroOverlapRevokesAtOnce(t *testing.T) {
	spec := searchv1alpha1.APIKeySpec{Rotation: &searchv1alpha1.KeyRotation{Request: "r2", Overlap: dur(0)}}
	d := Decide(spec, searchv1alpha1.APIKeyStatus{Current: key("h1", t0)}, "h1", t0)
	if d.Issue != Requested || len(d.Previous) != 0 {
		t.Errorf("decision = %+v", d)
	}
}

func TestPreviousDroppedAtRevokeAt(t *testing.T) {
	old := *key("h0", t0)
	old.RevokeAt = &metav1.Time{Time: t0.Add(time.Hour)}
	status := searchv1alpha1.APIKeyStatus{Current: key("h1", t0), Previous: []searchv1alpha1.IssuedKey{old}}
	before := Decide(searchv1alpha1.APIKeySpec{}, status, "h1", t0.Add(30*time.Minute))
	if len(before.Previous) != 1 || before.RequeueAfter != 30*time.Minute {
		t.Errorf("before revokeAt: %+v", before)
	}
	after := Decide(searchv1alpha1.APIKeySpec{}, status, "h1", t0.Add(time.Hour))
	if len(after.Previous) != 0 || len(after.Revoked) != 1 || after.RequeueAfter != 0 {
		t.Errorf("at revokeAt: %+v", after)
	}
}

func TestExpiry(t *testing.T) {
	exp := &metav1.Time{Time: t0.Add(time.Hour)}
	spec := searchv1alpha1.APIKeySpec{ExpiresAt: exp}
	status := searchv1alpha1.APIKeyStatus{Current: key("h1", t0)}
	if d := Decide(spec, status, "h1", t0); d.Expired || d.RequeueAfter != time.Hour {
		t.Errorf("before expiry: %+v", d)
	}
	if d := Decide(spec, status, "", t0.Add(time.Hour)); !d.Expired || d.Issue != None {
		t.Errorf("at expiry: %+v", d)
	}
}

func TestScheduledRequeue(t *testing.T) {
	spec := searchv1alpha1.APIKeySpec{Rotation: &searchv1alpha1.KeyRotation{Every: dur(3 * time.Hour)}}
	d := Decide(spec, searchv1alpha1.APIKeyStatus{Current: key("h1", t0)}, "h1", t0.Add(time.Hour))
	if d.RequeueAfter != 2*time.Hour {
		t.Errorf("requeue = %v", d.RequeueAfter)
	}
	d = Decide(spec, searchv1alpha1.APIKeyStatus{}, "", t0)
	if d.RequeueAfter != 3*time.Hour {
		t.Errorf("requeue after first issue = %v", d.RequeueAfter)
	}
}

func TestEffectiveScopes(t *testing.T) {
	got := EffectiveScopes([]searchv1alpha1.Scope{"write", "search"})
	want := []searchv1alpha1.Scope{"write", "search", "events"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v", got)
	}
	if got := EffectiveScopes([]searchv1alpha1.Scope{"search"}); len(got) != 1 {
		t.Errorf("got %v", got)
	}
}
