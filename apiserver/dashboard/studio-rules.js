// The studio's rules editor: the index's rules listed (either key), and with a write key
// edited, deleted, and drafted in a form tried on the preview's query before saving:
// the page with the draft and without it (studio-rule-compare.js). The form's meaning is
// in studio-rule-form.js.

import { el, table } from "./ui.js";
import { api, indexPath, announce, showError, state } from "./studio-api.js";
import { previewRequest } from "./studio-preview.js";
import { ruleOf, valuesOf, withPin, withHidden } from "./studio-rule-form.js";
import { renderCompare, hideCompare } from "./studio-rule-compare.js";

const $ = (id) => document.getElementById(id);
// The form's fields, by the name ruleOf reads them under.
const FIELDS = { id: "rule-id", description: "rule-description", pattern: "rule-pattern", anchoring: "rule-anchoring",
  condFilters: "rule-cond-filters", context: "rule-context", from: "rule-from", until: "rule-until", pins: "rule-pins",
  hide: "rule-hide", boost: "rule-boost", bury: "rule-bury", replace: "rule-replace", banner: "rule-banner" };
const LIST_LIMIT = 100;
let base = {}; // the rule as loaded into the form ({} for a new one)
let keep = {}; // the fields the form shows but cannot edit (valuesOf's keep)
let tries = 0; // the latest try; an older one answering late is not shown
let changed = async () => {};

function formValues() {
  const v = Object.fromEntries(Object.entries(FIELDS).map(([k, id]) => [k, $(id).value]));
  return { ...v, enabled: $("rule-enabled").checked, keep };
}

// load puts rule into the form, with notes on what the form keeps but does not show.
function load(rule) {
  const { values, notes } = valuesOf(rule);
  base = rule;
  keep = values.keep;
  for (const [k, id] of Object.entries(FIELDS)) $(id).value = values[k];
  for (const k of ["condFilters", "boost", "bury"]) $(FIELDS[k]).readOnly = !!keep[k];
  $("rule-replace").readOnly = !!keep.query;
  $("rule-enabled").checked = values.enabled;
  $("rule-id").readOnly = !!rule.objectID;
  $("rule-notes").replaceChildren(...notes.map((n) => el("li", n)));
  hideCompare();
}

// loadRules lists the index's rules (the first LIST_LIMIT, by objectID).
export async function loadRules() {
  try {
    const page = await api(indexPath(`/rules?limit=${LIST_LIMIT}`));
    const heads = ["Rule", "When", "Then"];
    if (state.canWrite) heads.push("Edit");
    const caption = page.total > page.rules.length ? `Rules of the index: the first ${page.rules.length} of ${page.total}` : "Rules of the index";
    table($("rules-list"), heads, page.rules, (r) => {
      const cells = [ruleCell(r), whenText(r), thenText(r.consequence || {})];
      if (state.canWrite) cells.push(rowButtons(r));
      return cells;
    }, "rules", caption, "No rule yet.");
    $("rule-form").hidden = !state.canWrite;
  } catch (e) {
    showError(`Could not read the rules: ${e.message}`);
  }
}

function ruleCell(r) {
  const cell = el("span", r.objectID, { "data-rule": r.objectID });
  if (r.enabled === false) cell.textContent += " (disabled)";
  if (r.description) cell.append(el("span", r.description, { class: "id" }));
  return cell;
}

// whenText says in words when a rule applies.
export function whenText(r) {
  const conds = (r.conditions || []).map((c) => [
    c.pattern !== undefined ? `query ${c.anchoring} “${c.pattern}”` : "",
    c.filters ? `filtered on ${JSON.stringify(c.filters)}` : "",
    c.context ? `context ${c.context}` : "",
  ].filter(Boolean).join(" and ") || "every search");
  const when = conds.length ? conds.join("; or ") : "every search";
  const windows = (r.validity || []).map((w) => `${w.from || "…"} to ${w.until || "…"}`);
  return windows.length ? `${when}, ${windows.join(" or ")}` : when;
}

// thenText says in words what a rule does.
export function thenText(c) {
  return [
    (c.promote || []).length ? `pins ${c.promote.map((p) => `${p.objectID} at ${p.position}`).join(", ")}` : "",
    (c.hide || []).length ? `hides ${c.hide.join(", ")}` : "",
    (c.boost || []).length ? `boosts ${c.boost.map((b) => JSON.stringify(b.filter)).join(", ")}` : "",
    (c.bury || []).length ? `buries ${c.bury.map((b) => JSON.stringify(b.filter)).join(", ")}` : "",
    c.filters ? "filters" : "", c.query ? "edits the query" : "", c.renderingContent ? "orders the facets" : "",
    c.userData !== undefined ? "shows a banner" : "",
  ].filter(Boolean).join("; ");
}

