package apiserver

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"github.com/aislehq/aisle/internal/indexmapping"
	"net/url"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/utils"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/strictjson"
)

// recordsBody is the body of POST and PUT /records and of a staged batch.
type recordsBody struct {
	Records *[]json.RawMessage `json:"records"`
}

// bindRecords decodes {records: [...]} and validates between minN and maxN records.
func bindRecords(c *fiber.Ctx, minN, maxN int) ([]catalog.Record, error) {
	var body recordsBody
	if err := strictjson.Decode(c.Body(), &body); err != nil {
		return nil, err
	}
	if body.Records == nil {
		return nil, errRecordsRequired
	}
	return catalog.ValidateRecords(*body.Records, minN, maxN)
}

// target describes the request's index to the catalog service, with the workspace's
// plan limit and its other indexes (their records count against the same limit).
func (s *Server) target(c *fiber.Ctx) (catalog.Target, error) {
	ctx := c.UserContext()
	idx := tenantFrom(ctx).index
	t := catalog.Target{Names: esnames.For(idx.Namespace, idx.Name), Settings: idx.Spec.Settings}
	ws, err := s.registry.Workspace(ctx, idx.Namespace)
	if err != nil {
		return t, err
	}
	t.MaxRecords = ws.Spec.Plan.MaxRecords
	indexes, err := s.registry.Indexes(ctx, idx.Namespace)
	if err != nil {
		return t, err
	}
	for _, other := range indexes {
		if other.Name != idx.Name {
			t.OtherAliases = append(t.OtherAliases, esnames.For(other.Namespace, other.Name).Alias())
		}
	}
	return t, nil
}

// objectIDParam returns the path's objectID, unescaped and copied out of Fiber's buffer.
func objectIDParam(c *fiber.Ctx) (string, error) {
	id, err := url.PathUnescape(c.Params("objectID"))
	if err != nil {
		return "", errObjectIDEscape
	}
	id = utils.CopyString(id)
	return id, catalog.ValidateObjectID(indexmapping.ObjectIDField, id)
}

func accepted(c *fiber.Ctx, r catalog.Receipt) error {
	return c.Status(fiber.StatusAccepted).JSON(r)
}

// postRecords answers POST /records: add or replace 1 to 1,000 records.
func (s *Server) postRecords(c *fiber.Ctx) error {
	records, err := bindRecords(c, 1, catalog.MaxPostRecords)
	if err != nil {
		return err
	}
	t, err := s.target(c)
	if err != nil {
		return err
	}
	r, err := s.catalog.Upsert(c.UserContext(), t, records)
	if err != nil {
		return err
	}
	return accepted(c, r)
}

// putRecords answers PUT /records: replace the whole catalog.
func (s *Server) putRecords(c *fiber.Ctx) error {
	records, err := bindRecords(c, 0, catalog.MaxPutRecords)
	if err != nil {
		return err
	}
	t, err := s.target(c)
	if err != nil {
		return err
	}
	r, err := s.catalog.Replace(c.UserContext(), t, records)
	if err != nil {
		return err
	}
	return accepted(c, r)
}

// deleteRecord answers DELETE /records/{objectID}.
func (s *Server) deleteRecord(c *fiber.Ctx) error {
	id, err := objectIDParam(c)
	if err != nil {
		return err
	}
	t, err := s.target(c)
	if err != nil {
		return err
	}
	r, err := s.catalog.Delete(c.UserContext(), t, id)
	if err != nil {
		return err
	}
	return accepted(c, r)
}

// getRecord answers GET /records/{objectID}: version 0 and record null when absent.
func (s *Server) getRecord(c *fiber.Ctx) error {
	id, err := objectIDParam(c)
	if err != nil {
		return err
	}
	t, err := s.target(c)
	if err != nil {
		return err
	}
	r, err := s.catalog.Get(c.UserContext(), t, id)
	if err != nil {
		return err
	}
	return c.JSON(r)
}

// postRecordWrite answers POST /record-writes: a conditional upsert or delete.
func (s *Server) postRecordWrite(c *fiber.Ctx) error {
	var req catalog.ConditionalRequest
	if err := strictjson.Decode(c.Body(), &req); err != nil {
		return err
	}
	cw, err := catalog.ValidateConditional(req)
	if err != nil {
		return err
	}
	t, err := s.target(c)
	if err != nil {
		return err
	}
	r, err := s.catalog.ConditionalWrite(c.UserContext(), t, cw, bodyHash(c.Body()))
	if err != nil {
		return err
	}
	return accepted(c, r)
}

// getIndexing answers GET /indexing.
func (s *Server) getIndexing(c *fiber.Ctx) error {
	t, err := s.target(c)
	if err != nil {
		return err
	}
	r, err := s.catalog.Indexing(c.UserContext(), t)
	if err != nil {
		return err
	}
	waiting, err := s.embeddings(c.UserContext(), tenantFrom(c.UserContext()).index)
	if err != nil {
		return err
	}
	return c.JSON(indexingStatus{Receipt: r, Embeddings: waiting})
}

// bodyHash identifies a request body for idempotency by its meaning: the same JSON
// value, whatever the order of its members and its whitespace, gives the same hash.
// Numbers keep their text, so 1 and 1.0 differ as they may in a record.
func bodyHash(body []byte) string {
	sum := sha256.Sum256(catalog.CanonicalJSON(body))
	return hex.EncodeToString(sum[:])
}
