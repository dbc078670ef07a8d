package merch_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/merch"
	"github.com/aislehq/aisle/internal/strictjson"
)

// checked decodes body as PUT /rules/r1 does and checks it against the specs' index.
func checked(body string) error {
	r, err := merch.DecodeRule([]byte(body), "r1")
	if err != nil {
		return err
	}
	return merch.Check([]merch.Rule{r}, false, testSettings, testSchema)
}

var _ = Describe("Checking a rule", func() {
	It("takes a rule using every part", func() {
		Expect(checked(`{"objectID": "r1", "description": "iPhone launch", "enabled": true,
			"conditions": [{"pattern": "iphone", "anchoring": "contains"}, {"pattern": "", "anchoring": "is"}, {},
				{"pattern": "sale", "anchoring": "is", "filters": {"field": "brand", "eq": "acme"}, "context": "landing-summer"}],
			"validity": [{"from": "2030-01-01T00:00:00Z", "until": "2030-02-01T00:00:00Z"}, {"until": "2020-01-01T00:00:00Z"}],
			"consequence": {"promote": [{"objectID": "p1", "position": 1}, {"objectID": "p2", "position": 1000}], "hide": ["p3"],
				"boost": [{"filter": {"field": "brand", "eq": "acme"}, "weight": 10}], "bury": [{"filter": {"field": "price", "range": {"gt": 100}}}],
				"filters": {"or": [{"field": "brand", "in": ["a", "b"]}, {"field": "price", "exists": true}]},
				"query": {"remove": ["cheap"]}, "userData": {"banner": "/img/launch.png"}}}`)).To(Succeed())
	})

	It("refuses the objectID history, which GET /rules/history takes", func() {
		err := merch.Check([]merch.Rule{{ObjectID: merch.ReservedID, Consequence: merch.Consequence{Hide: []string{"x"}}}}, false, testSettings, testSchema)
		Expect(err).To(MatchError(ContainSubstring(`objectID: "history" is reserved`)))
	})

	It("takes the objectID from the path when the body leaves it out", func() {
		r, err := merch.DecodeRule([]byte(`{"consequence": {"hide": ["x"]}}`), "r1")
		Expect(err).NotTo(HaveOccurred())
		Expect(r.ObjectID).To(Equal("r1"))
	})

	DescribeTable("refuses, naming the place",
		func(body, want string) {
			err := checked(body)
			Expect(err).To(HaveOccurred())
			Expect(err.Error()).To(ContainSubstring(want))
		},
		Entry("an unknown key", `{"consequence": {"hide": ["x"]}, "priority": 1}`, `unknown field "priority"`),
		Entry("a malformed context", `{"conditions": [{"context": "on mobile"}], "consequence": {"hide": ["x"]}}`,
			"conditions[0].context: must be 1 to 64 characters: letters, digits, _ and - (as a search's ruleContexts)"),
		Entry("a condition's filter on a field that is not filterable", `{"conditions": [{"filters": {"field": "name", "eq": "x"}}], "consequence": {"hide": ["x"]}}`,
			`conditions[0].filters.field: "name" is not a filterable field`),
		Entry("an unknown key of the consequence", `{"consequence": {"pin": ["x"]}}`, `unknown field "pin"`),
		Entry("another objectID than the path's", `{"objectID": "r2", "consequence": {"hide": ["x"]}}`, `objectID: "r2" differs from the path's "r1"`),
		Entry("no consequence", `{"objectID": "r1"}`, "consequence: needs at least one of promote, hide, boost, bury, filters, query, userData"),
		Entry("a null userData alone", `{"consequence": {"userData": null}}`, "consequence: needs at least one"),
		Entry("a pattern over 512 bytes", fmt.Sprintf(`{"conditions": [{"pattern": %q, "anchoring": "is"}], "consequence": {"hide": ["x"]}}`, strings.Repeat("a", 513)),
			"conditions[0].pattern: must be at most 512 bytes"),
		Entry("a pattern without anchoring", `{"conditions": [{"pattern": "x"}], "consequence": {"hide": ["x"]}}`, "conditions[0].anchoring: is required with a pattern"),
		Entry("an unknown anchoring", `{"conditions": [{"pattern": "x", "anchoring": "like"}], "consequence": {"hide": ["x"]}}`, "conditions[0].anchoring: must be is, startsWith, endsWith or contains"),
		Entry("an anchoring without pattern", `{"conditions": [{"anchoring": "is"}], "consequence": {"hide": ["x"]}}`, "conditions[0].anchoring: needs a pattern"),
		Entry("an empty pattern anchored otherwise than is", `{"conditions": [{"pattern": "", "anchoring": "contains"}], "consequence": {"hide": ["x"]}}`,
			"conditions[0].pattern: an empty pattern takes anchoring is"),
		Entry("eleven conditions", `{"conditions": [`+strings.Repeat(`{},`, 10)+`{}], "consequence": {"hide": ["x"]}}`, "conditions: at most 10"),
		Entry("a window ending before it starts", `{"validity": [{"from": "2030-02-01T00:00:00Z", "until": "2030-01-01T00:00:00Z"}], "consequence": {"hide": ["x"]}}`,
			"validity[0].until: must be after from"),
		Entry("a window ending as it starts", `{"validity": [{"from": "2030-02-01T00:00:00Z", "until": "2030-02-01T00:00:00Z"}], "consequence": {"hide": ["x"]}}`,
			"validity[0].until: must be after from"),
		Entry("a window that is no date", `{"validity": [{"from": "tomorrow"}], "consequence": {"hide": ["x"]}}`, `validity[0].from`),
		Entry("a promote position of 0", `{"consequence": {"promote": [{"objectID": "p", "position": 0}]}}`, "consequence.promote[0].position: must be between 1 and 1000"),
		Entry("a promote position of 1001", `{"consequence": {"promote": [{"objectID": "p", "position": 1001}]}}`, "consequence.promote[0].position: must be between 1 and 1000"),
		Entry("a record promoted twice", `{"consequence": {"promote": [{"objectID": "p", "position": 1}, {"objectID": "p", "position": 2}]}}`,
			`consequence.promote[1].objectID: "p" is listed twice`),
		Entry("an empty hidden objectID", `{"consequence": {"hide": [""]}}`, "consequence.hide[0]: must be a non-empty objectID"),
		Entry("a boost on a field that is not filterable", `{"consequence": {"boost": [{"filter": {"field": "color", "eq": "red"}}]}}`,
			`consequence.boost[0].filter.field: "color" is not a filterable field (filterable fields: brand, price)`),
		Entry("a bury on a field that is not filterable", `{"consequence": {"bury": [{"filter": {"not": {"field": "color", "eq": "red"}}}]}}`,
			`consequence.bury[0].filter.not.field: "color" is not a filterable field`),
		Entry("filters on a field that is not filterable", `{"consequence": {"filters": {"field": "color", "eq": "red"}}}`,
			`consequence.filters.field: "color" is not a filterable field`),
		Entry("a boost without filter", `{"consequence": {"boost": [{"weight": 2}]}}`, "consequence.boost[0].filter: is required"),
		Entry("a weight of 11", `{"consequence": {"boost": [{"filter": {"field": "brand", "eq": "a"}, "weight": 11}]}}`, "consequence.boost[0].weight: must be between 1 and 10"),
		Entry("a query consequence with both", `{"consequence": {"query": {"replace": "a", "remove": ["b"]}}}`, "consequence.query: takes exactly one of replace and remove"),
		Entry("a query consequence with neither", `{"consequence": {"query": {}}}`, "consequence.query: takes exactly one of replace and remove"),
		Entry("nothing to remove", `{"consequence": {"query": {"remove": []}}}`, "consequence.query.remove: needs 1 to 10 words"),
		Entry("userData over 10 KiB", fmt.Sprintf(`{"consequence": {"userData": %q}}`, strings.Repeat("u", 10241)), "consequence.userData: must be at most 10240 bytes"),
		Entry("a description over 1 KiB", fmt.Sprintf(`{"description": %q, "consequence": {"hide": ["x"]}}`, strings.Repeat("d", 1025)), "description: must be at most 1024 bytes"),
	)
})

