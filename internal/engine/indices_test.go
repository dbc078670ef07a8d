package engine_test

import (
	"encoding/json"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// mappingOf returns the rendered mapping of an index as generic JSON.
func mappingOf(idx string) map[string]any {
	status, body, _ := rawDo("GET", "/"+idx+"/_mapping", "", "")
	Expect(status).To(Equal(200))
	var out map[string]map[string]map[string]any
	Expect(json.Unmarshal([]byte(body), &out)).To(Succeed())
	return out[idx]["mappings"]
}

var _ = Describe("Index APIs", func() {
	var idx string
	BeforeEach(func() { idx = uniqueIndex("idx") })

	// ES docs: "Create index API" > response {acknowledged, shards_acknowledged, index};
	// "Index exists API" 200/404; creating twice is resource_already_exists_exception.
	It("creates, checks, reads and deletes an index", func() {
		res, err := es.Indices.Create(idx).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Acknowledged).To(BeTrue())
		Expect(res.Index).To(Equal(idx))
		ok, err := es.Indices.Exists(idx).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		_, err = es.Indices.Create(idx).Do(ctx)
		e := esError(err)
		Expect(e.Status).To(Equal(400))
		Expect(e.ErrorCause.Type).To(Equal("resource_already_exists_exception"))
		got, err := es.Indices.Get(idx).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(HaveKey(idx))
		Expect(*got[idx].Settings.Index.NumberOfShards).To(Equal("1"))
		_, err = es.Indices.Delete(idx).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		ok, err = es.Indices.Exists(idx).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeFalse())
		_, err = es.Indices.Delete(idx).Do(ctx)
		Expect(esError(err).ErrorCause.Type).To(Equal("index_not_found_exception"))
	})

	DescribeTable("rejects invalid index definitions with ES's errors",
		func(name, body string, status int, typ string) {
			code, raw, _ := rawDo("PUT", "/"+name, "application/json", body)
			Expect(code).To(Equal(status))
			Expect(raw).To(ContainSubstring(`"type":"` + typ + `"`))
		},
		// ES docs: "Create index API" > "Index names" (lowercase, no leading _).
		Entry("uppercase name", "BadName", ``, 400, "invalid_index_name_exception"),
		Entry("leading underscore", "_bad", ``, 400, "invalid_index_name_exception"),
		// ES docs: "Mapping" > field data types: unknown type is a mapper_parsing_exception.
		Entry("unknown field type", "badtype", `{"mappings":{"properties":{"a":{"type":"invalid"}}}}`, 400, "mapper_parsing_exception"),
		// ES docs: "Index modules" > unknown settings are rejected.
		Entry("unknown setting", "badsetting", `{"settings":{"index.foo":"1"}}`, 400, "illegal_argument_exception"),
		Entry("malformed JSON", "badjson", `{"settings":`, 400, "x_content_parse_exception"),
		// ES docs: "Analysis" > custom analyzer referencing an unknown filter.
		Entry("unknown analysis filter", "badfilter", `{"settings":{"analysis":{"analyzer":{"a":{"type":"custom","tokenizer":"standard","filter":["nope"]}}}}}`, 400, "illegal_argument_exception"),
	)

	// The engine stores index settings as ES does, but some would change behaviour it does
	// not have (ingest pipelines, index modes, hidden indices, a query default field,
	// tombstone expiry): those are refused unless they say ES's default, never ignored.
	DescribeTable("refuses settings it would store without honouring them",
		func(setting string, value any, status int) {
			body, err := json.Marshal(map[string]any{"settings": map[string]any{setting: value}})
			Expect(err).NotTo(HaveOccurred())
			name := uniqueIndex("settings")
			code, raw, _ := rawDo("PUT", "/"+name, "application/json", string(body))
			Expect(code).To(Equal(status), raw)
			if status == 400 {
				Expect(raw).To(ContainSubstring(`"type":"illegal_argument_exception"`))
				Expect(raw).To(ContainSubstring("setting [" + setting + "] with value"))
				return
			}
			code, raw, _ = rawDo("PUT", "/"+name+"/_settings", "application/json", `{"index.gc_deletes":"30s"}`)
			Expect(code).To(Equal(400), raw)
			code, raw, _ = rawDo("GET", "/"+name+"/_settings/index.gc_deletes", "", "")
			Expect(code).To(Equal(200))
			Expect(raw).To(MatchJSON(`{"` + name + `":{"settings":{}}}`))
		},
		// ES docs: "Ingest pipelines" > index.default_pipeline / index.final_pipeline.
		Entry("a default pipeline", "index.default_pipeline", "enrich", 400),
		Entry("no default pipeline", "index.default_pipeline", "_none", 200),
		Entry("a final pipeline", "index.final_pipeline", "enrich", 400),
		// ES docs: "Index modules" > index.mode, index.hidden, index.query.default_field.
		Entry("a time series index", "index.mode", "time_series", 400),
		Entry("a standard index", "index.mode", "standard", 200),
		Entry("a hidden index", "index.hidden", true, 400),
		Entry("a visible index", "index.hidden", false, 200),
		Entry("a query default field", "index.query.default_field", "title", 400),
		Entry("every field by default", "index.query.default_field", "*", 200),
		// ES docs: "Index modules" > index.gc_deletes: the engine keeps tombstones for good.
		Entry("tombstone expiry", "index.gc_deletes", "30s", 400),
	)

	// ES docs: "Dynamic field mapping" — strings become text + keyword subfield (ignore_above
	// 256), integers long, floats float, ISO dates date, objects properties.
	It("maps new fields dynamically with ES's rules", func() {
		_, err := es.Index(idx).Id("1").Document(map[string]any{
			"name": "Trail shoe", "count": 3, "price": 9.5, "ok": true, "when": "2024-05-01T10:00:00Z",
			"brand": map[string]any{"name": "Acme"},
		}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		b, _ := json.Marshal(mappingOf(idx))
		Expect(string(b)).To(MatchJSON(`{"properties":{
			"name":{"type":"text","fields":{"keyword":{"type":"keyword","ignore_above":256}}},
			"count":{"type":"long"},"price":{"type":"float"},"ok":{"type":"boolean"},"when":{"type":"date"},
			"brand":{"properties":{"name":{"type":"text","fields":{"keyword":{"type":"keyword","ignore_above":256}}}}}}}`))
	})

	// ES docs: "Update mapping API" > "Change the mapping of an existing field": types
	// cannot change; new fields and multi-fields can be added.
	It("rejects conflicting mapping updates and accepts additive ones", func() {
		_, err := es.Indices.Create(idx).Mappings(&types.TypeMapping{Properties: map[string]types.Property{
			"user": &types.ObjectProperty{Properties: map[string]types.Property{"id": types.NewLongNumberProperty()}},
		}}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		code, body, _ := rawDo("PUT", "/"+idx+"/_mapping", "application/json", `{"properties":{"user":{"properties":{"id":{"type":"keyword"}}}}}`)
		Expect(code).To(Equal(400))
		Expect(body).To(ContainSubstring(`"type":"illegal_argument_exception"`))
		Expect(body).To(ContainSubstring(`mapper [user.id] cannot be changed from type [long] to [keyword]`))

		_, err = es.Indices.PutMapping(idx).Properties(map[string]types.Property{"title": types.NewTextProperty()}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		code, _, _ = rawDo("PUT", "/"+idx+"/_mapping", "application/json", `{"properties":{"title":{"type":"text","fields":{"raw":{"type":"keyword"}}}}}`)
		Expect(code).To(Equal(200))
		Expect(mappingOf(idx)["properties"]).To(HaveKey("title"))
	})

	// ES docs: "Dynamic" parameter: strict rejects unknown fields; a value of the wrong type
	// is a document_parsing_exception.
	DescribeTable("rejects documents that do not fit the mapping",
		func(doc string, typ string) {
			_, err := es.Indices.Create(idx).Raw(jsonReader(`{"mappings":{"dynamic":"strict","properties":{"n":{"type":"long"},"o":{"properties":{"x":{"type":"keyword"}}}}}}`)).Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			code, body, _ := rawDo("PUT", "/"+idx+"/_doc/1", "application/json", doc)
			Expect(code).To(Equal(400))
			Expect(body).To(ContainSubstring(`"type":"` + typ + `"`))
		},
		Entry("unknown field under dynamic strict", `{"other":1}`, "strict_dynamic_mapping_exception"),
		Entry("string in a long field", `{"n":"abc"}`, "document_parsing_exception"),
		Entry("scalar where an object is mapped", `{"o":"flat"}`, "document_parsing_exception"),
		Entry("malformed JSON", `{"n":`, "document_parsing_exception"),
	)

	// ES docs: "Update index settings API" — dynamic settings change; static ones are refused.
	It("updates dynamic settings and refuses static ones", func() {
		_, err := es.Indices.Create(idx).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		code, _, _ := rawDo("PUT", "/"+idx+"/_settings", "application/json", `{"index":{"max_result_window":5}}`)
		Expect(code).To(Equal(200))
		code, body, _ := rawDo("PUT", "/"+idx+"/_settings", "application/json", `{"index":{"number_of_shards":3}}`)
		Expect(code).To(Equal(400))
		Expect(body).To(ContainSubstring("Can't update non dynamic settings"))
		got, err := es.Indices.GetSettings().Index(idx).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(got[idx].Settings.Index.MaxResultWindow).To(HaveValue(Equal(5)))
	})

	// Every response carries X-Elastic-Product (go-elasticsearch refuses servers without it).
	It("answers GET / with an 8.x version and the product header", func() {
		info, err := es.Info().Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(info.Version.Int).To(HavePrefix("8."))
		Expect(info.Tagline).To(Equal("You Know, for Search"))
		_, _, hdr := rawDo("GET", "/nope-404/_search", "", "")
		Expect(hdr.Get("X-Elastic-Product")).To(Equal("Elasticsearch"))
		Expect(hdr.Get("Content-Type")).To(Equal("application/json"))
	})
})
