package docupdate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

func TestMerge(t *testing.T) {
	cases := []struct {
		name, cur, doc, want string
		changed              bool
	}{
		{"replaces a value", `{"a":1,"b":2}`, `{"a":3}`, `{"a":3,"b":2}`, true},
		{"adds a field after the others", `{"b":1}`, `{"a":1}`, `{"b":1,"a":1}`, true},
		{"merges objects field by field", `{"n":{"one":1,"two":2}}`, `{"n":{"one":3}}`, `{"n":{"one":3,"two":2}}`, true},
		{"replaces arrays whole", `{"t":["a","b"]}`, `{"t":["c"]}`, `{"t":["c"]}`, true},
		{"an object replaces a scalar", `{"n":1}`, `{"n":{"x":1}}`, `{"n":{"x":1}}`, true},
		{"null replaces a value", `{"a":1}`, `{"a":null}`, `{"a":null}`, true},
		{"the same values change nothing", `{"a":1,"n":{"x":"y"}}`, `{"a":1,"n":{"x":"y"}}`, `{"a":1,"n":{"x":"y"}}`, false},
		{"an empty doc changes nothing", `{"a":1}`, `{}`, `{"a":1}`, false},
		{"1 and 1.0 differ, as ES's integer and double", `{"a":1}`, `{"a":1.0}`, `{"a":1.0}`, true},
	}
	for _, c := range cases {
		got, changed, err := Merge([]byte(c.cur), []byte(c.doc))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if string(got) != c.want || changed != c.changed {
			t.Errorf("%s: Merge = %s, %v; want %s, %v", c.name, got, changed, c.want, c.changed)
		}
	}
}

func TestApply(t *testing.T) {
	cases := []struct {
		name, body, cur, want string
		noop                  bool
		status                int
	}{
		{"merges doc into the document", `{"doc":{"a":2}}`, `{"a":1}`, `{"a":2}`, false, 0},
		{"a missing document without upsert is a 404", `{"doc":{"a":2}}`, "", "", false, 404},
		{"upsert creates a missing document", `{"doc":{"a":2},"upsert":{"a":0}}`, "", `{"a":0}`, false, 0},
		{"upsert is ignored when the document exists", `{"doc":{"a":2},"upsert":{"a":0}}`, `{"a":1}`, `{"a":2}`, false, 0},
		{"doc_as_upsert creates from doc", `{"doc":{"a":2},"doc_as_upsert":true}`, "", `{"a":2}`, false, 0},
		{"an unchanged document is a noop", `{"doc":{"a":1}}`, `{"a":1}`, `{"a":1}`, true, 0},
		{"detect_noop false writes anyway", `{"doc":{"a":1},"detect_noop":false}`, `{"a":1}`, `{"a":1}`, false, 0},
	}
	for _, c := range cases {
		r, err := Parse([]byte(c.body), "7", false)
		if err != nil {
			t.Fatalf("%s: Parse: %v", c.name, err)
		}
		var cur []byte
		if c.cur != "" {
			cur = []byte(c.cur)
		}
		src, noop, err := r.Apply(cur)
		if c.status != 0 {
			if e := eserr.As(err); err == nil || e.Status != c.status {
				t.Errorf("%s: err = %v, want status %d", c.name, err, c.status)
			}
			continue
		}
		if err != nil || string(src) != c.want || noop != c.noop {
			t.Errorf("%s: Apply = %s, %v, %v; want %s, %v", c.name, src, noop, err, c.want, c.noop)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	cases := []struct {
		name, body    string
		cas           bool
		typ, contains string
	}{
		{"a script", `{"script":{"source":"ctx._source.n++"}}`, false, "illegal_argument_exception", "scripts are not supported"},
		{"a misspelled field", `{"dac":{"a":1}}`, false, "x_content_parse_exception", "unknown field [dac] did you mean [doc]?"},
		{"no doc", `{"upsert":{"a":1}}`, false, "action_request_validation_exception", "script or doc is missing"},
		{"upsert with if_seq_no", `{"doc":{"a":1},"doc_as_upsert":true}`, true, "action_request_validation_exception", "upsert requests don't support"},
		{"a doc that is not an object", `{"doc":[1]}`, false, "x_content_parse_exception", "failed to parse field [doc]"},
		{"not JSON", `{"doc":`, false, "x_content_parse_exception", "failed to parse"},
		{"detect_noop not a boolean", `{"doc":{},"detect_noop":3}`, false, "x_content_parse_exception", "[detect_noop]"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.body), "1", c.cas)
		e := eserr.As(err)
		if err == nil || e.Type != c.typ || !strings.Contains(e.Reason, c.contains) || e.Status != 400 {
			t.Errorf("%s: err = %v, want a 400 %s containing %q", c.name, err, c.typ, c.contains)
		}
	}
}

// FuzzParseApply: no body makes Parse or Apply panic, and every accepted update of a
// valid document yields a valid JSON object.
func FuzzParseApply(f *testing.F) {
	f.Add([]byte(`{"doc":{"a":{"b":1}},"upsert":{"a":2}}`), []byte(`{"a":{"c":3}}`))
	f.Add([]byte(`{"doc":{"a":1},"detect_noop":"false","_source":["a"]}`), []byte(`{"a":1}`))
	f.Fuzz(func(t *testing.T, body, cur []byte) {
		r, err := Parse(body, "1", false)
		if err != nil {
			return
		}
		var o map[string]any
		if json.Unmarshal(cur, &o) != nil {
			return
		}
		src, _, err := r.Apply(cur)
		if err == nil && json.Unmarshal(src, &o) != nil {
			t.Fatalf("Apply(%s) to %s = %s: not an object", body, cur, src)
		}
	})
}