var _ = Describe("Reading a batch of rules", func() {
	It("takes up to the limit, each rule with its own objectID, once", func() {
		rules, err := merch.DecodeRules([]byte(`{"rules": [{"objectID": "a", "consequence": {"hide": ["x"]}}, {"objectID": "b", "consequence": {"hide": ["x"]}}]}`), 2)
		Expect(err).NotTo(HaveOccurred())
		Expect(merch.Check(rules, true, testSettings, testSchema)).To(Succeed())
	})

	DescribeTable("refuses, naming the place",
		func(body, want string) {
			rules, err := merch.DecodeRules([]byte(body), 2)
			if err == nil {
				err = merch.Check(rules, true, testSettings, testSchema)
			}
			Expect(err).To(HaveOccurred())
			Expect(err.Error()).To(ContainSubstring(want))
		},
		Entry("no rules member", `{}`, `rules is required: send {"rules": [...]}`),
		Entry("more than the limit", `{"rules": [{}, {}, {}]}`, "rules: at most 2 in one request, got 3"),
		Entry("an objectID twice", `{"rules": [{"objectID": "a", "consequence": {"hide": ["x"]}}, {"objectID": "a", "consequence": {"hide": ["x"]}}]}`,
			`rules[1].objectID: "a" is also rules[0]'s`),
		Entry("a rule without objectID", `{"rules": [{"consequence": {"hide": ["x"]}}]}`, "rules[0].objectID: must be 1 to 64 characters"),
		Entry("an objectID with a dot", `{"rules": [{"objectID": "a.b", "consequence": {"hide": ["x"]}}]}`, "rules[0].objectID: must be 1 to 64 characters"),
		Entry("a bad rule among good ones", `{"rules": [{"objectID": "a", "consequence": {"hide": ["x"]}}, {"objectID": "b", "consequence": {"promote": [{"objectID": "p", "position": -1}]}}]}`,
			"rules[1].consequence.promote[0].position"),
		Entry("a body that is no object", `[]`, strictjson.ErrInvalid.Error()),
	)
})

