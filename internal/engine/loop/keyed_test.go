package loop

import (
	"math/rand"
	"sort"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine/docsort"
)

// fakeKeys are sort keys held in memory, by document: the score clause is filled from
// the score as docsort's sorter fills it.
type fakeKeys struct {
	specs []docsort.Spec
	vals  map[uint64][]docsort.Val
	reads map[uint64]int
}

func (f *fakeKeys) Len() int              { return len(f.specs) }
func (f *fakeKeys) Specs() []docsort.Spec { return f.specs }
func (f *fakeKeys) Fill(key []docsort.Val, seg int, local, doc uint64, score float64) {
	f.reads[doc]++
	copy(key, f.vals[doc])
	for i, sp := range f.specs {
		if sp.Field == "_score" {
			key[i] = docsort.Val{F: score}
		}
	}
}

// randomMatches are n matches of few distinct scores and field values, some missing,
// so that ties are frequent, in increasing document order.
func randomMatches(r *rand.Rand, specs []docsort.Spec, n int) ([]KeyedHit, *fakeKeys) {
	keys := &fakeKeys{specs: specs, vals: map[uint64][]docsort.Val{}, reads: map[uint64]int{}}
	out := make([]KeyedHit, n)
	for i := range out {
		doc := uint64(i*2 + r.Intn(2))
		score := float64(r.Intn(3)) / 2
		key := make([]docsort.Val, len(specs))
		for j, sp := range specs {
			switch {
			case sp.Field == "_score":
				key[j] = docsort.Val{F: score}
			case r.Intn(5) == 0:
				key[j] = docsort.Val{Missing: true}
			case sp.Field == "brand":
				key[j] = docsort.Val{B: []byte{'a' + byte(r.Intn(3))}}
			default:
				key[j] = docsort.Val{N: int64(r.Intn(4))}
			}
		}
		keys.vals[doc] = key
		out[i] = KeyedHit{Hit: Hit{Score: score, Doc: doc}, Key: key}
	}
	return out, keys
}

// ranked is the reference order: every match sorted by its whole key, the earlier
// document first among equal keys.
func ranked(specs []docsort.Spec, all []KeyedHit) []KeyedHit {
	sorted := append([]KeyedHit(nil), all...)
	sort.SliceStable(sorted, func(i, j int) bool { return docsort.Compare(specs, sorted[i].Key, sorted[j].Key) < 0 })
	return sorted
}

func hitsOf(best []KeyedHit) []Hit {
	out := make([]Hit, len(best))
	for i, h := range best {
		out[i] = h.Hit
	}
	return out
}

var (
	scoreThenPrice = []docsort.Spec{{Field: "_score", Desc: true}, {Field: "price", Desc: true}, {Field: "brand"}}
	scoreThenFirst = []docsort.Spec{{Field: "_score", Desc: true}, {Field: "price", MissingFirst: true}}
	scoreAscending = []docsort.Spec{{Field: "_score"}, {Field: "brand", Desc: true, MissingFirst: true}}
	fieldsOnly     = []docsort.Spec{{Field: "brand", Desc: true}, {Field: "price"}}
	scoreBetween   = []docsort.Spec{{Field: "price"}, {Field: "_score", Desc: true}}
)

var _ = Describe("Keeping the best hits by a sort", func() {
	DescribeTable("keeps the k best by the sort's clauses, an earlier document first among equal keys, as bleve ranks them",
		func(specs []docsort.Spec, k, n int) {
			for seed := int64(0); seed < 20; seed++ {
				all, keys := randomMatches(rand.New(rand.NewSource(seed)), specs, n)
				top := NewKeyedTopK(k, keys)
				for _, o := range all {
					top.Add(0, uint32(o.Doc), o.Doc, o.Score)
				}
				Expect(hitsOf(top.Best())).To(Equal(hitsOf(ranked(specs, all)[:min(k, n)])), "seed %d", seed)
			}
		},
		Entry("score, then a number descending and a term ascending", scoreThenPrice, 10, 300),
		Entry("score, then a number with missing values first", scoreThenFirst, 10, 300),
		Entry("score ascending, then a term descending with missing values first", scoreAscending, 7, 300),
		Entry("fields alone", fieldsOnly, 10, 300),
		Entry("score after a field", scoreBetween, 10, 300),
		Entry("fewer matches than k", scoreThenPrice, 50, 20),
		Entry("one hit", scoreThenPrice, 1, 300),
	)

	It("reads no key of a match whose score ranks it, and the kept hits' keys once each", func() {
		keys := &fakeKeys{specs: scoreThenPrice, vals: map[uint64][]docsort.Val{}, reads: map[uint64]int{}}
		top := NewKeyedTopK(5, keys)
		for d := range uint64(100) {
			keys.vals[d] = []docsort.Val{{}, {N: int64(d % 7)}, {B: []byte("a")}}
			top.Add(0, uint32(d), d, float64(d%50*2+d/50)) // distinct scores
		}
		Expect(top.Reads()).To(Equal(0))
		best := top.Best()
		Expect(hitsOf(best)).To(Equal([]Hit{{99, 99}, {98, 49}, {97, 98}, {96, 48}, {95, 97}}))
		Expect(top.Reads()).To(Equal(5))
		Expect(best[1].Key).To(Equal([]docsort.Val{{F: 98}, {N: 49 % 7}, {B: []byte("a")}}))
	})

	It("reads the keys of a match that ties in score with the worst kept, to rank them", func() {
		keys := &fakeKeys{specs: scoreThenPrice, vals: map[uint64][]docsort.Val{}, reads: map[uint64]int{}}
		top := NewKeyedTopK(1, keys)
		keys.vals[1] = []docsort.Val{{}, {N: 1}, {B: []byte("a")}}
		keys.vals[2] = []docsort.Val{{}, {N: 2}, {B: []byte("a")}}
		keys.vals[3] = []docsort.Val{{}, {N: 2}, {B: []byte("a")}}
		top.Add(0, 1, 1, 1)
		top.Add(0, 2, 2, 1) // a higher price ranks first descending
		top.Add(0, 3, 3, 1) // an equal key: the earlier document stays
		Expect(hitsOf(top.Best())).To(Equal([]Hit{{1, 2}}))
		Expect(keys.reads).To(Equal(map[uint64]int{1: 1, 2: 1, 3: 1}))
	})

	It("keeps nothing when no hit is asked for", func() {
		top := NewKeyedTopK(0, &fakeKeys{specs: fieldsOnly})
		top.Add(0, 1, 1, 1)
		Expect(top.Best()).To(BeEmpty())
	})
})