function rowButtons(r) {
  const box = el("span", null, { class: "moves" });
  const edit = el("button", "Edit", { type: "button", class: "quiet", "data-edit": r.objectID, "aria-label": `Edit rule ${r.objectID}` });
  edit.addEventListener("click", () => {
    load(r);
    $("rule-description").focus();
    announce(`Editing rule ${r.objectID}.`);
  });
  const del = el("button", "Delete", { type: "button", class: "quiet", "data-delete": r.objectID, "aria-label": `Delete rule ${r.objectID}` });
  del.addEventListener("click", () => remove(r.objectID, del));
  box.append(edit, del);
  return box;
}

async function remove(id, button) {
  button.disabled = true;
  try {
    await api(indexPath(`/rules/${encodeURIComponent(id)}`), { method: "DELETE" });
    showError("");
    announce(`Rule ${id} deleted; the rules history can restore it.`);
    if (base.objectID === id) load({});
    await Promise.all([loadRules(), changed()]);
    $("rules-list").focus();
  } catch (e) {
    button.disabled = false;
    showError(`Could not delete rule ${id}: ${e.message}`);
  }
}

// draft is the rule the form describes; null (the error shown) when it cannot be read.
function draft() {
  try {
    return ruleOf(formValues(), base);
  } catch (e) {
    showError(`Check the rule: ${e.message}`);
    return null;
  }
}

// tryRule previews the draft on the preview form's query: the page with it and without.
async function tryRule() {
  const rule = draft();
  if (!rule) return;
  const me = ++tries;
  try {
    const req = previewRequest();
    delete req.enableRules;
    const p = await api(indexPath(`/rules/${encodeURIComponent(rule.objectID)}/preview`), { method: "POST", body: { ...req, rule } });
    if (me !== tries) return;
    showError("");
    renderCompare(p, moves);
    document.body.dataset.ruleTries = String(Number(document.body.dataset.ruleTries || 0) + 1);
    announce(`Rule ${rule.objectID} tried on “${req.q}”: ${p.with.hits.length} products with it, ${p.without.hits.length} without. Nothing is saved yet.`);
  } catch (e) {
    if (me === tries) showError(`Could not try the rule: ${e.message}`);
  }
}

// moves are what the comparison's drags and buttons do: change the draft, and try it.
const moves = {
  pin(id, position) {
    $("rule-pins").value = withPin($("rule-pins").value, id, position);
    announce(`${id} pinned at position ${position} in the draft.`);
    return tryRule();
  },
  hide(id) {
    const v = withHidden($("rule-hide").value, $("rule-pins").value, id);
    $("rule-hide").value = v.hide;
    $("rule-pins").value = v.pins;
    return tryRule();
  },
};

async function save() {
  if (!$("rule-form").reportValidity()) return;
  const rule = draft();
  if (!rule) return;
  try {
    const saved = await api(indexPath(`/rules/${encodeURIComponent(rule.objectID)}`), { method: "PUT", body: rule });
    showError("");
    load(saved);
    announce(`Rule ${saved.objectID} saved; the preview applies it.`);
    await Promise.all([loadRules(), changed()]);
  } catch (e) {
    showError(`Could not save the rule: ${e.message}`);
  }
}

// startRule puts a new rule into the form (a fix's) and moves the focus there; a rule
// that does something already is tried at once.
export async function startRule(rule) {
  load(rule);
  $("rule-id").readOnly = false;
  $("rule-pins").focus();
  if (Object.keys(rule.consequence || {}).length) await tryRule();
  else announce(`Rule ${rule.objectID} started on “${(rule.conditions || [{}])[0].pattern || ""}”: say what it does, then try it.`);
}

// setupRules wires the editor; onChange reruns the preview and reloads the history.
export function setupRules(onChange) {
  changed = onChange;
  $("rule-form").addEventListener("submit", (e) => {
    e.preventDefault();
    tryRule();
  });
  $("rule-save").addEventListener("click", save);
  $("rule-new").addEventListener("click", () => {
    load({});
    $("rule-pattern").value = $("q").value;
    $("rule-id").focus();
  });
  $("rule-pattern").value = $("q").value;
}
