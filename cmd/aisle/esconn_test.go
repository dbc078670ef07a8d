package main

import (
	"flag"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("The Elasticsearch connection flags", func() {
	parse := func(args ...string) *esConnection {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		c := bindESConnection(fs)
		Expect(fs.Parse(args)).To(Succeed())
		return c
	}
	env := func(url, user, password string) {
		GinkgoT().Setenv("AISLE_ES_URL", url)
		GinkgoT().Setenv("AISLE_ES_USERNAME", user)
		GinkgoT().Setenv("AISLE_ES_PASSWORD", password)
	}

	DescribeTable("give the client a URL with the credentials in its user info",
		func(url, user, password, want string) {
			env(url, user, password)
			Expect(parse().URL()).To(Equal(want))
		},
		Entry("no URL leaves it empty", "", "", "", ""),
		Entry("a URL alone stays as it is", "http://engine:9200", "", "", "http://engine:9200"),
		Entry("a user and password are escaped into the user info", "https://es:9200", "elastic", "p@ss:w/rd",
			"https://elastic:p%40ss%3Aw%2Frd@es:9200"),
	)

	DescribeTable("refuse what cannot reach Elasticsearch",
		func(url, user, password, want string) {
			env(url, user, password)
			_, err := parse().URL()
			Expect(err).To(MatchError(want))
		},
		Entry("a password without a user", "https://es:9200", "", "secret",
			"AISLE_ES_PASSWORD is set without a user name: set --es-username or AISLE_ES_USERNAME"),
		Entry("a URL without a scheme", "es:9200", "", "", `elasticsearch URL "es:9200" is not an absolute URL`),
	)

	It("take the flags over the environment, and the password only from the environment", func() {
		env("http://from-env:9200", "env-user", "pw")
		c := parse("--es-url=http://from-flag:9200", "--es-username=flag-user")
		Expect(c.URL()).To(Equal("http://flag-user:pw@from-flag:9200"))
	})
})
