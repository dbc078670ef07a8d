package yamlrest

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Internal tests: path resolution, stash substitution and value matching.

func mustJSON(s string) any {
	v, err := decodeJSON([]byte(s))
	Expect(err).NotTo(HaveOccurred())
	return v
}

var _ = Describe("paths", func() {
	doc := mustJSON(`{"hits":{"hits":[{"_id":"a"},{"_id":"b"}]},"index.number_of_shards":"1","x":{"y.z":2}}`)
	st := NewStash()

	DescribeTable("Eval",
		func(path string, want any, wantFound bool) {
			v, found, err := st.Eval(doc, path)
			Expect(err).NotTo(HaveOccurred())
			Expect(found).To(Equal(wantFound))
			if want == nil {
				Expect(v).To(BeNil())
			} else {
				Expect(v).To(Equal(want))
			}
		},
		Entry("numeric index", "hits.hits.1._id", "b", true),
		Entry("escaped dot", `index\.number_of_shards`, "1", true),
		Entry("escaped dot below a key", `x.y\.z`, json.Number("2"), true),
		Entry("missing key", "hits.total", nil, false),
		Entry("index out of range", "hits.hits.5", nil, false),
		Entry("through a scalar", "hits.hits.0._id.x", nil, false),
	)

	It("returns the whole document for the empty path", func() {
		v, found, err := st.Eval(doc, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(BeTrue())
		Expect(v).To(Equal(doc))
	})

	It("substitutes stashed keys in paths", func() {
		s := NewStash()
		s.Set("idx", json.Number("1"))
		s.Set("key", "_id")
		v, _, err := s.Eval(doc, "hits.hits.$idx.${key}")
		Expect(err).NotTo(HaveOccurred())
		Expect(v).To(Equal("b"))
	})
})

var _ = Describe("stash", func() {
	It("replaces whole values with the stashed value and embeds text", func() {
		s := NewStash()
		s.Set("seqno", json.Number("7"))
		s.Set("name", "idx")
		out, err := s.Resolve(map[string]any{
			"if_seq_no": "$seqno",
			"index":     "my-${name}-1",
			"whole":     "${seqno}",
			"$name":     []any{"$name", "\\${name}"},
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(map[string]any{
			"if_seq_no": json.Number("7"),
			"index":     "my-idx-1",
			"whole":     json.Number("7"),
			"idx":       []any{"idx", "${name}"},
		}))
	})

	It("fails on unknown stash keys", func() {
		_, err := NewStash().Resolve("$nope")
		Expect(err).To(MatchError(ContainSubstring("[nope] not found")))
	})
})

var _ = Describe("matching", func() {
	DescribeTable("equalValues",
		func(expected, actual any, equal bool) {
			if equal {
				Expect(equalValues("", expected, actual)).To(BeEmpty())
			} else {
				Expect(equalValues("", expected, actual)).NotTo(BeEmpty())
			}
		},
		Entry("int and float", json.Number("1"), json.Number("1.0"), true),
		Entry("different numbers", json.Number("1"), json.Number("2"), false),
		Entry("long precision", json.Number("9223372036854775807"), json.Number("9223372036854775806"), false),
		Entry("number vs string", json.Number("1"), "1", false),
		Entry("maps need the same keys", mustJSON(`{"a":1}`), mustJSON(`{"a":1,"b":2}`), false),
		Entry("nested maps with numbers", mustJSON(`{"a":{"b":[1,2.0]}}`), mustJSON(`{"a":{"b":[1.0,2]}}`), true),
		Entry("lists by position", mustJSON(`[1,2]`), mustJSON(`[2,1]`), false),
		Entry("null", nil, nil, true),
		Entry("null vs value", nil, "x", false),
	)

	It("matches regexes with the x flag: whitespace and comments ignored", func() {
		ok, err := matchRegex("^ \\d+ \\s+ green # a comment\n $", true, "12 green")
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		ok, err = matchRegex(`a\ b`, true, "a b")
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
	})

	It("recognises /regex/ values after trimming", func() {
		p, ok := regexLiteral("/^foo$/\n")
		Expect(ok).To(BeTrue())
		Expect(p).To(Equal("^foo$"))
		_, ok = regexLiteral("/")
		Expect(ok).To(BeFalse())
	})

	It("renders errors like Java's toString for catch regexes", func() {
		e := mustJSON(`{"type":"x","reason":"must be \"auto\"","root_cause":[{"type":"x"}]}`)
		Expect(javaString(e)).To(Equal(`{reason=must be "auto", root_cause=[{type=x}], type=x}`))
	})

	DescribeTable("truthy",
		func(v any, found, want bool) { Expect(truthy(v, found)).To(Equal(want)) },
		Entry("missing", nil, false, false),
		Entry("null", nil, true, false),
		Entry("false", false, true, false),
		Entry("zero", json.Number("0"), true, false),
		Entry("empty string", "", true, false),
		Entry("string false", "false", true, false),
		Entry("empty map is true in ES", map[string]any{}, true, true),
		Entry("one", json.Number("1"), true, true),
	)

	It("orders numbers by value and strings lexically", func() {
		c, err := compareOrdered(json.Number("10"), json.Number("9.5"))
		Expect(err).NotTo(HaveOccurred())
		Expect(c).To(Equal(1))
		c, err = compareOrdered("a", "b")
		Expect(err).NotTo(HaveOccurred())
		Expect(c).To(Equal(-1))
		_, err = compareOrdered("a", json.Number("1"))
		Expect(err).To(HaveOccurred())
	})
})

var _ = Describe("versions", func() {
	v, _ := ParseVersion("8.15.2-SNAPSHOT")
	DescribeTable("InRanges",
		func(spec string, want bool) {
			in, err := v.InRanges(spec)
			Expect(err).NotTo(HaveOccurred())
			Expect(in).To(Equal(want))
		},
		Entry("all", "all", true),
		Entry("open lower bound", " - 7.99.99", false),
		Entry("open upper bound", "8.0.0 - ", true),
		Entry("closed", "8.4.0 - 8.5.0", false),
		Entry("several ranges", " - 7.0.99, 8.15.0 - 8.15.9", true),
	)
})

var _ = Describe("request building", func() {
	var specs *Specs
	BeforeEach(func() {
		specs = NewSpecs()
		Expect(specs.Add("indices.refresh.json", []byte(`{"indices.refresh":{"url":{"paths":[
		{"path":"/_refresh","methods":["POST","GET"]},
		{"path":"/{index}/_refresh","methods":["POST","GET"],"parts":{"index":{}}}]},
		"params":{"expand_wildcards":{}}}}`))).To(Succeed())
		Expect(specs.Add("bulk.json", []byte(`{"bulk":{"url":{"paths":[{"path":"/_bulk","methods":["POST","PUT"]}]},
		"params":{"refresh":{}},"body":{"required":true,"serialize":"bulk"},
		"headers":{"content_type":["application/x-ndjson"]}}}`))).To(Succeed())
	})

	It("picks the path with the most given parts and joins lists", func() {
		r, err := specs.Build("indices.refresh", map[string]any{"index": []any{"a", "b*"}, "expand_wildcards": []any{"open", "closed"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Method + " " + r.Path).To(Equal("POST /a,b*/_refresh"))
		Expect(r.Query.Get("expand_wildcards")).To(Equal("open,closed"))
	})

	It("treats an empty list part as absent", func() {
		r, err := specs.Build("indices.refresh", map[string]any{"index": []any{}})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Path).To(Equal("/_refresh"))
	})

	It("sends bulk bodies as NDJSON with a trailing newline", func() {
		r, err := specs.Build("bulk", map[string]any{"refresh": true, "body": []any{
			map[string]any{"index": map[string]any{"_index": "i"}}, `{"f":1}`}})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(r.Body)).To(Equal("{\"index\":{\"_index\":\"i\"}}\n{\"f\":1}\n"))
		Expect(r.Header.Get("Content-Type")).To(Equal("application/x-ndjson"))
		Expect(r.Query.Get("refresh")).To(Equal("true"))
	})

	It("reports unknown parameters and missing bodies as param errors", func() {
		_, err := specs.Build("bulk", map[string]any{})
		Expect(err).To(BeAssignableToTypeOf(&ParamError{}))
		_, err = specs.Build("indices.refresh", map[string]any{"nope": 1})
		Expect(err).To(MatchError(ContainSubstring("[nope] not supported")))
	})
})

var _ = Describe("ordered error text", func() {
	It("keeps the server's key order, as ES's runner does", func() {
		s, ok := orderedErrorString([]byte(`{"error":{"root_cause":[{"type":"x","reason":"r"}],"type":"action_x","reason":"Validation Failed: 1: id is missing"},"status":400}`))
		Expect(ok).To(BeTrue())
		Expect(s).To(Equal(`{root_cause=[{type=x, reason=r}], type=action_x, reason=Validation Failed: 1: id is missing}`))
		m, err := matchRegex(`action_x.+ id is missing`, false, s)
		Expect(err).NotTo(HaveOccurred())
		Expect(m).To(BeTrue())
	})
})
