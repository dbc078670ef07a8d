package apiserver

import (
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/utils"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/catalog/stage"
	"github.com/aislehq/aisle/internal/strictjson"
)

// keyParam returns a validated stageId or batchId path value, copied out of Fiber's buffer.
func keyParam(c *fiber.Ctx, name string) (string, error) {
	v := utils.CopyString(c.Params(name))
	return v, catalog.ValidateKey(name, v)
}

// startStage answers POST /staged-replacements/{stageId}: 201 when it starts the stage,
// 200 with the status of an existing one.
func (s *Server) startStage(c *fiber.Ctx) error {
	id, err := keyParam(c, "stageId")
	if err != nil {
		return err
	}
	t, err := s.target(c)
	if err != nil {
		return err
	}
	st, created, err := stage.Start(c.UserContext(), s.catalog, t, id)
	if err != nil {
		return err
	}
	status := fiber.StatusOK
	if created {
		status = fiber.StatusCreated
	}
	return c.Status(status).JSON(st)
}

// uploadBatch answers POST /staged-replacements/{stageId}/batches/{batchId}.
func (s *Server) uploadBatch(c *fiber.Ctx) error {
	id, err := keyParam(c, "stageId")
	if err != nil {
		return err
	}
	batchID, err := keyParam(c, "batchId")
	if err != nil {
		return err
	}
	records, err := bindRecords(c, 1, stage.MaxBatchRecords)
	if err != nil {
		return err
	}
	t, err := s.target(c)
	if err != nil {
		return err
	}
	st, err := stage.Upload(c.UserContext(), s.catalog, t, id, batchID, records, bodyHash(c.Body()))
	if err != nil {
		return err
	}
	return c.JSON(st)
}

// commitStage answers POST /staged-replacements/{stageId}/commit with a receipt.
func (s *Server) commitStage(c *fiber.Ctx) error {
	id, err := keyParam(c, "stageId")
	if err != nil {
		return err
	}
	var body stage.CommitRequest
	if err := strictjson.Decode(c.Body(), &body); err != nil {
		return err
	}
	batches, records, err := stage.ValidateCommit(body)
	if err != nil {
		return err
	}
	t, err := s.target(c)
	if err != nil {
		return err
	}
	r, err := stage.Commit(c.UserContext(), s.catalog, t, id, batches, records)
	if err != nil {
		return err
	}
	return accepted(c, r)
}

// abortStage answers DELETE /staged-replacements/{stageId} with the aborted status.
func (s *Server) abortStage(c *fiber.Ctx) error {
	id, err := keyParam(c, "stageId")
	if err != nil {
		return err
	}
	t, err := s.target(c)
	if err != nil {
		return err
	}
	st, err := stage.Abort(c.UserContext(), s.catalog, t, id)
	if err != nil {
		return err
	}
	return c.JSON(st)
}
