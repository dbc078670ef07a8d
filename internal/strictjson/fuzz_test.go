package strictjson

import (
	"strings"
	"testing"
)

// FuzzDecode: any body either decodes into the request or is refused with a message
// naming the problem; nothing panics. Seeds are in testdata/fuzz/FuzzDecode.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"q": "shoe", "limit": 10, "filters": {"field": "price", "in": [1, "x"]}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var v struct {
			Q       string         `json:"q"`
			Limit   *int           `json:"limit"`
			Filters map[string]any `json:"filters"`
			Records []any          `json:"records"`
		}
		err := Decode(body, &v)
		if err != nil && err != ErrEmpty && !strings.HasPrefix(err.Error(), "invalid JSON body: ") {
			t.Fatalf("unexpected error for %q: %v", body, err)
		}
	})
}
