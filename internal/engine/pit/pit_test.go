package pit_test

import (
	"errors"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/pit"
)

func TestPIT(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Points in time")
}

var _ = Describe("The registry of points in time", func() {
	It("holds at most its bound open, refusing more with a 429 until one closes", func() {
		r := pit.New(2)
		a, err := r.Open(nil, nil, time.Minute)
		Expect(err).NotTo(HaveOccurred())
		_, err = r.Open(nil, nil, time.Minute)
		Expect(err).NotTo(HaveOccurred())
		_, err = r.Open(nil, nil, time.Minute)
		var e *eserr.Error
		Expect(errors.As(err, &e)).To(BeTrue())
		Expect(e.Status).To(Equal(429))
		Expect(r.Close([]string{a.ID, a.ID})).To(Equal(1))
		_, err = r.Open(nil, nil, time.Minute)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Len()).To(Equal(2))
		r.CloseAll()
		Expect(r.Len()).To(BeZero())
	})

	It("releases one idle past its keep_alive, and a search of it extends it", func() {
		r := pit.New(10)
		idle, err := r.Open(nil, nil, 50*time.Millisecond)
		Expect(err).NotTo(HaveOccurred())
		kept, err := r.Open(nil, nil, 50*time.Millisecond)
		Expect(err).NotTo(HaveOccurred())
		_, done, err := r.Acquire(kept.ID, time.Hour)
		Expect(err).NotTo(HaveOccurred())
		done()
		Eventually(func() error { _, _, err := r.Acquire(idle.ID, 0); return err }).Should(MatchError(ContainSubstring("No search context found")))
		Consistently(func() error {
			_, done, err := r.Acquire(kept.ID, 0)
			if err == nil {
				done()
			}
			return err
		}, "200ms").Should(Succeed())
	})
})

var _ = DescribeTable("keep_alive values",
	func(in string, want time.Duration, ok bool) {
		got, err := pit.ParseKeepAlive(in)
		if !ok {
			var e *eserr.Error
			Expect(errors.As(err, &e)).To(BeTrue())
			Expect(e.Status).To(Equal(400))
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(want))
	},
	Entry("minutes", "1m", time.Minute, true),
	Entry("milliseconds", "500ms", 500*time.Millisecond, true),
	Entry("seconds", "30s", 30*time.Second, true),
	Entry("a day", "1d", 24*time.Hour, true),
	Entry("past a day", "25h", time.Duration(0), false),
	Entry("no unit", "10", time.Duration(0), false),
	Entry("zero", "0s", time.Duration(0), false),
	Entry("negative", "-1m", time.Duration(0), false),
	Entry("empty", "", time.Duration(0), false),
	Entry("a fraction", "1.5m", time.Duration(0), false),
)
