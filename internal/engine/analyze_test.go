package engine_test

import (
	"encoding/json"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// analyzeRaw posts an _analyze body (to /<index>/_analyze when index is set) and decodes
// the answer.
func analyzeRaw(index, body string) (int, map[string]any) {
	path := "/_analyze"
	if index != "" {
		path = "/" + index + path
	}
	status, out, _ := rawDo(http.MethodPost, path, "application/json", body)
	var m map[string]any
	Expect(json.Unmarshal([]byte(out), &m)).To(Succeed(), out)
	return status, m
}

// tok is an ES token as _analyze shows it without explain.
func tok(term string, start, end, pos int, typ string) map[string]any {
	return map[string]any{"token": term, "start_offset": float64(start), "end_offset": float64(end), "position": float64(pos), "type": typ}
}

var _ = Describe("_analyze", func() {
	// Lucene's TestFrenchAnalyzer.testElision: "voir l'embrouille" → voir, embrouil; the
	// elided token keeps the offsets of the whole word.
	It("runs a language analyzer", func() {
		status, res := analyzeRaw("", `{"analyzer":"french","text":"voir l'embrouille"}`)
		Expect(status).To(Equal(200))
		Expect(res["tokens"]).To(Equal([]any{tok("voir", 0, 4, 0, "<ALPHANUM>"), tok("embrouil", 5, 17, 1, "<ALPHANUM>")}))
	})

	It("counts offsets in UTF-16 code units, as Java strings do", func() {
		_, res := analyzeRaw("", `{"analyzer":"standard","text":"Musée 42"}`)
		Expect(res["tokens"]).To(Equal([]any{tok("musée", 0, 5, 0, "<ALPHANUM>"), tok("42", 6, 8, 1, "<NUM>")}))
	})

	// A text field puts its position_increment_gap (100) between values and the offsets
	// of the next value start one past the end of the previous one.
	It("analyzes with a field's analyzer, continuing positions across values", func() {
		idx := uniqueIndex("analyze-field")
		status, _, _ := rawDo(http.MethodPut, "/"+idx, "application/json", `{"mappings":{"properties":{"title":{"type":"text","analyzer":"english"}}}}`)
		Expect(status).To(Equal(200))
		_, res := analyzeRaw(idx, `{"field":"title","text":["the books","shoes"]}`)
		Expect(res["tokens"]).To(Equal([]any{tok("book", 4, 9, 1, "<ALPHANUM>"), tok("shoe", 10, 15, 102, "<ALPHANUM>")}))
	})

	// ES docs, "Analyze API", explain example with attributes.
	It("explains each step of a chain given in the request", func() {
		_, res := analyzeRaw("", `{"tokenizer":"standard","filter":["snowball"],"text":"detailed output","explain":true,"attributes":["keyword"]}`)
		Expect(res["detail"]).To(Equal(map[string]any{
			"custom_analyzer": true, "charfilters": []any{},
			"tokenizer": map[string]any{"name": "standard", "tokens": []any{tok("detailed", 0, 8, 0, "<ALPHANUM>"), tok("output", 9, 15, 1, "<ALPHANUM>")}},
			"tokenfilters": []any{map[string]any{"name": "snowball", "tokens": []any{
				withKeyword(tok("detail", 0, 8, 0, "<ALPHANUM>")), withKeyword(tok("output", 9, 15, 1, "<ALPHANUM>"))}}},
		}))
	})

	It("builds inline filters and names them as ES does", func() {
		_, res := analyzeRaw("", `{"tokenizer":"whitespace","filter":[{"type":"stop","stopwords":["_german_"]}],"text":"Der und Hund","explain":true}`)
		filters := res["detail"].(map[string]any)["tokenfilters"].([]any)
		Expect(filters[0].(map[string]any)["name"]).To(Equal("__anonymous__stop"))
		Expect(filters[0].(map[string]any)["tokens"]).To(HaveLen(2), "only lowercase und is a stop word: the chain has no lowercase")
	})

	DescribeTable("answers ES's errors",
		func(index, body, typ, reason string) {
			status, res := analyzeRaw(index, body)
			Expect(status).To(Equal(400))
			Expect(res["error"]).To(HaveKeyWithValue("type", typ))
			Expect(res["error"]).To(HaveKeyWithValue("reason", ContainSubstring(reason)))
		},
		Entry("unknown analyzer", "", `{"analyzer":"klingon","text":"x"}`, "illegal_argument_exception", "failed to find global analyzer [klingon]"),
		Entry("unknown filter", "", `{"tokenizer":"standard","filter":["klingon"],"text":"x"}`, "illegal_argument_exception", "failed to find global filter under [klingon]"),
		Entry("unknown tokenizer", "", `{"tokenizer":"klingon","text":"x"}`, "illegal_argument_exception", "failed to find global tokenizer under [klingon]"),
		Entry("unknown key", "", `{"text":"x","analyser":"standard"}`, "x_content_parse_exception", "[analyze_request] unknown field [analyser]"),
		Entry("no text", "", `{"analyzer":"standard"}`, "action_request_validation_exception", "text is missing"),
		Entry("filters on a named analyzer", "", `{"analyzer":"standard","filter":["lowercase"],"text":"x"}`, "action_request_validation_exception", "cannot define extra components on a named analyzer"),
	)
})

func withKeyword(t map[string]any) map[string]any {
	t["keyword"] = false
	return t
}
