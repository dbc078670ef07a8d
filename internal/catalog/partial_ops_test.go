package catalog

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/aislehq/aisle/internal/indexmapping"
	"github.com/aislehq/aisle/internal/strictjson"
)

// decodeOp decodes one operation as the API does.
func decodeOp(t *testing.T, body string) PartialOperation {
	t.Helper()
	var op PartialOperation
	if err := strictjson.Decode([]byte(body), &op); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return op
}

func record(t *testing.T, body string) StoredRecord {
	t.Helper()
	if body == "" {
		return StoredRecord{}
	}
	var f map[string]json.RawMessage
	if err := json.Unmarshal([]byte(body), &f); err != nil {
		t.Fatal(err)
	}
	return StoredRecord{Fields: f, Version: 4}
}

// What each operation does to a record, or why it is rejected (issue 37).
func TestApplyOperation(t *testing.T) {
	cases := []struct {
		name, cur, op, want, reason string
	}{
		{"set replaces and adds fields", `{"objectID":"a","price":10}`, `{"objectID":"a","set":{"price":12.5,"brand":{"name":"Acme"}}}`, `{"brand":{"name":"Acme"},"objectID":"a","price":12.5}`, ""},
		{"unset removes fields, absent ones too", `{"objectID":"a","promo":true,"x":1}`, `{"objectID":"a","unset":["promo","nope"]}`, `{"objectID":"a","x":1}`, ""},
		{"increment adds exactly to an integer", `{"objectID":"a","stock":9007199254740993}`, `{"objectID":"a","increment":{"stock":2}}`, `{"objectID":"a","stock":9007199254740995}`, ""},
		{"decrement subtracts", `{"objectID":"a","stock":3}`, `{"objectID":"a","decrement":{"stock":5}}`, `{"objectID":"a","stock":-2}`, ""},
		{"increment counts an absent field from 0", `{"objectID":"a"}`, `{"objectID":"a","increment":{"views":1}}`, `{"objectID":"a","views":1}`, ""},
		{"increment with a fraction gives a fraction", `{"objectID":"a","price":10}`, `{"objectID":"a","increment":{"price":0.5}}`, `{"objectID":"a","price":10.5}`, ""},
		{"increment of a string is rejected", `{"objectID":"a","stock":"many"}`, `{"objectID":"a","increment":{"stock":1}}`, "", `increment: field "stock" is not a number`},
		{"increment past int64 is rejected", `{"objectID":"a","n":9223372036854775807}`, `{"objectID":"a","increment":{"n":1}}`, "", `increment: field "n" would overflow a 64-bit integer`},
		{"decrement by the smallest int64", `{"objectID":"a","n":0}`, `{"objectID":"a","decrement":{"n":-9223372036854775808}}`, "", `decrement: field "n" would overflow a 64-bit integer`},
		{"add appends to an array", `{"objectID":"a","tags":["x"]}`, `{"objectID":"a","add":{"tags":"x"}}`, `{"objectID":"a","tags":["x","x"]}`, ""},
		{"add creates an absent array", `{"objectID":"a"}`, `{"objectID":"a","add":{"tags":"new"}}`, `{"objectID":"a","tags":["new"]}`, ""},
		{"addUnique keeps one of each value, objects by meaning", `{"objectID":"a","v":[{"a":1,"b":2}]}`, `{"objectID":"a","addUnique":{"v":{"b":2, "a":1}}}`, `{"objectID":"a","v":[{"a":1,"b":2}]}`, ""},
		{"addUnique adds a new value", `{"objectID":"a","tags":["x"]}`, `{"objectID":"a","addUnique":{"tags":"y"}}`, `{"objectID":"a","tags":["x","y"]}`, ""},
		{"remove drops every occurrence", `{"objectID":"a","tags":["x","y","x"]}`, `{"objectID":"a","remove":{"tags":"x"}}`, `{"objectID":"a","tags":["y"]}`, ""},
		{"add to a scalar is rejected", `{"objectID":"a","tags":"x"}`, `{"objectID":"a","add":{"tags":"y"}}`, "", `add: field "tags" is not an array`},
		{"a missing record is rejected", ``, `{"objectID":"a","set":{"x":1}}`, "", ReasonMissing},
		{"createIfMissing creates it with its objectID", ``, `{"objectID":"a","set":{"x":1},"increment":{"n":2},"createIfMissing":true}`, `{"n":2,"objectID":"a","x":1}`, ""},
		{"expectedVersion equal to the version applies", `{"objectID":"a"}`, `{"objectID":"a","set":{"x":1},"expectedVersion":4}`, `{"objectID":"a","x":1}`, ""},
		{"another expectedVersion is rejected", `{"objectID":"a"}`, `{"objectID":"a","set":{"x":1},"expectedVersion":3}`, "", "the record's version is 4, not the expectedVersion 3"},
		{"expectedVersion 0 expects no record", `{"objectID":"a"}`, `{"objectID":"a","set":{"x":1},"expectedVersion":0,"createIfMissing":true}`, "", "the record's version is 4, not the expectedVersion 0"},
	}
	for _, c := range cases {
		cur := record(t, c.cur)
		next, reason := ApplyOperation(cur, cur.Version, decodeOp(t, c.op))
		if reason != c.reason {
			t.Errorf("%s: reason %q, want %q", c.name, reason, c.reason)
			continue
		}
		if c.reason != "" {
			if differs(next.Fields, cur.Fields) {
				t.Errorf("%s: a rejected operation changed the record: %v", c.name, next.Fields)
			}
			continue
		}
		got, err := EncodeRecord(next.Fields)
		if err != nil || string(got) != c.want {
			t.Errorf("%s: %s (%v), want %s", c.name, got, err, c.want)
		}
	}
}

