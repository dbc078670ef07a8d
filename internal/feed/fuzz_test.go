package feed

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

// checkFeed reads a fuzzed feed to its end: it must never panic, every product must be
// a JSON object with a non-empty objectID, and every line number must be within the
// input.
func checkFeed(t *testing.T, r Reader, data []byte) {
	lines := bytes.Count(data, []byte("\n")) + 1
	for i := 0; ; i++ {
		p, err := r.Next()
		var itemErr *ItemError
		switch {
		case errors.Is(err, io.EOF):
			return
		case errors.As(err, &itemErr):
			if itemErr.Line < 1 || itemErr.Line > lines {
				t.Fatalf("item error at line %d of a %d-line input", itemErr.Line, lines)
			}
			continue
		case err != nil:
			if !strings.HasPrefix(err.Error(), "line ") {
				t.Fatalf("an error without its line: %v", err)
			}
			return
		}
		var rec map[string]any
		if err := json.Unmarshal(p.Record, &rec); err != nil {
			t.Fatalf("product %d is not a JSON object: %v", i, err)
		}
		if id, _ := rec["objectID"].(string); id == "" {
			t.Fatalf("product %d has no objectID: %s", i, p.Record)
		}
		if p.Line < 1 || p.Line > lines {
			t.Fatalf("product at line %d of a %d-line input", p.Line, lines)
		}
		if i > len(data) {
			t.Fatalf("more products than input bytes")
		}
	}
}

func FuzzXML(f *testing.F) {
	f.Add([]byte(rss))
	f.Add([]byte(atom))
	f.Add([]byte(`<rss><channel><item><g:id xmlns:g="http://base.google.com/ns/1.0">1</g:id></item>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFeed(t, NewXML(bytes.NewReader(data)), data)
	})
}

func FuzzTSV(f *testing.F) {
	f.Add([]byte("id\ttitle\tprice\tproduct_type\n1\tMug\t4.50 EUR\tHome > Kitchen\n2\t\"x\"\"\"\t\t\n"))
	f.Add([]byte("id\n\n\n"))
	f.Add([]byte("title\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFeed(t, NewTSV(bytes.NewReader(data)), data)
	})
}
