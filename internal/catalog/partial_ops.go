package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/aislehq/aisle/internal/indexmapping"
)

// Partial updates (POST /records/partial): the operations of a request, how they are
// validated, and what one does to a record. All of it is pure; partial_write.go runs
// them against the stored records.

// MaxPartialOperations is the most operations one request takes.
const MaxPartialOperations = 1000

// PartialRequest is the body of POST /records/partial.
type PartialRequest struct {
	Operations *[]PartialOperation `json:"operations"`
	// IdempotencyKey is nil when absent; present, it must be a valid key (not "").
	IdempotencyKey *string `json:"idempotencyKey,omitempty"`
}

// PartialOperation is one operation on one record. Field names are the record's
// top-level fields; a value of set, add, addUnique and remove is any JSON value, one
// of increment and decrement a number.
type PartialOperation struct {
	ObjectID        *string                    `json:"objectID"`
	Set             map[string]json.RawMessage `json:"set,omitempty"`
	Unset           []string                   `json:"unset,omitempty"`
	Increment       map[string]json.RawMessage `json:"increment,omitempty"`
	Decrement       map[string]json.RawMessage `json:"decrement,omitempty"`
	Add             map[string]json.RawMessage `json:"add,omitempty"`
	AddUnique       map[string]json.RawMessage `json:"addUnique,omitempty"`
	Remove          map[string]json.RawMessage `json:"remove,omitempty"`
	ExpectedVersion *int64                     `json:"expectedVersion,omitempty"`
	CreateIfMissing bool                       `json:"createIfMissing,omitempty"`
}

// Partial is a validated partial update request.
type Partial struct {
	Ops            []PartialOperation
	IdempotencyKey string
}

// Rejection is an operation that was not applied, by its position, and why.
type Rejection struct {
	Index  int    `json:"index"`
	Reason string `json:"reason"`
}

// ValidatePartial checks a request's operations; the error names the first bad one.
func ValidatePartial(r PartialRequest) (Partial, error) {
	if r.Operations == nil {
		return Partial{}, Invalid("operations is required")
	}
	ops := *r.Operations
	if len(ops) < 1 || len(ops) > MaxPartialOperations {
		return Partial{}, Invalid("operations: expected 1 to %d operations, got %d", MaxPartialOperations, len(ops))
	}
	for i, op := range ops {
		if err := validateOperation(fmt.Sprintf("operations[%d]", i), op); err != nil {
			return Partial{}, err
		}
	}
	p := Partial{Ops: ops}
	if r.IdempotencyKey != nil {
		if err := ValidateKey("idempotencyKey", *r.IdempotencyKey); err != nil {
			return Partial{}, err
		}
		p.IdempotencyKey = *r.IdempotencyKey
	}
	return p, nil
}

// validateOperation checks the operation at place ("operations[3]").
func validateOperation(place string, op PartialOperation) error {
	if op.ObjectID == nil {
		return Invalid("%s.objectID must be a non-empty string", place)
	}
	if err := ValidateObjectID(place+".objectID", *op.ObjectID); err != nil {
		return err
	}
	if op.ExpectedVersion != nil && *op.ExpectedVersion < 0 {
		return Invalid("%s.expectedVersion must be an integer of at least 0", place)
	}
	seen := map[string]string{}
	for _, k := range op.kinds() {
		for _, f := range k.fields {
			if err := checkOperationField(k.name, f, seen); err != nil {
				return Invalid("%s.%s", place, err)
			}
		}
	}
	if len(seen) == 0 {
		return Invalid("%s: at least one of set, unset, increment, decrement, add, addUnique and remove must name a field", place)
	}
	for _, k := range []struct {
		name string
		m    map[string]json.RawMessage
	}{{"increment", op.Increment}, {"decrement", op.Decrement}} {
		for _, f := range sortedKeys(k.m) {
			if _, ok := parseNumber(k.m[f]); !ok {
				return Invalid("%s.%s.%s must be a finite number", place, k.name, f)
			}
		}
	}
	return nil
}

func checkOperationField(kind, field string, seen map[string]string) error {
	switch field {
	case "":
		return fmt.Errorf("%s: field names must not be empty", kind)
	case indexmapping.ObjectIDField:
		return fmt.Errorf("%s: objectID cannot be changed", kind)
	case indexmapping.VersionField, indexmapping.EmbedStateField:
		return fmt.Errorf("%s: %s is a reserved field name", kind, field)
	}
	if other, ok := seen[field]; ok {
		return fmt.Errorf("%s: field %q is named by both %s and %s: one operation changes a field once", kind, field, other, kind)
	}
	seen[field] = kind
	return nil
}

