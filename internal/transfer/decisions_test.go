package transfer

import (
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Retrying", func() {
	p := RetryPolicy{Attempts: 4, Base: time.Second, Max: 5 * time.Second}
	DescribeTable("decides from the answer whether and when to send again",
		func(attempt, status int, retryAfter string, transport bool, wait time.Duration, again bool) {
			w, a := p.Next(attempt, status, retryAfter, transport)
			Expect(a).To(Equal(again))
			Expect(w).To(Equal(wait))
		},
		Entry("a 202 is done", 1, 202, "", false, time.Duration(0), false),
		Entry("a 400 is the input's fault: never again", 1, 400, "", false, time.Duration(0), false),
		Entry("a 409 conflict is not temporary", 1, 409, "", false, time.Duration(0), false),
		Entry("a 503 waits the backoff", 1, 503, "", false, time.Second, true),
		Entry("the backoff doubles", 3, 500, "", false, 4*time.Second, true),
		Entry("a 429 waits Retry-After", 1, 429, "2", false, 2*time.Second, true),
		Entry("Retry-After is capped", 1, 429, "120", false, 5*time.Second, true),
		Entry("an unreachable server is retried", 2, 0, "", true, 2*time.Second, true),
		Entry("the last attempt is the last", 4, 503, "", false, time.Duration(0), false),
	)
	It("uses the default policy when none is set", func() {
		w, again := RetryPolicy{}.Next(1, 503, "", false)
		Expect(again).To(BeTrue())
		Expect(w).To(Equal(DefaultRetry.Base))
	})
})

var _ = Describe("CSV values", func() {
	DescribeTable("are typed by their text",
		func(in string, want any, present bool) {
			v, ok := CSVValue(in)
			Expect(ok).To(Equal(present))
			if !present {
				Expect(v).To(BeNil())
				return
			}
			Expect(v).To(Equal(want))
		},
		Entry("empty is no value", "", nil, false),
		Entry("text", "Trail shoe", "Trail shoe", true),
		Entry("an integer", "42", json.Number("42"), true),
		Entry("a decimal", "-12.50", json.Number("-12.50"), true),
		Entry("an exponent", "1e3", json.Number("1e3"), true),
		Entry("a leading zero stays text", "007", "007", true),
		Entry("a plus sign stays text", "+1", "+1", true),
		Entry("true", "true", true, true),
		Entry("false", "false", false, true),
		Entry("True is text", "True", "True", true),
		Entry("an array of typed parts", "red|2|true", []any{"red", json.Number("2"), true}, true),
		Entry("an array keeps empty parts", "a||b", []any{"a", "", "b"}, true),
	)
})

var _ = Describe("A CSV file", func() {
	read := func(in string) ([]string, []string) {
		src, err := NewCSV(strings.NewReader(in))
		Expect(err).NotTo(HaveOccurred())
		var recs, skipped []string
		for {
			item, err := src.Next()
			if errors.Is(err, io.EOF) {
				return recs, skipped
			}
			var le *LineError
			if errors.As(err, &le) {
				skipped = append(skipped, le.Error())
				continue
			}
			Expect(err).NotTo(HaveOccurred())
			recs = append(recs, string(item.Record))
		}
	}
	It("gives records with objectID first and empty values left out", func() {
		recs, skipped := read("name,objectID,price,tags\nShoe,sku-1,12.5,a|b\n\"Hat, red\",sku-2,,\n")
		Expect(skipped).To(BeEmpty())
		Expect(recs).To(Equal([]string{
			`{"objectID":"sku-1","name":"Shoe","price":12.5,"tags":["a","b"]}`,
			`{"objectID":"sku-2","name":"Hat, red"}`,
		}))
	})
	It("skips a row of the wrong length or without objectID, naming its line", func() {
		recs, skipped := read("objectID,name\nsku-1,a\nsku-2\n,b\nsku-3,c\n")
		Expect(recs).To(HaveLen(2))
		Expect(skipped).To(Equal([]string{"line 3: 1 values for 2 columns", "line 4: objectID must be a non-empty string"}))
	})
	DescribeTable("refuses a header it cannot use",
		func(in, msg string) {
			_, err := NewCSV(strings.NewReader(in))
			Expect(err).To(MatchError(ContainSubstring(msg)))
		},
		Entry("no objectID column", "id,name\n", "an objectID column is required"),
		Entry("a column twice", "objectID,a,a\n", `column "a" appears twice`),
		Entry("a column without a name", "objectID,,a\n", "column 2 has no name"),
		Entry("no header", "", "reading the CSV header"),
	)
})

