package engine_test

import (
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// ES's function_score reference: a function's score (field_value_factor's modifiers, the
// decay curves), combined by score_mode, then with the query's score by boost_mode, in
// doubles rounded to a float at the end (CombineFunction).
var _ = Describe("function_score", Ordered, func() {
	idx := "fscore"
	BeforeAll(func() {
		loadIndex(idx, `{"mappings":{"properties":{"pop":{"type":"long"},"price":{"type":"double"},"at":{"type":"date"},"tag":{"type":"keyword"}}}}`,
			[]string{
				`{"pop":10,"price":5,"at":"2024-01-01","tag":"a"}`,
				`{"pop":100,"price":20,"at":"2024-01-11","tag":"b"}`,
				`{"price":50,"tag":"a"}`,
				`{"pop":[3,8],"price":[5,40],"at":["2024-01-06","2024-01-21"],"tag":"b"}`,
			})
	})

	// pops are 10, 100, missing (1), and 3 (the smaller of 3 and 8), times 2
	DescribeTable("field_value_factor: the field's first value times factor, through the modifier",
		func(modifier string, f func(float64) float64) {
			got := scoresByID(idx, `{"function_score":{"field_value_factor":{"field":"pop","factor":2,"missing":1,"modifier":"`+modifier+`"}}}`)
			Expect(got).To(Equal(map[string]float32{"1": float32(f(20)), "2": float32(f(200)), "3": float32(f(2)), "4": float32(f(6))}))
		},
		Entry("none", "none", func(v float64) float64 { return v }),
		Entry("log", "log", math.Log10),
		Entry("log1p", "log1p", func(v float64) float64 { return math.Log10(v + 1) }),
		Entry("log2p", "log2p", func(v float64) float64 { return math.Log10(v + 2) }),
		Entry("ln", "ln", math.Log),
		Entry("ln1p", "ln1p", math.Log1p),
		Entry("ln2p", "ln2p", func(v float64) float64 { return math.Log1p(v + 1) }),
		Entry("square", "square", func(v float64) float64 { return v * v }),
		Entry("sqrt", "sqrt", math.Sqrt),
		Entry("reciprocal", "reciprocal", func(v float64) float64 { return 1 / v }),
	)

	// price distances from origin 0: 5, 20, 50, and 5 (the nearer of 5 and 40); scale 10,
	// decay 0.5: the score is 0.5 at the scale's distance.
	DescribeTable("decay functions on numbers and dates",
		func(fn string, want map[string]float64) {
			got := scoresByID(idx, `{"function_score":{"functions":[`+fn+`]}}`)
			Expect(got).To(HaveLen(len(want)))
			for id, w := range want {
				Expect(got[id]).To(BeNumerically("~", w, 1e-6), id)
			}
		},
		Entry("gauss", `{"gauss":{"price":{"origin":0,"scale":10}}}`,
			map[string]float64{"1": math.Pow(0.5, 0.25), "2": math.Pow(0.5, 4), "3": math.Pow(0.5, 25), "4": math.Pow(0.5, 0.25)}),
		Entry("exp", `{"exp":{"price":{"origin":0,"scale":10}}}`,
			map[string]float64{"1": math.Pow(0.5, 0.5), "2": math.Pow(0.5, 2), "3": math.Pow(0.5, 5), "4": math.Pow(0.5, 0.5)}),
		Entry("linear", `{"linear":{"price":{"origin":0,"scale":10}}}`,
			map[string]float64{"1": 0.75, "2": 0, "3": 0, "4": 0.75}),
		Entry("an offset and a decay", `{"gauss":{"price":{"origin":0,"scale":10,"offset":5,"decay":0.25}}}`,
			map[string]float64{"1": 1, "2": math.Pow(0.25, 2.25), "3": math.Pow(0.25, 20.25), "4": 1}),
		Entry("multi_value_mode max", `{"exp":{"price":{"origin":0,"scale":10},"multi_value_mode":"max"}}`,
			map[string]float64{"1": math.Pow(0.5, 0.5), "2": math.Pow(0.5, 2), "3": math.Pow(0.5, 5), "4": math.Pow(0.5, 4)}),
		Entry("a date, in days; a document without the field scores 1", `{"gauss":{"at":{"origin":"2024-01-01","scale":"10d"}}}`,
			map[string]float64{"1": 1, "2": 0.5, "3": 1, "4": math.Pow(0.5, 0.25)}),
	)

	// Functions: tag a weighs 2, pop from 10 weighs 3, every document 5; the query scores 4.
	const weights = `"query":{"constant_score":{"filter":{"match_all":{}},"boost":4}},"functions":[{"filter":{"term":{"tag":"a"}},"weight":2},{"filter":{"range":{"pop":{"gte":10}}},"weight":3},{"weight":5}]`
	DescribeTable("score_mode combines the functions a document matches",
		func(mode string, want map[string]float32) {
			Expect(scoresByID(idx, `{"function_score":{`+weights+`,"score_mode":"`+mode+`","boost_mode":"replace"}}`)).To(Equal(want))
		},
		Entry("multiply", "multiply", map[string]float32{"1": 30, "2": 15, "3": 10, "4": 5}),
		Entry("sum", "sum", map[string]float32{"1": 10, "2": 8, "3": 7, "4": 5}),
		Entry("avg, weighted by the weights", "avg", map[string]float32{"1": 1, "2": 1, "3": 1, "4": 1}),
		Entry("first", "first", map[string]float32{"1": 2, "2": 3, "3": 2, "4": 5}),
		Entry("max", "max", map[string]float32{"1": 5, "2": 5, "3": 5, "4": 5}),
		Entry("min", "min", map[string]float32{"1": 2, "2": 3, "3": 2, "4": 5}),
	)

	DescribeTable("boost_mode combines them with the query's score",
		func(rest string, want map[string]float32) {
			Expect(scoresByID(idx, `{"function_score":{`+weights+`,"score_mode":"sum",`+rest+`}}`)).To(Equal(want))
		},
		Entry("multiply", `"boost_mode":"multiply"`, map[string]float32{"1": 40, "2": 32, "3": 28, "4": 20}),
		Entry("sum", `"boost_mode":"sum"`, map[string]float32{"1": 14, "2": 12, "3": 11, "4": 9}),
		Entry("avg", `"boost_mode":"avg"`, map[string]float32{"1": 7, "2": 6, "3": 5.5, "4": 4.5}),
		Entry("max", `"boost_mode":"max"`, map[string]float32{"1": 10, "2": 8, "3": 7, "4": 5}),
		Entry("min", `"boost_mode":"min"`, map[string]float32{"1": 4, "2": 4, "3": 4, "4": 4}),
		Entry("max_boost caps the functions", `"max_boost":6`, map[string]float32{"1": 24, "2": 24, "3": 24, "4": 20}),
		Entry("min_score leaves documents out", `"min_score":30`, map[string]float32{"1": 40, "2": 32}),
		Entry("boost goes into the query's score", `"boost":2`, map[string]float32{"1": 80, "2": 64, "3": 56, "4": 40}),
		Entry("so boost_mode replace drops it", `"boost":2,"boost_mode":"replace"`, map[string]float32{"1": 10, "2": 8, "3": 7, "4": 5}),
	)

	It("weighs a function by its weight", func() {
		Expect(scoresByID(idx, `{"function_score":{"field_value_factor":{"field":"pop","missing":1},"weight":0.5}}`)).To(Equal(map[string]float32{"1": 5, "2": 50, "3": 0.5, "4": 1.5}))
	})

	It("counts only the documents min_score keeps", func() {
		res, err := es.Search().Index(idx).Query(query(`{"function_score":{` + weights + `,"score_mode":"sum","min_score":30}}`)).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Hits.Total.Value).To(BeEquivalentTo(2))
	})

	It("gives random_score a stable score below 1", func() {
		q := `{"function_score":{"random_score":{"seed":10,"field":"pop"}}}`
		first := scoresByID(idx, q)
		Expect(first).To(HaveLen(4))
		for _, s := range first {
			Expect(s).To(And(BeNumerically(">=", 0), BeNumerically("<", 1)))
		}
		Expect(scoresByID(idx, q)).To(Equal(first))
	})

	DescribeTable("refuses what Elasticsearch refuses, and scripts",
		func(q, reason string) {
			code, raw, _ := rawDo("POST", "/"+idx+"/_search", "application/json", `{"query":{"function_score":`+q+`}}`)
			Expect(code).To(Equal(400))
			Expect(raw).To(ContainSubstring(reason))
		},
		Entry("a missing value without missing", `{"field_value_factor":{"field":"pop"}}`, "Missing value for field [pop]"),
		Entry("an unknown modifier", `{"field_value_factor":{"field":"pop","modifier":"cube"}}`, "Illegal modifier: cube"),
		Entry("a negative score", `{"field_value_factor":{"field":"pop","missing":1,"modifier":"ln","factor":0.01}}`, "field value function must not produce negative scores"),
		Entry("an unknown score_mode", `{"score_mode":"median"}`, "Illegal score_mode [median]"),
		Entry("a decay without scale", `{"gauss":{"price":{"origin":0}}}`, "[gauss] requires [scale]"),
		Entry("a decay out of (0, 1)", `{"exp":{"price":{"origin":0,"scale":1,"decay":1}}}`, "decay must be in the range (0..1)!"),
		Entry("a function and functions", `{"weight":2,"functions":[{"weight":3}]}`, "use [functions] array if you want to define several functions"),
		Entry("script_score", `{"script_score":{"script":"1"}}`, "[script_score] is not supported by this engine"),
		Entry("an unknown key", `{"boost_factor":2}`, "function_score query does not support [boost_factor]"),
	)
})
