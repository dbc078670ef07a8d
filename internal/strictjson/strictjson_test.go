package strictjson

import "testing"

func TestDecode(t *testing.T) {
	type body struct {
		Records []map[string]any `json:"records"`
		Limit   int              `json:"limit"`
		Weight  float64          `json:"weight"`
	}
	cases := []struct {
		in, message string
	}{
		{``, "request body is empty; expected a JSON object"},
		{`null`, "invalid JSON body: expected a JSON object"},
		{`[{"limit": 1}]`, "invalid JSON body: expected a JSON object"},
		{`{"records": [}`, `invalid JSON body: syntax error at byte 13 (field "records[0]"): invalid character '}' at start of value`},
		{`{"limit": "ten"}`, `invalid JSON body: field "limit" must be a number, not string`},
		{`{"weight": 1e400}`, `invalid JSON body: field "weight" must be a number, not a number out of range`},
		{`{"limit": 1e400}`, `invalid JSON body: field "limit" must be an integer, not 1e400`},
		{`{"limit": 0.5}`, `invalid JSON body: field "limit" must be an integer, not 0.5`},
		{`{"limt": 10}`, `invalid JSON body: unknown field "limt"`},
		{`{"Limit": 10}`, `invalid JSON body: unknown field "Limit"`},
		{`{"limit": 1, "limit": 2}`, `invalid JSON body: syntax error at byte 13 (field "limit"): duplicate object member name`},
		{"{\"records\": [{\"objectID\": \"a\xff\"}]}", `invalid JSON body: syntax error at byte 28 (field "records[0].objectID"): invalid UTF-8`},
		{`{"limit": 10} {}`, "invalid JSON body: syntax error at byte 14: invalid character '{' after top-level value"},
		{`{"limit": 10`, "invalid JSON body: the JSON value is incomplete"},
	}
	for _, c := range cases {
		var v body
		if err := Decode([]byte(c.in), &v); err == nil || err.Error() != c.message {
			t.Errorf("%q: got %v, want %q", c.in, err, c.message)
		}
	}
	var v body
	if err := Decode([]byte(` {"limit": 10, "records": [{"objectID": "a"}]} `), &v); err != nil || v.Limit != 10 {
		t.Errorf("a valid body was refused: %v", err)
	}
}
