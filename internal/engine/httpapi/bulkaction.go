package httpapi

import (
	"github.com/valyala/fastjson"
)

// Action lines are decoded with fastjson when they are well formed and use only the
// fields below with their expected types (every line a client normally sends); anything
// else goes to actionLine, whose encoding/json errors become ES's messages. encoding/json
// decoded each line twice (the action, then its metadata), a tenth of the bulk path.
var actionParsers fastjson.ParserPool

// fastActionLine fills it and meta from line and reports whether it could.
func fastActionLine(p *fastjson.Parser, line []byte, it *bulkItem, meta *bulkMeta) bool {
	v, err := p.ParseBytes(line)
	if err != nil {
		return false
	}
	o, err := v.Object()
	if err != nil || o.Len() != 1 {
		return false
	}
	ok := true
	o.Visit(func(k []byte, mv *fastjson.Value) {
		it.action = string(k)
		ok = validAction(it.action) && fastMeta(mv, meta)
	})
	return ok
}

func fastMeta(v *fastjson.Value, meta *bulkMeta) bool {
	o, err := v.Object()
	if err != nil {
		return false
	}
	ok := true
	o.Visit(func(k []byte, f *fastjson.Value) {
		if ok {
			ok = fastMetaField(string(k), f, meta)
		}
	})
	return ok
}

func fastMetaField(key string, f *fastjson.Value, meta *bulkMeta) bool {
	switch key {
	case "_index":
		return fastString(f, &meta.Index)
	case "_id":
		return fastID(f, meta)
	case "op_type":
		return fastString(f, &meta.OpType)
	case "routing":
		return fastString(f, &meta.Routing)
	case "version_type":
		return fastString(f, &meta.VersionType)
	case "pipeline":
		return fastString(f, &meta.Pipeline)
	case "if_seq_no":
		return fastInt(f, &meta.IfSeqNo)
	case "if_primary_term":
		return fastInt(f, &meta.IfPrimaryTerm)
	case "retry_on_conflict":
		return fastInt(f, &meta.RetryOnConflict)
	case "require_alias":
		b, err := f.Bool()
		meta.RequireAlias = &b
		return err == nil
	case "version":
		meta.Version = f.MarshalTo(nil)
		return true
	}
	return false
}

func fastString(f *fastjson.Value, out *string) bool {
	b, err := f.StringBytes()
	*out = string(b)
	return err == nil
}

// fastID takes a string id, or a number's text as ES does; null means no id.
func fastID(f *fastjson.Value, meta *bulkMeta) bool {
	switch f.Type() {
	case fastjson.TypeString:
		b, _ := f.StringBytes()
		s := string(b)
		meta.id = &s
	case fastjson.TypeNumber:
		s := string(f.MarshalTo(nil))
		meta.id = &s
	case fastjson.TypeNull:
		meta.id, meta.ID = nil, nil
	default:
		return false
	}
	return true
}

func fastInt(f *fastjson.Value, out **int64) bool {
	if f.Type() == fastjson.TypeNull {
		*out = nil
		return true
	}
	n, err := f.Int64()
	*out = &n
	return err == nil
}
