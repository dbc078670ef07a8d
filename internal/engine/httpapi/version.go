package httpapi

import (
	"strconv"
	"strings"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// externalVersion reads an index request's version and version_type: external
// versioning (external, external_gte) sets the version the document takes. Internal
// versioning is refused as ES 8 refuses it, in favour of if_seq_no/if_primary_term.
func externalVersion(q *req, create, cas bool) (*int64, bool, error) {
	_, hasVersion := q.params["version"]
	vt := strings.ToLower(q.param("version_type"))
	if !hasVersion && vt == "" {
		return nil, false, nil
	}
	switch vt {
	case "external", "external_gte":
	case "", "internal":
		return nil, false, eserr.ActionValidation("internal versioning can not be used for optimistic concurrency control. Please use `if_seq_no` and `if_primary_term` instead")
	case "force":
		return nil, false, eserr.ActionValidation("version type [force] may no longer be used")
	default:
		return nil, false, eserr.IllegalArgument("No version type match [%s]", q.param("version_type"))
	}
	v, err := int64Param(q, "version")
	switch {
	case err != nil:
		return nil, false, err
	case v == nil || *v < 0:
		return nil, false, eserr.ActionValidation("illegal version value [" + versionText(v) + "] for version type [" + strings.ToUpper(vt) + "]")
	case create:
		return nil, false, eserr.ActionValidation("create operations only support internal versioning. use index instead")
	case cas:
		return nil, false, eserr.ActionValidation("compare and write operations can not use versioning")
	}
	return v, vt == "external_gte", nil
}

func versionText(v *int64) string {
	if v == nil {
		return "-3" // ES's Versions.MATCH_ANY, the version of a request without one
	}
	return strconv.FormatInt(*v, 10)
}
