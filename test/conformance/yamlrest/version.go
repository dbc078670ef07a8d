package yamlrest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Version is a release version; suffixes such as -SNAPSHOT are ignored.
type Version [3]int

var versionRE = regexp.MustCompile(`^\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?`)

// ParseVersion reads "8.15.0", "8.15.0-SNAPSHOT" or "1.0.0.Beta1".
func ParseVersion(s string) (Version, error) {
	m := versionRE.FindStringSubmatch(s)
	if m == nil {
		return Version{}, fmt.Errorf("not a version: %q", s)
	}
	var v Version
	for i := 0; i < 3; i++ {
		if m[i+1] != "" {
			v[i], _ = strconv.Atoi(m[i+1])
		}
	}
	return v, nil
}

// Compare returns -1, 0 or 1.
func (v Version) Compare(o Version) int {
	for i := range v {
		if v[i] != o[i] {
			if v[i] < o[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

func (v Version) String() string { return fmt.Sprintf("%d.%d.%d", v[0], v[1], v[2]) }

var rangeRE = regexp.MustCompile(`^\s*([0-9A-Za-z.]*)\s*-\s*([0-9A-Za-z.]*)\s*$`)

// InRanges evaluates a skip `version` value: "all", or comma-separated
// "min - max" ranges where either bound may be empty (open-ended).
func (v Version) InRanges(spec string) (bool, error) {
	if strings.TrimSpace(spec) == "all" {
		return true, nil
	}
	for _, r := range strings.Split(spec, ",") {
		m := rangeRE.FindStringSubmatch(r)
		if m == nil {
			return false, fmt.Errorf("bad version range %q", r)
		}
		in, err := v.inRange(m[1], m[2])
		if err != nil || in {
			return in, err
		}
	}
	return false, nil
}

func (v Version) inRange(lo, hi string) (bool, error) {
	if lo != "" {
		min, err := ParseVersion(lo)
		if err != nil {
			return false, err
		}
		if v.Compare(min) < 0 {
			return false, nil
		}
	}
	if hi != "" {
		max, err := ParseVersion(hi)
		if err != nil {
			return false, err
		}
		if v.Compare(max) > 0 {
			return false, nil
		}
	}
	return true, nil
}
