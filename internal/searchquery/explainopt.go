package searchquery

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/aislehq/aisle/internal/indexmapping"
	"github.com/aislehq/aisle/internal/strictjson"
)

// MaxObjectIDBytes bounds explain's objectID, as a record's (Elasticsearch's _id limit).
const MaxObjectIDBytes = 512

// Explain is a request's explain: true adds each hit's ranking; the object form
// {"objectID": "..."} does too, and asks why that record is not on the page (whyNot).
type Explain struct {
	// On adds each hit's ranking.
	On bool
	// ObjectID is the record the answer's whyNot is about; empty: none.
	ObjectID string
}

// explainObject is the object form of explain.
type explainObject struct {
	ObjectID *json.RawMessage `json:"objectID"`
}

// UnmarshalJSON reads true, false or {"objectID": "..."}: a non-empty string of at most
// MaxObjectIDBytes, and no other member.
func (e *Explain) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*e = Explain{}
		return nil
	case len(b) > 0 && b[0] != '{':
		var on bool
		if err := json.Unmarshal(b, &on); err != nil {
			return problem(`must be true, false or {"objectID": "..."}`)
		}
		*e = Explain{On: on}
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var o explainObject
	if err := dec.Decode(&o); err != nil {
		return problem(`must be true, false or {"objectID": "..."} with no other member (%v)`, err)
	}
	id, err := objectIDOf(o.ObjectID)
	if err != nil {
		return err
	}
	*e = Explain{On: true, ObjectID: id}
	return nil
}

// objectIDOf is the objectID member's string, or why it is not one.
func objectIDOf(raw *json.RawMessage) (string, error) {
	if raw == nil {
		return "", problem("objectID is required")
	}
	var id string
	if err := json.Unmarshal(*raw, &id); err != nil {
		return "", problem("objectID must be a string")
	}
	switch {
	case id == "":
		return "", problem("objectID must not be empty")
	case len(id) > MaxObjectIDBytes:
		return "", problem("objectID must be at most %d bytes", MaxObjectIDBytes)
	}
	return id, nil
}

// MarshalJSON writes the form the request used.
func (e Explain) MarshalJSON() ([]byte, error) {
	if e.ObjectID != "" {
		return json.Marshal(map[string]string{indexmapping.ObjectIDField: e.ObjectID})
	}
	return json.Marshal(e.On)
}

// problem is a Problem strictjson names at explain.
func problem(format string, args ...any) error {
	return &strictjson.Problem{Msg: fmt.Sprintf(format, args...)}
}
