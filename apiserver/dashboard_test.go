package apiserver_test

import (
	"encoding/json"
	"net/http"
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/apiserver"
)

var _ = Describe("The Events page", func() {
	It("is served at /dashboard/ under a policy that runs only its own files", func() {
		rec := get("/dashboard/", "")
		Expect(rec.Code).To(Equal(http.StatusOK))
		Expect(rec.Header().Get("Content-Type")).To(HavePrefix("text/html"))
		Expect(rec.Body.String()).To(ContainSubstring(`<script type="module" src="dashboard.js">`))
		Expect(rec.Header().Get("Content-Security-Policy")).To(ContainSubstring("script-src 'self';"))
		Expect(rec.Header().Get("X-Content-Type-Options")).To(Equal("nosniff"))

		rec = get("/dashboard", "")
		Expect(rec.Code).To(Equal(http.StatusMovedPermanently))
		Expect(rec.Header().Get("Location")).To(Equal("/dashboard/"))
	})

	DescribeTable("serves its files, and nothing of its npm folder",
		func(path string, status int, contentType string) {
			rec := get(path, "")
			Expect(rec.Code).To(Equal(status))
			if contentType != "" {
				Expect(rec.Header().Get("Content-Type")).To(HavePrefix(contentType))
			}
		},
		Entry("the page's script", "/dashboard/dashboard.js", http.StatusOK, "text/javascript"),
		Entry("its building blocks", "/dashboard/ui.js", http.StatusOK, "text/javascript"),
		Entry("its Searches section", "/dashboard/searches.js", http.StatusOK, "text/javascript"),
		Entry("the key login of both pages", "/dashboard/login.js", http.StatusOK, "text/javascript"),
		Entry("the studio", "/dashboard/studio.html", http.StatusOK, "text/html"),
		Entry("the studio's script", "/dashboard/studio.js", http.StatusOK, "text/javascript"),
		Entry("the studio's preview", "/dashboard/studio-preview.js", http.StatusOK, "text/javascript"),
		Entry("the studio's history", "/dashboard/studio-history.js", http.StatusOK, "text/javascript"),
		Entry("the studio's synonyms", "/dashboard/studio-synonyms.js", http.StatusOK, "text/javascript"),
		Entry("the studio's style", "/dashboard/studio.css", http.StatusOK, "text/css"),
		Entry("its style", "/dashboard/dashboard.css", http.StatusOK, "text/css"),
		Entry("the chart library", "/dashboard/chart.umd.min.js", http.StatusOK, "text/javascript"),
		Entry("not package.json", "/dashboard/package.json", http.StatusNotFound, ""),
		Entry("not node_modules", "/dashboard/node_modules/chart.js/package.json", http.StatusNotFound, ""),
	)

	It("embeds the chart library at the version package-lock.json pins (make dashboard-assets)", func() {
		var lock struct {
			Packages map[string]struct {
				Version string `json:"version"`
			} `json:"packages"`
		}
		raw, err := os.ReadFile("dashboard/package-lock.json")
		Expect(err).NotTo(HaveOccurred())
		Expect(json.Unmarshal(raw, &lock)).To(Succeed())
		version := lock.Packages["node_modules/chart.js"].Version
		Expect(version).NotTo(BeEmpty())
		Expect(get("/dashboard/chart.umd.min.js", "").Body.String()).To(HavePrefix("/*!\n * Chart.js v" + version + "\n"))
	})

	Describe("GET /dashboard/api/key", func() {
		It("names the workspace and the indexes of a search or a write key, and whether it may search and write", func() {
			for role, canWrite := range map[string]bool{"search": false, "write": true} {
				rec := get("/dashboard/api/key", keys[role])
				Expect(rec.Code).To(Equal(http.StatusOK), rec.Body.String())
				var info apiserver.KeyInfo
				Expect(json.Unmarshal(rec.Body.Bytes(), &info)).To(Succeed())
				Expect(info).To(Equal(apiserver.KeyInfo{Workspace: "acme", Indexes: []string{"products"}, CanSearch: !canWrite, CanWrite: canWrite}), role)
			}
		})

		It("refuses a key without either scope, and a missing key", func() {
			rec := get("/dashboard/api/key", keys["events"])
			Expect(rec.Code).To(Equal(http.StatusForbidden))
			Expect(rec.Body.String()).To(ContainSubstring(`"error"`))
			Expect(get("/dashboard/api/key", "").Code).To(Equal(http.StatusUnauthorized))
		})
	})
})