var _ = Describe("An NDJSON file", func() {
	It("gives each object line as it is and skips the others with their line", func() {
		src := NewNDJSON(strings.NewReader("{\"objectID\":\"a\",\"n\":1}\n\n[1]\n{\"objectID\":2}\n{\"objectID\":\"b\"\n{\"objectID\":\"c\"}\r\n"))
		var lines []int
		var skipped []string
		for {
			item, err := src.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			var le *LineError
			if errors.As(err, &le) {
				skipped = append(skipped, le.Error())
				continue
			}
			Expect(err).NotTo(HaveOccurred())
			lines = append(lines, item.Line)
		}
		Expect(lines).To(Equal([]int{1, 6}))
		Expect(skipped).To(HaveLen(3))
		Expect(skipped[0]).To(Equal("line 3: not a JSON object"))
		Expect(skipped[1]).To(Equal("line 4: objectID must be a non-empty string"))
		Expect(skipped[2]).To(HavePrefix("line 5: not valid JSON"))
	})
})

var _ = Describe("Batches", func() {
	It("hold up to the batch size, leave out resumed lines and reach past skipped ones", func() {
		in := "{\"objectID\":\"1\"}\n{\"objectID\":\"2\"}\n{\"objectID\":\"3\"}\nbad\n{\"objectID\":\"5\"}\nbad\n"
		var skipped []int
		b := &batcher{src: NewNDJSON(strings.NewReader(in)), size: 2, after: 1, skipped: func(e *LineError) { skipped = append(skipped, e.Line) }}
		first, err := b.next()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(first.body)).To(Equal(`{"records":[{"objectID":"2"},{"objectID":"3"}]}`))
		Expect(first.lines).To(Equal([]int{2, 3}))
		second, err := b.next()
		Expect(err).NotTo(HaveOccurred())
		Expect(second.lines).To(Equal([]int{5}))
		Expect(second.lastLine).To(Equal(6))
		_, err = b.next()
		Expect(err).To(MatchError(io.EOF))
		Expect(skipped).To(Equal([]int{4, 6}))
	})
	DescribeTable("name the line of the record a refusal points at",
		func(msg string, want int) {
			Expect(lineOfRefusal(msg, []int{10, 12, 13})).To(Equal(want))
		},
		Entry("the second record", "records[1]: objectID must be a non-empty string", 12),
		Entry("out of the batch", "records[7]: too long", 0),
		Entry("no position", "plan limit reached", 0),
	)
})

var _ = Describe("A checkpoint", func() {
	It("saves and loads, and resumes only the import it belongs to", func() {
		path := CheckpointPath(filepath.Join(GinkgoT().TempDir(), "in.ndjson"))
		_, found, err := LoadCheckpoint(path)
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(BeFalse())
		Expect(Checkpoint{Workspace: "w", Index: "a", Line: 2000, Records: 1999, AcceptedRevision: 7}.Save(path)).To(Succeed())
		cp, found, err := LoadCheckpoint(path)
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(BeTrue())
		Expect(cp.ResumeFrom("w", "a")).To(Equal(2000))
		_, err = cp.ResumeFrom("w", "b")
		Expect(err).To(MatchError(ContainSubstring("not w/b")))
	})
})

var _ = Describe("Plain progress lines", func() {
	DescribeTable("say how far the import is",
		func(bytes, total int64, records int, want string) {
			Expect(progressLine(bytes, total, records)).To(Equal(want))
		},
		Entry("of a known size", int64(50), int64(200), 1000, "imported 1000 records (25% of the input)"),
		Entry("of an unknown size", int64(50), int64(-1), 3, "imported 3 records (50 bytes read)"),
	)
})

var _ = Describe("The progress bar", func() {
	It("draws the records written on a terminal, and says when it is done", func() {
		var out strings.Builder
		p := NewProgress(&out, 1000, true, time.Second)
		p.Update(500, 10)
		p.Finish(20)
		Expect(out.String()).To(ContainSubstring("imported 20 records"))
		Expect(out.String()).To(ContainSubstring("100%"))
	})
})
