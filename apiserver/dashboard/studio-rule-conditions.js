// The rules editor's conditions: one group of fields per condition of the rule (its
// pattern, anchoring, filters and context), each removable, and more added. What the
// fields mean is studio-rule-form.js's conditionOf; this is their place on the page.

import { el } from "./ui.js";
import { announce } from "./studio-api.js";
import { ANCHORINGS } from "./studio-rule-form.js";

const $ = (id) => document.getElementById(id);
const ANCHORING_TEXT = { is: "the whole query", startsWith: "its first words", endsWith: "its last words", contains: "any of its words" };
const blank = () => ({ pattern: "", anchoring: "contains", filters: "", context: "", kept: undefined });

// kept holds, by condition group, a filter the form shows but cannot write.
const kept = new WeakMap();

// showConditions puts the conditions' values (conditionValues') into the form.
export function showConditions(list) {
  $("rule-conditions").replaceChildren(...list.map(group));
  renumber();
}

// conditionsShown reads the form's conditions, in order, for conditionsOf.
export function conditionsShown() {
  return [...$("rule-conditions").children].map((g) => ({
    pattern: g.querySelector("[name=pattern]").value,
    anchoring: g.querySelector("[name=anchoring]").value,
    filters: g.querySelector("[name=condFilters]").value,
    context: g.querySelector("[name=context]").value,
    kept: kept.get(g),
  }));
}

// firstPattern is the first condition's pattern field (a new rule starts on the query).
export const firstPattern = () => $("rule-conditions").querySelector("[name=pattern]");

// setupConditions wires the Add button; Remove buttons are wired as groups are made.
export function setupConditions() {
  $("rule-add-condition").addEventListener("click", () => {
    const g = group(blank());
    $("rule-conditions").append(g);
    renumber();
    g.querySelector("[name=pattern]").focus();
    announce(`Condition ${count()} added; the rule applies when any condition holds.`);
  });
}

const count = () => $("rule-conditions").children.length;

function group(c) {
  const g = el("fieldset", null, { class: "condition" });
  g.append(el("legend"));
  const anchoring = el("select", null, { name: "anchoring" });
  for (const a of ANCHORINGS) anchoring.append(el("option", ANCHORING_TEXT[a], { value: a }));
  anchoring.value = c.anchoring;
  const filters = el("input", null, { name: "condFilters", autocomplete: "off", placeholder: "categories:shoes", "aria-describedby": "filters-hint" });
  filters.value = c.filters;
  filters.readOnly = !!c.kept;
  if (c.kept) kept.set(g, c.kept);
  g.append(field("Query holds", input("pattern", c.pattern, { maxlength: "512" }), "grow"), field("As", anchoring),
    field("Filters on", filters, "grow"), field("Context", input("context", c.context, { maxlength: "64", placeholder: "mobile" })));
  const remove = el("button", "Remove", { type: "button", class: "quiet", "data-remove-condition": "" });
  remove.addEventListener("click", () => removeGroup(g));
  g.append(remove);
  return g;
}

function input(name, value, attrs) {
  const i = el("input", null, { name, autocomplete: "off", ...attrs });
  i.value = value;
  return i;
}

// field labels control by a label of its own; ids follow the group's number (renumber).
function field(label, control, cls = "") {
  const f = el("div", null, { class: `field ${cls}`.trim() });
  f.append(el("label", label), control);
  return f;
}

// removeGroup removes condition g; the last one left is emptied instead, as a rule's
// form always shows one condition (an empty one: every search).
function removeGroup(g) {
  const n = [...$("rule-conditions").children].indexOf(g) + 1;
  if (count() === 1) {
    showConditions([blank()]);
    firstPattern().focus();
    announce("The only condition emptied: the rule applies to every search.");
    return;
  }
  const next = g.nextElementSibling || g.previousElementSibling;
  g.remove();
  renumber();
  next.querySelector("[name=pattern]").focus();
  announce(`Condition ${n} removed; ${count()} left.`);
}

// renumber names each group "Condition n", ties its labels to its fields by ids with n,
// and says on each Remove button which condition it removes.
function renumber() {
  [...$("rule-conditions").children].forEach((g, i) => {
    const n = i + 1;
    g.dataset.condition = String(n);
    g.querySelector("legend").textContent = `Condition ${n}`;
    for (const f of g.querySelectorAll(".field")) {
      const control = f.querySelector("input, select");
      control.id = `rule-${control.name === "condFilters" ? "cond-filters" : control.name}-${n}`;
      f.querySelector("label").htmlFor = control.id;
    }
    g.querySelector("[data-remove-condition]").setAttribute("aria-label", `Remove condition ${n}`);
    g.querySelector("[data-remove-condition]").dataset.removeCondition = String(n);
  });
}
