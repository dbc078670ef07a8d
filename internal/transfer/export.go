package transfer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
)

// PageSize is the most records a GET /records page or a POST /records batch holds.
const PageSize = 1000

type exportPage struct {
	Records []json.RawMessage `json:"records"`
	Cursor  *string           `json:"cursor"`
}

// Export writes every record of the index to w, one JSON object a line, in the API's
// objectID order, and returns how many it wrote. pageDone, when set, hears the running
// count after each page.
func (c *Client) Export(ctx context.Context, w io.Writer, pageDone func(records int)) (int, error) {
	out := bufio.NewWriter(w)
	written := 0
	cursor := ""
	for {
		q := url.Values{"limit": {strconv.Itoa(PageSize)}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		var page exportPage
		if _, err := c.call(ctx, http.MethodGet, "/records", q, nil, &page); err != nil {
			return written, fmt.Errorf("export after %d records: %w", written, err)
		}
		for _, rec := range page.Records {
			if err := writeLine(out, rec); err != nil {
				return written, fmt.Errorf("export: writing record %d: %w", written+1, err)
			}
			written++
		}
		if pageDone != nil {
			pageDone(written)
		}
		if page.Cursor == nil {
			break
		}
		if *page.Cursor == "" || *page.Cursor == cursor {
			return written, fmt.Errorf("export after %d records: the API gave the cursor %q, which does not move on", written, *page.Cursor)
		}
		cursor = *page.Cursor
	}
	if err := out.Flush(); err != nil {
		return written, fmt.Errorf("export: %w", err)
	}
	return written, nil
}

// writeLine writes one record compacted onto one line: NDJSON allows no newline inside.
func writeLine(w *bufio.Writer, rec json.RawMessage) error {
	var buf bytes.Buffer
	if err := json.Compact(&buf, rec); err != nil {
		return err
	}
	buf.WriteByte('\n')
	_, err := w.Write(buf.Bytes())
	return err
}
