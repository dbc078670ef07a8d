package events

import (
	"strings"

	"github.com/mileusna/useragent"
	"github.com/x-way/crawlerdetect"
)

// Reasons browser events are answered but not recorded.
const (
	ReasonCrawler    = "crawler"
	ReasonAutomation = "automation"
)

// automationMarkers betray headless browsers, browser automation and HTTP libraries,
// which the crawler list does not always name.
var automationMarkers = []string{
	"headlesschrome", "headless", "phantomjs", "selenium", "webdriver", "puppeteer",
	"playwright", "slimerjs", "nightmare", "cypress", "python-requests",
	"python-urllib", "aiohttp", "httpx", "curl/", "wget/", "go-http-client", "node-fetch",
	"axios/", "undici", "okhttp", "java/", "apache-httpclient", "libwww-perl", "scrapy",
	"postmanruntime", "insomnia",
}

// DropReason says why events sent with this user agent are not recorded, or "" when
// they come from a person's browser. No user agent at all is automation: every browser
// sends one.
func DropReason(userAgent string) string {
	ua := strings.ToLower(strings.TrimSpace(userAgent))
	if ua == "" {
		return ReasonAutomation
	}
	for _, m := range automationMarkers {
		if strings.Contains(ua, m) {
			return ReasonAutomation
		}
	}
	if crawlerdetect.IsCrawler(userAgent) {
		return ReasonCrawler
	}
	return ""
}

// Device is the device type of a browser: desktop, mobile, tablet or other.
func Device(userAgent string) string {
	ua := useragent.Parse(userAgent)
	switch {
	// Android tablets are Android browsers without "Mobile" (Google's rule for their
	// user agents); the parser counts them as phones.
	case ua.Tablet, ua.IsAndroid() && !strings.Contains(userAgent, "Mobile"):
		return "tablet"
	case ua.Mobile:
		return "mobile"
	case ua.Desktop:
		return "desktop"
	}
	return "other"
}
