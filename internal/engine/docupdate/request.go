// Package docupdate is Elasticsearch's update of a document by a partial document: the
// body of `_update` and of a bulk `update` action, and how it turns the current source
// into the new one (doc, upsert, doc_as_upsert, detect_noop). Scripts are refused.
package docupdate

import (
	"maps"
	"slices"

	"github.com/valyala/fastjson"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// Request is a parsed update body.
type Request struct {
	// Doc is the partial document merged into the current source; nil without one.
	Doc []byte
	// Upsert is the source indexed when the document does not exist; nil without one.
	Upsert      []byte
	DocAsUpsert bool
	DetectNoop  bool
	// Source is the body's _source option (response filtering) as JSON, nil when absent.
	Source []byte
	id     string
}

// Parse reads an update body for the document id, with ES's validation (casSet: the
// request carries if_seq_no/if_primary_term). The body is parsed into a fresh value, so
// the Request may be kept after the caller's parser is reused.
func Parse(body []byte, id string, casSet bool) (*Request, error) {
	// fastjson's parser lets a control character stand unescaped in a string, which
	// Elasticsearch's JSON parser refuses and which would be written back as invalid
	// JSON; its validator does not.
	if err := fastjson.ValidateBytes(body); err != nil {
		return nil, eserr.XContentParse("[1:1] [UpdateRequest] failed to parse: %v", err)
	}
	v, err := fastjson.ParseBytes(body)
	if err != nil {
		return nil, eserr.XContentParse("[1:1] [UpdateRequest] failed to parse: %v", err)
	}
	o, err := v.Object()
	if err != nil {
		return nil, eserr.XContentParse("[1:1] [UpdateRequest] the body must be an object")
	}
	r := &Request{DetectNoop: true, id: id}
	var perr error
	o.Visit(func(k []byte, f *fastjson.Value) {
		if perr == nil {
			perr = r.field(string(k), f)
		}
	})
	if perr != nil {
		return nil, perr
	}
	return r, r.validate(casSet)
}

// setters read UpdateRequest's body fields; their names are the candidates of its
// "did you mean".
var setters = map[string]func(r *Request, f *fastjson.Value) error{
	"script":          refuseScript,
	"scripted_upsert": refuseScript,
	"doc":             func(r *Request, f *fastjson.Value) (err error) { r.Doc, err = object("doc", f); return err },
	"upsert":          func(r *Request, f *fastjson.Value) (err error) { r.Upsert, err = object("upsert", f); return err },
	"doc_as_upsert": func(r *Request, f *fastjson.Value) (err error) {
		r.DocAsUpsert, err = boolean("doc_as_upsert", f)
		return err
	},
	"detect_noop": func(r *Request, f *fastjson.Value) (err error) {
		r.DetectNoop, err = boolean("detect_noop", f)
		return err
	},
	"_source": func(r *Request, f *fastjson.Value) error { r.Source = f.MarshalTo(nil); return nil },
}

func (r *Request) field(key string, f *fastjson.Value) error {
	set, ok := setters[key]
	if !ok {
		return eserr.XContentParse("[1:2] [UpdateRequest] unknown field [%s]%s", key, eserr.DidYouMean(key, slices.Sorted(maps.Keys(setters))))
	}
	return set(r, f)
}

func refuseScript(*Request, *fastjson.Value) error {
	return eserr.IllegalArgument("update scripts are not supported by this engine: send a partial document in [doc]")
}

func object(key string, f *fastjson.Value) ([]byte, error) {
	if f.Type() != fastjson.TypeObject {
		return nil, eserr.XContentParse("[1:2] [UpdateRequest] failed to parse field [%s]", key)
	}
	return f.MarshalTo(nil), nil
}

func boolean(key string, f *fastjson.Value) (bool, error) {
	switch f.Type() {
	case fastjson.TypeTrue:
		return true, nil
	case fastjson.TypeFalse:
		return false, nil
	case fastjson.TypeString:
		switch string(f.GetStringBytes()) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	}
	return false, eserr.XContentParse("[1:2] [UpdateRequest] failed to parse field [%s]", key)
}

// validate is UpdateRequest.validate without the script rules.
func (r *Request) validate(casSet bool) error {
	switch {
	case r.Doc == nil:
		return eserr.ActionValidation("script or doc is missing")
	case casSet && (r.Upsert != nil || r.DocAsUpsert):
		return eserr.ActionValidation("upsert requests don't support `if_seq_no` and `if_primary_term`")
	}
	return nil
}

// Apply computes the new source from the current one (nil: the document does not
// exist). noop is set when detect_noop finds the merge changes nothing; the source is
// then the current one.
func (r *Request) Apply(cur []byte) (src []byte, noop bool, err error) {
	if cur == nil {
		switch {
		case r.Upsert != nil:
			return r.Upsert, false, nil
		case r.DocAsUpsert:
			return r.Doc, false, nil
		}
		return nil, false, eserr.New(404, "document_missing_exception", "[%s]: document missing", r.id).
			With("index_uuid", "_na_").With("shard", "0")
	}
	merged, changed, err := Merge(cur, r.Doc)
	if err != nil {
		return nil, false, err
	}
	if !changed && r.DetectNoop {
		return cur, true, nil
	}
	return merged, false, nil
}
