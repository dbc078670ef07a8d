package mapper

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// randomJSON builds a random JSON value with the shapes documents have, written with
// random insignificant whitespace.
func randomJSON(r *rand.Rand, depth int) string {
	sp := func() string { return []string{"", " ", "\n ", "\t", "\r\n"}[r.Intn(5)] }
	switch k := r.Intn(9); {
	case depth < 3 && k == 0:
		var parts []string
		for i := 0; i < r.Intn(4); i++ {
			parts = append(parts, sp()+randomJSON(r, depth+1)+sp())
		}
		return "[" + strings.Join(parts, ",") + "]"
	case depth < 3 && k <= 2:
		var parts []string
		for i := 0; i < r.Intn(5); i++ {
			key, _ := json.Marshal([]string{"a", "b.c", "é", "a"}[r.Intn(4)])
			parts = append(parts, sp()+string(key)+sp()+":"+sp()+randomJSON(r, depth+1))
		}
		return "{" + strings.Join(parts, ",") + "}"
	case k == 3:
		return []string{"0", "-1", "1.5e3", "12345678901234567890123", "-0.0", "3.14159"}[r.Intn(6)]
	case k == 4:
		return []string{"true", "false", "null"}[r.Intn(3)]
	default:
		return []string{`""`, `"plain"`, `"tab\there"`, `"quote \" and \\ slash"`, `"\u00e9t\u00e9 ☃"`, `"a b\nc"`, `"\ud83d\ude00"`}[r.Intn(7)]
	}
}

// TestDecodeSourceMatchesEncodingJSON checks the fastjson decoding against encoding/json with
// UseNumber, and Compact against json.Compact, on random documents.
func TestDecodeSourceMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 20000; i++ {
		src := []byte(randomJSON(r, 0))
		dec := json.NewDecoder(bytes.NewReader(src))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		got, err := DecodeSource(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\n got %#v\nwant %#v", src, got, want)
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, src); err != nil {
			t.Fatal(err)
		}
		if c := Compact(src); !bytes.Equal(c, buf.Bytes()) {
			t.Fatalf("%q: compact %q, want %q", src, c, buf.Bytes())
		}
	}
}

func TestDecodeSourceRejectsWhatEncodingJSONRejects(t *testing.T) {
	for _, src := range []string{`{"a":1} {"b":2}`, `{"a":}`, `{"a":1`, `{'a':1}`, `[1,]`, `{"a":01}`, `nul`, ``, `{"a":"\x"}`, "{\"a\":\"\x01\"}", `{"a":1.}`, "{\"a\":\"\xff\"}"} {
		if _, err := DecodeSource([]byte(src)); err == nil {
			t.Errorf("%q: accepted", src)
		}
	}
}
