package merch

import "context"

// Overlay is how a preview search sees an index's rules (POST /rules/{ruleId}/preview):
// the index's own without rule id, and with draft in its place when draft is set. Nothing
// of it is written: it lives for the one request.
type Overlay struct {
	id    string
	draft *ruleDoc
}

// Previews returns the two views of a preview of rule id: with draft, checked as PUT
// /rules/{ruleId} checks it (the same ErrInvalid message), or, when draft is nil, with
// the saved rule (ErrNotFound when there is none); and without the rule.
func (s *Service) Previews(ctx context.Context, t Target, id string, draft *Rule) (with, without *Overlay, err error) {
	if draft == nil {
		saved, err := s.Get(ctx, t.Names, id)
		if err != nil {
			return nil, nil, err
		}
		draft = &saved
	}
	docs, err := s.prepare(ctx, t, []Rule{*draft}, false)
	if err != nil {
		return nil, nil, err
	}
	return &Overlay{id: id, draft: &docs[0]}, &Overlay{id: id}, nil
}

// over is set as o sees it. It compiles the whole set again, which a preview can
// afford and a shopper's search never pays.
func (o *Overlay) over(set *Set) *Set {
	if o == nil {
		return set
	}
	var docs []ruleDoc
	for _, c := range set.rulesOrNone() {
		if c.rule.ObjectID != o.id {
			docs = append(docs, ruleDoc{RuleID: c.rule.ObjectID, Rule: c.rule, Terms: c.terms})
		}
	}
	if o.draft != nil {
		docs = append(docs, *o.draft)
	}
	return compile(docs)
}

func (s *Set) rulesOrNone() []compiled {
	if s == nil {
		return nil
	}
	return s.rules
}
