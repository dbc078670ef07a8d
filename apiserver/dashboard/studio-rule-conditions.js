// The rules editor's conditions: one group of fields per condition of the rule (its
// pattern, anchoring, filters and context), each removable, and more added
// (studio-rule-groups.js). What the fields mean is studio-rule-form.js's conditionOf.

import { el } from "./ui.js";
import { ANCHORINGS } from "./studio-rule-form.js";
import { groupList, input } from "./studio-rule-groups.js";

const ANCHORING_TEXT = { is: "the whole query", startsWith: "its first words", endsWith: "its last words", contains: "any of its words" };
const blank = () => ({ pattern: "", anchoring: "contains", filters: "", context: "", kept: undefined });

function anchoring(value) {
  const s = el("select", null, { name: "anchoring" });
  for (const a of ANCHORINGS) s.append(el("option", ANCHORING_TEXT[a], { value: a }));
  s.value = value;
  return s;
}

const conditions = groupList({
  box: "rule-conditions", add: "rule-add-condition", noun: "Condition", keepOne: true, blank,
  fields: [
    { key: "pattern", id: "rule-pattern", label: "Query holds", cls: "grow", control: (v) => input("pattern", v, { maxlength: "512" }) },
    { key: "anchoring", id: "rule-anchoring", label: "As", control: anchoring },
    { key: "filters", id: "rule-cond-filters", label: "Filters on", cls: "grow", keeps: true,
      control: (v) => input("condFilters", v, { placeholder: "categories:shoes", "aria-describedby": "filters-hint" }) },
    { key: "context", id: "rule-context", label: "Context", control: (v) => input("context", v, { maxlength: "64", placeholder: "mobile" }) },
  ],
  added: (n) => `Condition ${n} added; the rule applies when any condition holds.`,
  emptied: "The only condition emptied: the rule applies to every search.",
});

// showConditions puts the conditions' values (conditionValues') into the form.
export const showConditions = conditions.show;

// conditionsShown reads the form's conditions, in order, for conditionsOf.
export const conditionsShown = conditions.shown;

// firstPattern is the first condition's pattern field (a new rule starts on the query).
export const firstPattern = conditions.first;

// setupConditions wires the Add button; Remove buttons are wired as groups are made.
export const setupConditions = conditions.setup;
