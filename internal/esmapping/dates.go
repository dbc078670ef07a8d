package esmapping

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// isoLayouts cover ES's strict_date_optional_time: a date, optionally with time, fraction and
// zone. A value without a zone is UTC, as in ES.
var isoLayouts = []string{
	"2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02T15:04:05.999999999Z0700",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
	"2006-01-02T15",
	"2006-01-02",
	"2006-01",
	"2006",
}

var slashLayouts = []string{"2006/01/02 15:04:05 -0700", "2006/01/02 15:04:05", "2006/01/02 -0700", "2006/01/02"}

// ParseDate parses a date value according to an ES format string ("a||b"); an empty format
// means ES's default "strict_date_optional_time||epoch_millis".
func ParseDate(v any, format string) (time.Time, error) {
	if format == "" {
		format = "strict_date_optional_time||epoch_millis"
	}
	for _, f := range strings.Split(format, "||") {
		if t, ok := parseOne(v, strings.TrimSpace(f)); ok {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("failed to parse date field [%v] with format [%s]", v, format)
}

func parseOne(v any, f string) (time.Time, bool) {
	switch f {
	case "epoch_millis", "epoch_second":
		var n float64
		switch x := v.(type) {
		case float64:
			n = x
		case string:
			p, err := strconv.ParseFloat(x, 64)
			if err != nil {
				return time.Time{}, false
			}
			n = p
		default:
			return time.Time{}, false
		}
		if f == "epoch_second" {
			n *= 1000
		}
		ms := math.Floor(n)
		return time.UnixMilli(int64(ms)).UTC(), true
	}
	s, ok := v.(string)
	if !ok {
		return time.Time{}, false
	}
	var layouts []string
	switch f {
	case "strict_date_optional_time", "date_optional_time", "strict_date_optional_time_nanos", "date_time", "strict_date_time", "iso8601":
		layouts = isoLayouts
	case "yyyy-MM-dd", "strict_date", "date":
		layouts = []string{"2006-01-02"}
	case "yyyy/MM/dd HH:mm:ss Z", "yyyy/MM/dd Z", "yyyy/MM/dd HH:mm:ss", "yyyy/MM/dd":
		layouts = slashLayouts
	case "yyyy-MM-dd HH:mm:ss":
		layouts = []string{"2006-01-02 15:04:05"}
	case "yyyy-MM":
		layouts = []string{"2006-01"}
	case "yyyy":
		layouts = []string{"2006"}
	default:
		if l, ok := javaLayout(f); ok {
			layouts = []string{l}
		} else {
			layouts = isoLayouts
		}
	}
	for _, l := range layouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// DetectDate reports whether a string looks like a date under ES's dynamic_date_formats
// (strict_date_optional_time and yyyy/MM/dd HH:mm:ss Z||yyyy/MM/dd Z). A bare number never
// counts: ES requires at least a year-month-day shape for detection.
func DetectDate(s string) bool {
	if len(s) < 8 || s[0] < '0' || s[0] > '9' {
		return false
	}
	if len(s) >= 10 && (s[4] == '-' || s[4] == '/') {
		_, err := ParseDate(s, "strict_date_optional_time||yyyy/MM/dd HH:mm:ss Z")
		return err == nil
	}
	return false
}

// FormatDate renders a time like ES renders date keys: strict_date_optional_time in UTC.
func FormatDate(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// javaLayout converts a Java DateTimeFormatter pattern such as "yyyy-MM-dd HH:mm:ss.SSS"
// into a Go layout; ok is false for patterns with letters it does not know.
func javaLayout(p string) (string, bool) {
	repl := []struct{ java, goLayout string }{
		{"yyyy", "2006"}, {"uuuu", "2006"}, {"yy", "06"}, {"MMMM", "January"}, {"MMM", "Jan"}, {"MM", "01"},
		{"dd", "02"}, {"HH", "15"}, {"hh", "03"}, {"mm", "04"}, {"ss", "05"}, {"SSSSSSSSS", "000000000"},
		{"SSSSSS", "000000"}, {"SSS", "000"}, {"XXX", "Z07:00"}, {"xxx", "-07:00"}, {"Z", "-0700"}, {"a", "PM"},
		{"EEE", "Mon"},
	}
	var b strings.Builder
	for i := 0; i < len(p); {
		if p[i] == '\'' {
			j := strings.IndexByte(p[i+1:], '\'')
			if j < 0 {
				return "", false
			}
			b.WriteString(p[i+1 : i+1+j])
			i += j + 2
			continue
		}
		matched := false
		for _, r := range repl {
			if strings.HasPrefix(p[i:], r.java) {
				b.WriteString(r.goLayout)
				i += len(r.java)
				matched = true
				break
			}
		}
		if matched {
			continue
		}
		c := p[i]
		if (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') {
			return "", false
		}
		b.WriteByte(c)
		i++
	}
	return b.String(), true
}
