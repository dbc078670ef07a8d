// The studio's facet ordering: the facets of the preview's answer in the order of a
// draft of the facetOrdering setting, dragged (or moved with buttons) into order, values
// pinned and hidden, the rest sorted by count or alphabetically or not shown; saved into
// the settings, after which the preview shows its answer in that order.

import { el, number } from "./ui.js";
import { api, indexPath, announce, showError, state } from "./studio-api.js";
import { orderFacets, moveBefore, withFacetOrder, pinValue, unpinValue, hideValue, showValue, sortRemaining, settingOf, facetFieldsIn } from "./studio-facet-order.js";

const $ = (id) => document.getElementById(id);
const FACET = "application/x-aisle-facet";
const VALUE = "application/x-aisle-facet-value";
let draft = {}; // the facetOrdering being edited
let fields = []; // the index's facet fields
let facets = {}; // the facets of the preview's latest answer
let changed = async () => {};

// loadFacets reads the facet fields and the setting from the settings: the draft starts
// as what is saved. It returns the facet fields, which the preview asks for.
export async function loadFacets() {
  try {
    const cfg = await api(indexPath("/config"));
    fields = cfg.facetFields || [];
    draft = cfg.facetOrdering || {};
    $("facets-save").hidden = !state.canWrite;
    render();
  } catch (e) {
    showError(`Could not read the facet ordering: ${e.message}`);
  }
  return fields;
}

// answered shows the facets of a new preview answer in the draft's order.
export function answered(res) {
  facets = res.facets || {};
  render();
}

// edit replaces the draft and shows it; said is announced.
function edit(next, said) {
  draft = next;
  render();
  document.body.dataset.facetEdits = String(Number(document.body.dataset.facetEdits || 0) + 1);
  announce(`${said} The draft is not saved yet.`);
}

// render lists every facet field in the draft's order, each with its values.
function render() {
  const all = Object.fromEntries(fields.map((f) => [f, facets[f] || []]));
  const shown = orderFacets(all, draft, true);
  const order = facetFieldsIn(fields, draft);
  // Fields the draft's order leaves out are not shown by pages; the editor lists them last.
  for (const f of fields) if (!order.includes(f)) shown.push({ field: f, values: orderFacets({ [f]: all[f] }, { values: draft.values }, true)[0].values, off: true });
  $("facet-order").replaceChildren(...shown.map((f, i) => facetItem(f, i, shown.map((s) => s.field))));
  if (!shown.length) $("facet-order").append(el("li", "The index has no facet fields.", { class: "empty" }));
}

function facetItem(f, i, names) {
  const li = el("li", null, { class: "facet", "data-facet": f.field });
  const head = el("div", null, { class: "facet-head" });
  head.append(el("h3", f.off ? `${f.field} (not shown)` : f.field, { id: `facet-${i}` }));
  if (state.canWrite) {
    if (i > 0) head.append(button("Up", `facet ${f.field}`, "facet-up", () =>
      edit(withFacetOrder(draft, moveBefore(names, f.field, names[i - 1])), `Facet ${f.field} moved up.`)));
    if (i < names.length - 1) head.append(button("Down", `facet ${f.field}`, "facet-down", () =>
      edit(withFacetOrder(draft, moveBefore(names, names[i + 1], f.field)), `Facet ${f.field} moved down.`)));
    dropTarget(li, FACET, (dragged) => edit(withFacetOrder(draft, moveBefore(names, dragged, f.field)), `Facet ${dragged} moved before ${f.field}.`));
    dragSource(li, FACET, f.field);
  }
  head.append(remainingSelect(f.field, i));
  const values = el("ol", null, { class: "facet-values", "aria-labelledby": `facet-${i}` });
  values.append(...f.values.map((v) => valueItem(f.field, v)));
  if (!f.values.length) values.append(el("li", "No value in the preview's answer.", { class: "empty" }));
  li.append(head, values);
  return li;
}

function remainingSelect(field, i) {
  const box = el("div", null, { class: "field" });
  const select = el("select", null, { id: `facet-rest-${i}`, "data-remaining": field });
  for (const [v, text] of [["count", "by count"], ["alpha", "alphabetically"], ["hidden", "not shown"]]) select.append(el("option", text, { value: v }));
  select.value = ((draft.values || {})[field] || {}).sortRemainingBy || "count";
  select.disabled = !state.canWrite;
  select.addEventListener("change", () => edit(sortRemaining(draft, field, select.value), `The other values of ${field} are sorted ${select.selectedOptions[0].text}.`));
  box.append(el("label", "Other values", { for: select.id }), select);
  return box;
}

function valueItem(field, v) {
  const value = String(v.value);
  const li = el("li", null, { class: "facet-value", "data-value": value });
  li.append(el("span", value, { class: "name" }), el("span", v.count === null ? "–" : number.format(v.count), { class: "id" }));
  if (v.pinned) li.append(el("span", "pinned", { class: "tag pinned" }));
  if (v.hidden) li.append(el("span", "hidden", { class: "tag" }));
  if (!state.canWrite) return li;
  li.append(v.pinned ? button("Unpin", `${value} of ${field}`, "unpin", () => edit(unpinValue(draft, field, value), `${value} unpinned.`))
    : button("Pin", `${value} of ${field}`, "pin", () => edit(pinValue(draft, field, value), `${value} pinned last of ${field}'s pinned values.`)));
  li.append(v.hidden ? button("Show", `${value} of ${field}`, "show", () => edit(showValue(draft, field, value), `${value} shown.`))
    : button("Hide", `${value} of ${field}`, "hide", () => edit(hideValue(draft, field, value), `${value} hidden.`)));
  dragSource(li, VALUE, `${field}\n${value}`);
  dropTarget(li, VALUE, (dragged) => {
    const [from, moved] = dragged.split("\n");
    if (from === field) edit(pinValue(draft, field, moved, v.pinned ? value : undefined), `${moved} pinned ${v.pinned ? `before ${value}` : "last of the pinned values"}.`);
  });
  return li;
}

// button is a move of the editor; its name for screen readers says what it moves.
function button(text, what, name, click) {
  const b = el("button", text, { type: "button", class: "quiet", "aria-label": `${text}: ${what}`, "data-facet-move": name });
  b.addEventListener("click", click);
  return b;
}

function dragSource(li, type, data) {
  li.setAttribute("draggable", "true");
  li.addEventListener("dragstart", (e) => {
    e.stopPropagation();
    e.dataTransfer.setData(type, data);
  });
}

function dropTarget(li, type, drop) {
  li.addEventListener("dragover", (e) => {
    if (e.dataTransfer.types.includes(type)) e.preventDefault();
  });
  li.addEventListener("drop", (e) => {
    const data = e.dataTransfer.getData(type);
    if (!data) return;
    e.preventDefault();
    e.stopPropagation();
    drop(data);
  });
}

// save writes the draft into the settings as they are now otherwise.
async function save() {
  try {
    const cfg = await api(indexPath("/config"));
    delete cfg.rebuild;
    const setting = settingOf(draft);
    if (setting) cfg.facetOrdering = setting;
    else delete cfg.facetOrdering;
    await api(indexPath("/config"), { method: "PUT", body: cfg });
    showError("");
    announce("Facet ordering saved; the preview shows its facets in that order.");
    await changed();
  } catch (e) {
    showError(`Could not save the facet ordering: ${e.message}`);
  }
}

// setupFacets wires the editor; onChange reruns the preview and reloads the history.
export function setupFacets(onChange) {
  changed = onChange;
  $("facets-save").addEventListener("click", save);
}
