package aggs

import (
	"math"
	"strconv"
	"strings"
)

// javaDouble renders f as Java's Double.toString does, as ES renders range keys and
// numbers in messages: a decimal with at least one fraction digit between 10^-3 and
// 10^7, else computerized scientific notation ("1.0E7").
func javaDouble(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0 || (math.Abs(f) >= 1e-3 && math.Abs(f) < 1e7):
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}

// decimalFormat renders f with a Java DecimalFormat pattern of the common shape: a
// literal prefix, digits ('0' always shown, '#' when significant) with an optional
// fraction, and a literal suffix ("0.0#", "Value is ##0.0"). Grouping separators are
// ignored; rounding is half-even.
func decimalFormat(pattern string, f float64) string {
	start := strings.IndexAny(pattern, "#0.")
	if start < 0 {
		return pattern
	}
	end := start
	for end < len(pattern) && strings.ContainsRune("#0.,", rune(pattern[end])) {
		end++
	}
	intPart, fracPart, hasPoint := strings.Cut(strings.ReplaceAll(pattern[start:end], ",", ""), ".")
	minInt := strings.Count(intPart, "0")
	minFrac, maxFrac := strings.Count(fracPart, "0"), len(fracPart)
	digits := strconv.FormatFloat(math.Abs(f), 'f', maxFrac, 64)
	whole, frac, _ := strings.Cut(digits, ".")
	frac = strings.TrimRight(frac, "0")
	for len(frac) < minFrac {
		frac += "0"
	}
	if whole == "0" && minInt == 0 {
		whole = ""
	}
	for len(whole) < minInt {
		whole = "0" + whole
	}
	num := whole
	if hasPoint && frac != "" {
		num += "." + frac
	}
	sign := ""
	if f < 0 && strings.Trim(num, "0.") != "" {
		sign = "-"
	}
	return sign + pattern[:start] + num + pattern[end:]
}
