package esspec

import (
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/aislehq/aisle/test/conformance/yamlrest"
)

// CheckParams holds each query parameter to the API's own and the common ones, and its
// value to the declared type.
func (s *Spec) CheckParams(api *yamlrest.API, query url.Values) error {
	names := make([]string, 0, len(query))
	for k := range query {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		p, ok := s.paramOf(api, name)
		if !ok {
			return violation(api, "unknown query parameter [%s]", name)
		}
		for _, v := range query[name] {
			if !fits(p, name, v) {
				return violation(api, "parameter [%s] of type %s does not take [%s]", name, describe(p), v)
			}
		}
	}
	return nil
}

// ES's time values: -1 or 0, or a number with a unit (TimeValue.parseTimeValue).
var timeValue = regexp.MustCompile(`^(-1|0|\d+(\.\d+)?(nanos|micros|ms|s|m|h|d))$`)

// listEnums are enums whose value ES reads as a comma-separated list of options.
var listEnums = map[string]bool{"expand_wildcards": true}

func fits(p yamlrest.Param, name, v string) bool {
	switch p.Type {
	case "boolean":
		// An empty value is true (RestRequest.paramAsBoolean).
		return v == "" || v == "true" || v == "false"
	case "number":
		_, err := strconv.ParseFloat(v, 64)
		return err == nil
	case "boolean|long":
		_, err := strconv.ParseInt(v, 10, 64)
		return err == nil || v == "true" || v == "false"
	case "time":
		return timeValue.MatchString(v)
	case "enum":
		return fitsEnum(p.Options, name, v)
	}
	return true // string, list, number|string
}

func fitsEnum(options []string, name, v string) bool {
	values := []string{v}
	if listEnums[name] {
		values = strings.Split(v, ",")
	}
	for _, one := range values {
		ok := false
		for _, o := range options {
			ok = ok || o == one
		}
		if !ok {
			return false
		}
	}
	return true
}

func describe(p yamlrest.Param) string {
	if p.Type == "enum" {
		return "enum [" + strings.Join(p.Options, ", ") + "]"
	}
	return p.Type
}
