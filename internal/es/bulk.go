package es

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// BulkItem is one item of a _bulk answer, with the fields callers read.
type BulkItem struct {
	Index       string      `json:"_index"`
	ID          string      `json:"_id"`
	Result      string      `json:"result"`
	Status      int         `json:"status"`
	SeqNo       *int64      `json:"_seq_no"`
	PrimaryTerm *int64      `json:"_primary_term"`
	Error       *BulkReason `json:"error"`
}

// BulkReason is why a _bulk item failed.
type BulkReason struct {
	Type   string `json:"type"`
	Reason string `json:"reason"`
}

// BulkItems reads the answer to a _bulk of actions actions sent with Perform: one item
// per action, in order; an answer with another number of items is ErrUnavailable. The
// typed client's Do decodes every item token by token into a general structure, which
// cost a two-hundred-event request more CPU than validating the events; these are the
// few fields a caller reads, decoded as one struct.
func BulkItems(actions int, res *http.Response, err error) ([]BulkItem, error) {
	raw, err := ReadBody(res, err)
	if err != nil {
		return nil, err
	}
	var ans struct {
		Items []map[string]BulkItem `json:"items"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return nil, fmt.Errorf("%w: decoding a _bulk answer: %w", ErrUnavailable, err)
	}
	if len(ans.Items) != actions {
		return nil, fmt.Errorf("%w: a _bulk of %d actions answered with %d items", ErrUnavailable, actions, len(ans.Items))
	}
	items := make([]BulkItem, len(ans.Items))
	for i, item := range ans.Items {
		for _, r := range item {
			items[i] = r
		}
	}
	return items, nil
}
