package apiserver

import (
	"bufio"
	"context"
	"log/slog"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/utils"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/strictjson"
)

// ndjson is the media type of an export streamed as one record a line.
const ndjson = "application/x-ndjson"

// streamBroken is the last line of a stream that could not read all its pages.
const streamBroken = `{"error": "the export stream ended early (its snapshot expired or the backend failed); export again"}` + "\n"

// browseBody is the body of POST /records/browse.
type browseBody struct {
	Filters *searchquery.Filter `json:"filters"`
	Limit   *int                `json:"limit"`
	Cursor  *string             `json:"cursor"`
}

// getRecords answers GET /records?limit=&cursor=: a page of the catalog's records from
// one snapshot, or with Accept: application/x-ndjson all of them as a stream.
func (s *Server) getRecords(c *fiber.Ctx) error {
	limit, cur, err := catalog.ParseExportQuery(c.Query("limit"), utils.CopyString(c.Query("cursor")))
	if err != nil {
		return err
	}
	return s.export(c, limit, cur, nil)
}

// postBrowse answers POST /records/browse: GET /records for the records a search filter
// matches (validated as a search validates it).
func (s *Server) postBrowse(c *fiber.Ctx) error {
	var body browseBody
	if err := strictjson.Decode(c.Body(), &body); err != nil {
		return err
	}
	limit, cur, err := parseBrowse(body)
	if err != nil {
		return err
	}
	t, err := s.target(c)
	if err != nil {
		return err
	}
	filters, err := s.recordFilters(c.UserContext(), t, body.Filters)
	if err != nil {
		return err
	}
	return s.export(c, limit, cur, filters)
}

// parseBrowse reads a browse body's limit and cursor as GET /records reads its query's.
func parseBrowse(body browseBody) (int, *catalog.Cursor, error) {
	limit, cursor := "", ""
	if body.Limit != nil {
		limit = strconv.Itoa(*body.Limit)
	}
	if body.Cursor != nil {
		if cursor = *body.Cursor; cursor == "" {
			return 0, nil, catalog.Invalid("cursor is not one a page of GET /records returned")
		}
	}
	return catalog.ParseExportQuery(limit, cursor)
}

// export answers a page, or the stream when the client accepts NDJSON.
func (s *Server) export(c *fiber.Ctx, limit int, cur *catalog.Cursor, filters []any) error {
	t, err := s.target(c)
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	page, err := s.catalog.Export(ctx, t, limit, cur, filters)
	if err != nil {
		return err
	}
	if !acceptsNDJSON(c.Get(fiber.HeaderAccept)) {
		return c.JSON(page)
	}
	// The first page is read before the answer starts, so that a bad or expired cursor is
	// still a 4xx; a failure later ends the stream early, and its last line is not a record.
	c.Set(fiber.HeaderContentType, ndjson)
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		if err := s.streamRecords(ctx, w, t, page, filters); err != nil {
			loggerFrom(ctx).ErrorContext(ctx, "export stream ended early", slog.Any("error", err))
		}
	})
	return nil
}

// streamRecords writes page's records and every later page's, one line each, flushing
// each page: memory holds one page.
func (s *Server) streamRecords(ctx context.Context, w *bufio.Writer, t catalog.Target, page catalog.ExportPage, filters []any) error {
	for {
		for _, rec := range page.Records {
			if _, err := w.Write(append(rec, '\n')); err != nil {
				return err
			}
		}
		if err := w.Flush(); err != nil || page.Cursor == nil {
			return err
		}
		cur, err := catalog.DecodeCursor(*page.Cursor)
		if err != nil {
			return err
		}
		if page, err = s.catalog.Export(ctx, t, catalog.MaxExportPage, cur, filters); err != nil {
			// A line that is no record tells a reader the stream is incomplete.
			_, _ = w.WriteString(streamBroken)
			_ = w.Flush()
			return err
		}
	}
}

// acceptsNDJSON reports whether an Accept header asks for application/x-ndjson.
func acceptsNDJSON(accept string) bool {
	for _, part := range strings.Split(accept, ",") {
		mt, _, _ := strings.Cut(part, ";")
		if strings.EqualFold(strings.TrimSpace(mt), ndjson) {
			return true
		}
	}
	return false
}