// operationKind is the fields one kind of change names, in the order they apply.
type operationKind struct {
	name   string
	fields []string
}

func (op PartialOperation) kinds() []operationKind {
	return []operationKind{
		{"set", sortedKeys(op.Set)}, {"unset", op.Unset}, {"increment", sortedKeys(op.Increment)},
		{"decrement", sortedKeys(op.Decrement)}, {"add", sortedKeys(op.Add)},
		{"addUnique", sortedKeys(op.AddUnique)}, {"remove", sortedKeys(op.Remove)},
	}
}

// valuesRecord is a record holding the values operation i writes (an added value as
// the field's value, an increment as a number), to check them against the index's
// field types; a value to remove is left out, as it is never written.
func valuesRecord(i int, op PartialOperation) (Record, error) {
	id, _ := json.Marshal(*op.ObjectID)
	fields := map[string]json.RawMessage{indexmapping.ObjectIDField: id}
	for _, m := range []map[string]json.RawMessage{op.Set, op.Increment, op.Decrement, op.Add, op.AddUnique} {
		for f, v := range m {
			fields[f] = v
		}
	}
	raw, err := EncodeRecord(fields)
	return Record{ID: *op.ObjectID, Raw: raw, Place: fmt.Sprintf("operations[%d]", i)}, err
}

// StoredRecord is a record as an operation finds it: its fields (nil: it does not
// exist) and its version (0 when absent).
type StoredRecord struct {
	Fields  map[string]json.RawMessage
	Version int64
}

// Reasons an operation is rejected for its record.
const (
	ReasonMissing = "the record does not exist (set createIfMissing to create it)"
)

// ApplyOperation is what op does to the record cur: the record after it, or the reason
// it is rejected, which leaves cur as it was. expectedVersion is compared with
// version, the record's version before the request.
func ApplyOperation(cur StoredRecord, version int64, op PartialOperation) (StoredRecord, string) {
	if op.ExpectedVersion != nil && *op.ExpectedVersion != version {
		return cur, fmt.Sprintf("the record's version is %d, not the expectedVersion %d", version, *op.ExpectedVersion)
	}
	if cur.Fields == nil && !op.CreateIfMissing {
		return cur, ReasonMissing
	}
	next := make(map[string]json.RawMessage, len(cur.Fields)+len(op.Set))
	for k, v := range cur.Fields {
		next[k] = v
	}
	if cur.Fields == nil {
		id, _ := json.Marshal(*op.ObjectID)
		next[indexmapping.ObjectIDField] = id
	}
	if reason := changeFields(next, op); reason != "" {
		return cur, reason
	}
	return StoredRecord{Fields: next, Version: cur.Version}, ""
}

func changeFields(rec map[string]json.RawMessage, op PartialOperation) string {
	for f, v := range op.Set {
		rec[f] = v
	}
	for _, f := range op.Unset {
		delete(rec, f)
	}
	for _, change := range []struct {
		name   string
		m      map[string]json.RawMessage
		negate bool
	}{{"increment", op.Increment, false}, {"decrement", op.Decrement, true}} {
		for _, f := range sortedKeys(change.m) {
			if reason := addNumber(rec, f, change.m[f], change.negate); reason != "" {
				return change.name + ": " + reason
			}
		}
	}
	for _, change := range []struct {
		name string
		m    map[string]json.RawMessage
		fn   func([]json.RawMessage, json.RawMessage) []json.RawMessage
	}{{"add", op.Add, appendValue}, {"addUnique", op.AddUnique, appendUnique}, {"remove", op.Remove, removeValue}} {
		for _, f := range sortedKeys(change.m) {
			if reason := changeArray(rec, f, change.m[f], change.fn); reason != "" {
				return change.name + ": " + reason
			}
		}
	}
	return ""
}

// ApplyOperations applies the operations at positions idx of ops, in order, to the
// record cur: the record after them, whether it differs from cur, and the operations
// rejected. Each operation's expectedVersion is compared with cur's version.
func ApplyOperations(cur StoredRecord, ops []PartialOperation, idx []int) (StoredRecord, bool, []Rejection) {
	next := cur
	var rejected []Rejection
	for _, i := range idx {
		var reason string
		if next, reason = ApplyOperation(next, cur.Version, ops[i]); reason != "" {
			rejected = append(rejected, Rejection{Index: i, Reason: reason})
		}
	}
	return next, differs(cur.Fields, next.Fields), rejected
}