// Several operations on one record apply in order; rejected ones leave it as it was.
func TestApplyOperationsInOrder(t *testing.T) {
	ops := []PartialOperation{
		decodeOp(t, `{"objectID":"a","increment":{"stock":-1}}`),
		decodeOp(t, `{"objectID":"a","add":{"stock":1}}`),
		decodeOp(t, `{"objectID":"a","set":{"stock":7},"expectedVersion":4}`),
		decodeOp(t, `{"objectID":"a","set":{"x":1},"expectedVersion":9}`),
		decodeOp(t, `{"objectID":"a","increment":{"stock":-2}}`),
	}
	cur := record(t, `{"objectID":"a","stock":3}`)
	next, changed, rejected := ApplyOperations(cur, ops, []int{0, 1, 2, 3, 4})
	got, _ := EncodeRecord(next.Fields)
	if string(got) != `{"objectID":"a","stock":5}` || !changed {
		t.Fatalf("record %s, changed %v", got, changed)
	}
	if len(rejected) != 2 || rejected[0].Index != 1 || rejected[1].Index != 3 {
		t.Fatalf("rejected %+v", rejected)
	}
	if _, changed, _ := ApplyOperations(cur, []PartialOperation{decodeOp(t, `{"objectID":"a","set":{"stock":3}}`)}, []int{0}); changed {
		t.Fatal("setting the value a field holds changed the record")
	}
}

func TestValidatePartialRefuses(t *testing.T) {
	many := `{"operations":[` + strings.Repeat(`{"objectID":"a","set":{"x":1}},`, 1000) + `{"objectID":"a","set":{"x":1}}]}`
	cases := map[string]string{
		`{}`:                               "operations is required",
		`{"operations":[]}`:                "operations: expected 1 to 1000 operations, got 0",
		many:                               "operations: expected 1 to 1000 operations, got 1001",
		`{"operations":[{"set":{"x":1}}]}`: "operations[0].objectID must be a non-empty string",
		`{"operations":[{"objectID":"a","set":{"x":1}},{"objectID":""}]}`:                   "operations[1].objectID must be a non-empty string",
		`{"operations":[{"objectID":"a"}]}`:                                                 "operations[0]: at least one of set",
		`{"operations":[{"objectID":"a","set":{"objectID":"b"}}]}`:                          "operations[0].set: objectID cannot be changed",
		`{"operations":[{"objectID":"a","unset":["aisleVersion"]}]}`:                        "operations[0].unset: aisleVersion is a reserved field name",
		`{"operations":[{"objectID":"a","set":{"n":1},"increment":{"n":1}}]}`:               `operations[0].increment: field "n" is named by both set and increment`,
		`{"operations":[{"objectID":"a","increment":{"n":"1"}}]}`:                           "operations[0].increment.n must be a finite number",
		`{"operations":[{"objectID":"a","decrement":{"n":null}}]}`:                          "operations[0].decrement.n must be a finite number",
		`{"operations":[{"objectID":"a","set":{"x":1},"expectedVersion":-1}]}`:              "operations[0].expectedVersion must be an integer of at least 0",
		`{"operations":[{"objectID":"a","set":{"x":1}}],"idempotencyKey":"no spaces here"}`: "idempotencyKey must be 1 to 64 characters",
		`{"operations":[{"objectID":"a","unset":[""]}]}`:                                    "operations[0].unset: field names must not be empty",
	}
	for body, want := range cases {
		var req PartialRequest
		if err := strictjson.Decode([]byte(body), &req); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		_, err := ValidatePartial(req)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), want) {
			t.Errorf("%.80s: %v, want %q", body, err, want)
		}
	}
}

// FuzzPartialBody: a POST /records/partial body decoded as the API decodes it is
// refused with a 400 or valid, and every valid operation applies to any record without
// panicking, giving a record that still has its objectID.
func FuzzPartialBody(f *testing.F) {
	f.Add([]byte(`{"operations":[{"objectID":"a","set":{"p":1},"unset":["q"],"increment":{"s":-1},"decrement":{"t":2.5},"add":{"u":"x"},"addUnique":{"v":{"a":1}},"remove":{"w":[1]},"expectedVersion":2,"createIfMissing":true}],"idempotencyKey":"k-1"}`))
	f.Add([]byte(`{"operations":[{"objectID":"b","increment":{"n":1e308}}]}`))
	cur := StoredRecord{Fields: map[string]json.RawMessage{"objectID": json.RawMessage(`"a"`), "s": json.RawMessage(`9223372036854775807`),
		"t": json.RawMessage(`"x"`), "u": json.RawMessage(`[1]`), "p": json.RawMessage(`{"z":1}`)}, Version: 2}
	f.Fuzz(func(t *testing.T, body []byte) {
		var req PartialRequest
		if err := strictjson.Decode(body, &req); err != nil {
			return
		}
		p, err := ValidatePartial(req)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("%q: an error that is not a 400: %v", body, err)
			}
			return
		}
		for _, op := range p.Ops {
			for _, c := range []StoredRecord{cur, {}} {
				next, reason := ApplyOperation(c, c.Version, op)
				if reason != "" {
					continue
				}
				raw, err := EncodeRecord(next.Fields)
				if err != nil || !json.Valid(WithVersion(raw, 3)) {
					t.Fatalf("%q: the record cannot be written: %s, %v", body, raw, err)
				}
				if _, ok := next.Fields[indexmapping.ObjectIDField]; !ok {
					t.Fatalf("%q: the record lost its objectID", body)
				}
			}
		}
	})
}
