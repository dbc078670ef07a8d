package catalog

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
)

// A record the backend refuses is the client's 400, told in the contract's words
// (records, fields, limits) rather than the backend's, whose text names its own
// parameters and exception types.

var (
	parseFieldReason  = regexp.MustCompile(`failed to parse field \[([^\]]+)\] of type \[([^\]]+)\]`)
	totalFieldsReason = regexp.MustCompile(`Limit of total fields \[(\d+)\] has been exceeded`)
)

// refusal words a refusal of the backend (its error type and reason) for the client.
func refusal(errType, reason string) string {
	if m := parseFieldReason.FindStringSubmatch(reason); m != nil {
		return fmt.Sprintf("field %q: the value does not fit the field, which the index holds as %s", m[1], m[2])
	}
	if m := totalFieldsReason.FindStringSubmatch(reason); m != nil {
		return fmt.Sprintf("the index would hold more than %s distinct field paths, its limit (index.mapping.total_fields.limit); send records with fewer distinct fields", m[1])
	}
	switch errType {
	case "strict_dynamic_mapping_exception":
		return "a field the index does not accept"
	case "mapper_parsing_exception", "document_parsing_exception", "illegal_argument_exception":
		return "the record cannot be indexed: a value does not fit its field"
	}
	return "the record cannot be indexed"
}

// refusedWrite turns a backend's 400 on a single record write into ErrInvalid; other
// errors are returned as they are.
func refusedWrite(err error, place string) error {
	var esErr *types.ElasticsearchError
	if !errors.As(err, &esErr) || esErr.Status != http.StatusBadRequest {
		return err
	}
	reason := ""
	if esErr.ErrorCause.Reason != nil {
		reason = *esErr.ErrorCause.Reason
	}
	return Invalid("%s: %s", place, refusal(esErr.ErrorCause.Type, reason))
}
