package docupdate

import (
	"bytes"

	"github.com/valyala/fastjson"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// Merge applies the partial document doc to the source cur as Elasticsearch's
// XContentHelper.update does: an object in doc whose field is an object in cur merges
// into it, field by field; any other value replaces the field, or is added after the
// existing ones. The fields of cur keep their order. changed reports whether any value
// differs from the one it replaces (detect_noop).
func Merge(cur, doc []byte) (merged []byte, changed bool, err error) {
	var pc, pd fastjson.Parser
	cv, err := pc.ParseBytes(cur)
	if err != nil {
		return nil, false, eserr.DocumentParsing("[1:1] failed to parse the current source: %v", err)
	}
	dv, err := pd.ParseBytes(doc)
	if err != nil {
		return nil, false, eserr.DocumentParsing("[1:1] failed to parse [doc]: %v", err)
	}
	co, err := cv.Object()
	if err != nil {
		return nil, false, eserr.DocumentParsing("[1:1] the current source is not an object")
	}
	do, err := dv.Object()
	if err != nil {
		return nil, false, eserr.DocumentParsing("[1:1] [doc] is not an object")
	}
	changed = mergeInto(co, do)
	return cv.MarshalTo(nil), changed, nil
}

func mergeInto(dst, src *fastjson.Object) bool {
	changed := false
	src.Visit(func(k []byte, v *fastjson.Value) {
		key := string(k)
		old := dst.Get(key)
		if old != nil && old.Type() == fastjson.TypeObject && v.Type() == fastjson.TypeObject {
			oo, _ := old.Object()
			vo, _ := v.Object()
			if mergeInto(oo, vo) {
				changed = true
			}
			return
		}
		if old == nil || !sameValue(old, v) {
			changed = true
		}
		dst.Set(key, v)
	})
	return changed
}

// sameValue compares two JSON values by their compact text: numbers compare by how they
// are written, as ES compares the parsed values (1 and 1.0 are an integer and a double).
func sameValue(a, b *fastjson.Value) bool {
	return bytes.Equal(a.MarshalTo(nil), b.MarshalTo(nil))
}