// differs reports whether two records differ by meaning.
func differs(a, b map[string]json.RawMessage) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return true
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !sameJSON(v, w) {
			return true
		}
	}
	return false
}

// sortRejections orders rejections by operation.
func sortRejections(r []Rejection) {
	slices.SortFunc(r, func(a, b Rejection) int { return a.Index - b.Index })
}

// number is a JSON number, exact when it is an integer.
type number struct {
	i     int64
	f     float64
	isInt bool
}

func parseNumber(raw json.RawMessage) (number, bool) {
	s := string(bytes.TrimSpace(raw))
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return number{i: i, f: float64(i), isInt: true}, true
	}
	if len(s) == 0 || s[0] == '"' || s[0] == '+' {
		return number{}, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return number{}, false
	}
	return number{f: f}, true
}

// addNumber adds by (its negation with negate) to the field f; an absent field counts
// from 0. Integers stay exact; an integer result outside int64 is refused.
func addNumber(rec map[string]json.RawMessage, f string, by json.RawMessage, negate bool) string {
	d, _ := parseNumber(by)
	cur := number{isInt: true}
	if raw, ok := rec[f]; ok && string(raw) != "null" {
		var ok bool
		if cur, ok = parseNumber(raw); !ok {
			return fmt.Sprintf("field %q is not a number", f)
		}
	}
	if negate {
		if d.isInt && d.i == math.MinInt64 { // has no int64 negation
			return fmt.Sprintf("field %q would overflow a 64-bit integer", f)
		}
		d.i, d.f = -d.i, -d.f
	}
	if cur.isInt && d.isInt {
		sum := cur.i + d.i
		if (d.i > 0 && sum < cur.i) || (d.i < 0 && sum > cur.i) {
			return fmt.Sprintf("field %q would overflow a 64-bit integer", f)
		}
		rec[f] = strconv.AppendInt(nil, sum, 10)
		return ""
	}
	sum := cur.f + d.f
	if math.IsInf(sum, 0) {
		return fmt.Sprintf("field %q would overflow", f)
	}
	rec[f] = strconv.AppendFloat(nil, sum, 'g', -1, 64)
	return ""
}

// changeArray applies fn to the array in field f; an absent field is an empty array.
func changeArray(rec map[string]json.RawMessage, f string, v json.RawMessage, fn func([]json.RawMessage, json.RawMessage) []json.RawMessage) string {
	var arr []json.RawMessage
	if raw, ok := rec[f]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &arr); err != nil {
			return fmt.Sprintf("field %q is not an array", f)
		}
	}
	out, err := json.Marshal(fn(arr, v))
	if err != nil {
		return fmt.Sprintf("field %q: %v", f, err)
	}
	rec[f] = out
	return ""
}

func appendValue(arr []json.RawMessage, v json.RawMessage) []json.RawMessage {
	return append(arr, v)
}

func appendUnique(arr []json.RawMessage, v json.RawMessage) []json.RawMessage {
	for _, e := range arr {
		if sameJSON(e, v) {
			return arr
		}
	}
	return append(arr, v)
}

func removeValue(arr []json.RawMessage, v json.RawMessage) []json.RawMessage {
	out := make([]json.RawMessage, 0, len(arr))
	for _, e := range arr {
		if !sameJSON(e, v) {
			out = append(out, e)
		}
	}
	return out
}

// sameJSON compares two values by meaning: members in any order, any whitespace.
func sameJSON(a, b json.RawMessage) bool {
	// The fields no operation named are the very bytes read: no need to re-encode them.
	return bytes.Equal(a, b) || bytes.Equal(CanonicalJSON(a), CanonicalJSON(b))
}

// EncodeRecord is a record's JSON, members sorted by name, as reads return records.
func EncodeRecord(fields map[string]json.RawMessage) (json.RawMessage, error) {
	out, err := json.Marshal(fields)
	if err != nil {
		return nil, fmt.Errorf("encoding a record: %w", err)
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// CanonicalJSON re-encodes a JSON value with object members sorted by name; a value
// that does not decode is taken as it is. Numbers keep their text, so 1 and 1.0 differ
// as they may in a record.
func CanonicalJSON(body []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return body
	}
	out, err := json.Marshal(v)
	if err != nil {
		return body
	}
	return out
}
