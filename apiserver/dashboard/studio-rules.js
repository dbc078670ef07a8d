// The studio's rules editor: the index's rules listed (either key; studio-rules-list.js),
// and with a write key edited, deleted, and drafted in a form tried on the preview's
// query before saving: the page with the draft and without it (studio-rule-compare.js).
// The form's meaning is in studio-rule-form.js, its conditions in studio-rule-conditions.js,
// its validity windows, boosts and buries in studio-rule-lists.js.

import { el } from "./ui.js";
import { api, indexPath, announce, showError } from "./studio-api.js";
import { previewRequest } from "./studio-preview.js";
import { ruleOf, valuesOf, withPin, withHidden } from "./studio-rule-form.js";
import { renderCompare, hideCompare } from "./studio-rule-compare.js";
import { showConditions, conditionsShown, firstPattern, setupConditions } from "./studio-rule-conditions.js";
import { windows, boosts, buries, setupLists } from "./studio-rule-lists.js";
import { loadRules, setupRulesList } from "./studio-rules-list.js";

export { loadRules };

const $ = (id) => document.getElementById(id);
// The form's fields, by the name ruleOf reads them under.
const FIELDS = { id: "rule-id", description: "rule-description", pins: "rule-pins", hide: "rule-hide", replace: "rule-replace",
  banner: "rule-banner" };
let base = {}; // the rule as loaded into the form ({} for a new one)
let keep = {}; // the fields the form shows but cannot edit (valuesOf's keep)
let tries = 0; // the latest try; an older one answering late is not shown
let changed = async () => {};

function formValues() {
  const v = Object.fromEntries(Object.entries(FIELDS).map(([k, id]) => [k, $(id).value]));
  return { ...v, conditions: conditionsShown(), windows: windows.shown(), boost: boosts.shown(), bury: buries.shown(),
    enabled: $("rule-enabled").checked, keep };
}

// load puts rule into the form, with notes on what the form keeps but does not show.
function load(rule) {
  const { values, notes } = valuesOf(rule);
  base = rule;
  keep = values.keep;
  for (const [k, id] of Object.entries(FIELDS)) $(id).value = values[k];
  showConditions(values.conditions);
  windows.show(values.windows);
  boosts.show(values.boost);
  buries.show(values.bury);
  $("rule-replace").readOnly = !!keep.query;
  $("rule-enabled").checked = values.enabled;
  $("rule-id").readOnly = !!rule.objectID;
  $("rule-notes").replaceChildren(...notes.map((n) => el("li", n)));
  hideCompare();
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
  setupRulesList(rowButtons);
  setupConditions();
  setupLists();
  $("rule-form").addEventListener("submit", (e) => {
    e.preventDefault();
    tryRule();
  });
  $("rule-save").addEventListener("click", save);
  $("rule-new").addEventListener("click", () => {
    load({});
    firstPattern().value = $("q").value;
    $("rule-id").focus();
  });
  load({});
  firstPattern().value = $("q").value;
}
