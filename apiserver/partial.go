package apiserver

import (
	"github.com/gofiber/fiber/v2"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/strictjson"
)

// partialReceipt is the answer to POST /records/partial: the write's receipt and the
// operations not applied, always listed (empty when all applied).
type partialReceipt struct {
	catalog.Receipt
	Rejected []catalog.Rejection `json:"rejected"`
}

// postPartial answers POST /records/partial: 1 to 1,000 operations on records.
func (s *Server) postPartial(c *fiber.Ctx) error {
	var req catalog.PartialRequest
	if err := strictjson.Decode(c.Body(), &req); err != nil {
		return err
	}
	p, err := catalog.ValidatePartial(req)
	if err != nil {
		return err
	}
	t, err := s.target(c)
	if err != nil {
		return err
	}
	r, err := s.catalog.Partial(c.UserContext(), t, p, bodyHash(c.Body()))
	if err != nil {
		return err
	}
	rejected := r.Rejected
	if rejected == nil {
		rejected = []catalog.Rejection{}
	}
	return c.Status(fiber.StatusAccepted).JSON(partialReceipt{Receipt: r, Rejected: rejected})
}
