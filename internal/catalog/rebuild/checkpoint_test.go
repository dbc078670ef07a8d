package rebuild

import (
	"testing"
	"time"
)

func TestDecideRebuild(t *testing.T) {
	now := time.UnixMilli(1_000_000)
	lapsed := rebuildDoc{SettingsHash: "b", Source: "idx-1", Target: "idx-2", Owner: "dead", Deadline: now.UnixMilli() - 1}
	with := func(change func(*rebuildDoc)) rebuildDoc {
		d := lapsed
		change(&d)
		return d
	}
	world := rebuildWorld{found: true, alias: "idx-1", targetExists: true, want: "b", now: now}
	for _, tc := range []struct {
		name string
		doc  rebuildDoc
		w    func(*rebuildWorld)
		want rebuildAction
	}{
		{"no checkpoint: start", rebuildDoc{}, func(w *rebuildWorld) { w.found = false }, rebuildFresh},
		{"lapsed, same settings, source still live: resume", lapsed, nil, rebuildResume},
		{"released by a run that stopped: resume at once", with(func(d *rebuildDoc) { d.Deadline = 0 }), nil, rebuildResume},
		{"live lease: wait", with(func(d *rebuildDoc) { d.Deadline = now.UnixMilli() + 1 }), nil, rebuildWait},
		{"live lease for other settings: wait too", with(func(d *rebuildDoc) { d.Deadline = now.Add(time.Second).UnixMilli() }),
			func(w *rebuildWorld) { w.want = "c" }, rebuildWait},
		{"lease ends exactly now: lapsed", with(func(d *rebuildDoc) { d.Deadline = now.UnixMilli() }), nil, rebuildResume},
		{"settings changed meanwhile: restart", lapsed, func(w *rebuildWorld) { w.want = "c" }, rebuildRestart},
		{"target gone: restart", lapsed, func(w *rebuildWorld) { w.targetExists = false }, rebuildRestart},
		{"replaced meanwhile: restart", lapsed, func(w *rebuildWorld) { w.alias = "idx-3" }, rebuildRestart},
		{"alias already on the target: settle", lapsed, func(w *rebuildWorld) { w.alias = "idx-2" }, rebuildSettle},
		{"alias on the target, other settings wanted: settle first", lapsed,
			func(w *rebuildWorld) { w.alias, w.want = "idx-2", "c" }, rebuildSettle},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := world
			if tc.w != nil {
				tc.w(&w)
			}
			if got := decideRebuild(tc.doc, w); got != tc.want {
				t.Fatalf("decideRebuild = %v, want %v", got, tc.want)
			}
		})
	}
}
