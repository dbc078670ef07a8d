package yamlrest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// ES's runner matches `catch: /regex/` against error.toString() of a map
// parsed in document order, so patterns such as `type_x.+ reason text` rely
// on the server emitting "type" before "reason" as Elasticsearch does. This
// file renders a JSON value Java-style while keeping the server's key order.

// orderedErrorString renders the top-level "error" field of raw.
func orderedErrorString(raw []byte) (string, bool) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	for d.More() {
		k, err := d.Token()
		if err != nil {
			return "", false
		}
		var sb strings.Builder
		if err := writeOrdered(d, &sb); err != nil {
			return "", false
		}
		if k == "error" {
			return sb.String(), true
		}
	}
	return "", false
}

// writeOrdered consumes one value from d and writes its Java-style text.
func writeOrdered(d *json.Decoder, sb *strings.Builder) error {
	t, err := d.Token()
	if err != nil {
		return err
	}
	switch v := t.(type) {
	case json.Delim:
		open, close, sep := "{", "}", "="
		if v == '[' {
			open, close = "[", "]"
		}
		sb.WriteString(open)
		for i := 0; d.More(); i++ {
			if i > 0 {
				sb.WriteString(", ")
			}
			if v == '{' {
				k, err := d.Token()
				if err != nil {
					return err
				}
				sb.WriteString(fmt.Sprint(k) + sep)
			}
			if err := writeOrdered(d, sb); err != nil {
				return err
			}
		}
		if _, err := d.Token(); err != nil { // the closing delimiter
			return err
		}
		sb.WriteString(close)
	case nil:
		sb.WriteString("null")
	default:
		sb.WriteString(scalarString(v))
	}
	return nil
}