var _ = Describe("The parameters of GET /rules", func() {
	It("default to the first 20 rules", func() {
		Expect(merch.ParseList("", "", "")).To(Equal(merch.ListQuery{Limit: 20}))
		Expect(merch.ParseList("sale", "10", "1000")).To(Equal(merch.ListQuery{Query: "sale", Offset: 10, Limit: 1000}))
	})

	DescribeTable("refuse bad values, naming the parameter",
		func(query, offset, limit, want string) {
			_, err := merch.ParseList(query, offset, limit)
			Expect(err).To(MatchError(merch.ErrBadParameter))
			Expect(err.Error()).To(ContainSubstring(want))
		},
		Entry("a negative offset", "", "-1", "", "offset must be an integer from 0"),
		Entry("an offset that is no number", "", "x", "", "offset must be an integer from 0"),
		Entry("a limit of 0", "", "", "0", "limit must be an integer from 1 to 1000"),
		Entry("a limit over 1000", "", "", "1001", "limit must be an integer from 1 to 1000"),
		Entry("a window past 10,000", "", "9500", "1000", "offset + limit must be at most 10000"),
		Entry("an overflowing offset", "", "99999999999999999999", "", "offset must be an integer from 0"),
		Entry("a query of invalid UTF-8", "a\xffb", "", "", "query must be valid UTF-8"),
		Entry("a query over 512 bytes", strings.Repeat("q", 513), "", "", "query must be valid UTF-8 of at most 512 bytes"),
	)
})

var _ = Describe("The objectID of PUT /rules/{ruleId}", func() {
	It("is refused when the body gives it empty", func() {
		Expect(checked(`{"objectID": "", "consequence": {"hide": ["x"]}}`)).To(MatchError(ContainSubstring(`objectID: "" differs from the path's "r1"`)))
	})
})
