// The rules editor's form as data: a rule written from the form's fields and back. Pure
// functions of values, so what the form means is in one place. The form edits the first
// condition, the first validity window, the pins, the hidden records, one boost, one bury,
// the query searched instead and a banner; whatever else a rule holds (more conditions,
// words removed from the query, filters, rendering content) is kept as it was.

import { parseFilters, parseList } from "./studio-preview.js";

export const ANCHORINGS = ["is", "startsWith", "endsWith", "contains"];

// filterOf turns "brand:Glow, brand:Lumo, color:red" into a rule filter: one field's
// values are any of them, several fields all of them; undefined when the text is empty.
export function filterOf(text) {
  const clauses = Object.entries(parseFilters(text)).map(([field, values]) =>
    values.length === 1 ? { field, eq: values[0] } : { field, in: values });
  if (clauses.length > 1) return { and: clauses };
  return clauses[0];
}

// filterText writes filterOf's filters back; a filter it cannot write is null.
export function filterText(f) {
  if (!f) return "";
  const clauses = f.and || [f];
  const parts = [];
  for (const c of clauses) {
    if (!c.field || (c.eq === undefined && !c.in)) return null;
    for (const v of c.in || [c.eq]) parts.push(`${c.field}:${v}`);
  }
  return parts.join(", ");
}

// pinsOf reads "sku-1@1, sku-2@3" as promotions; a part without @position is an error.
export function pinsOf(text) {
  return parseList(text).map((part) => {
    const m = part.match(/^(.+)@(\d+)$/);
    if (!m) throw new Error(`"${part}" is not objectID@position`);
    return { objectID: m[1].trim(), position: Number(m[2]) };
  });
}

export const pinsText = (promote) => (promote || []).map((p) => `${p.objectID}@${p.position}`).join(", ");

// withPin is the pins text with id at position, any earlier pin of id replaced.
export function withPin(text, id, position) {
  const pins = pinsOf(text).filter((p) => p.objectID !== id);
  pins.push({ objectID: id, position });
  return pinsText(pins.sort((a, b) => a.position - b.position));
}

// withHidden is the hidden list with id added once, and its pin (pins text) dropped.
export function withHidden(hidden, pins, id) {
  const list = parseList(hidden);
  if (!list.includes(id)) list.push(id);
  return { hide: list.join(", "), pins: pinsText(pinsOf(pins).filter((p) => p.objectID !== id)) };
}

// The form's datetime-local fields hold UTC minutes: "2026-12-24T08:00".
const toTime = (local) => (local ? new Date(`${local}:00Z`).toISOString().replace(".000Z", "Z") : undefined);
const toLocal = (iso) => (iso ? new Date(iso).toISOString().slice(0, 16) : "");

// ruleOf is the rule the form's values v describe, on top of base (the rule as loaded,
// or {} for a new one). Throws naming a field it cannot read.
export function ruleOf(v, base = {}) {
  const rule = structuredClone(base);
  rule.objectID = v.id.trim();
  if (v.description.trim()) rule.description = v.description.trim();
  else delete rule.description;
  if (v.enabled) delete rule.enabled;
  else rule.enabled = false;
  const cond = { ...((base.conditions || [])[0] || {}) };
  const keep = v.keep || {};
  delete cond.pattern; delete cond.anchoring; delete cond.context;
  if (!keep.condFilters) delete cond.filters;
  if (v.pattern.trim()) Object.assign(cond, { pattern: v.pattern.trim(), anchoring: v.anchoring });
  const cf = keep.condFilters ? undefined : named("the condition's filters", () => filterOf(v.condFilters));
  if (cf) cond.filters = cf;
  if (v.context.trim()) cond.context = v.context.trim();
  const rest = (base.conditions || []).slice(1);
  rule.conditions = Object.keys(cond).length ? [cond, ...rest] : rest;
  if (!rule.conditions.length) delete rule.conditions;
  const window = { ...((base.validity || [])[0] || {}), from: toTime(v.from), until: toTime(v.until) };
  for (const k of ["from", "until"]) if (!window[k]) delete window[k];
  const windows = [...(Object.keys(window).length ? [window] : []), ...(base.validity || []).slice(1)];
  if (windows.length) rule.validity = windows;
  else delete rule.validity;
  rule.consequence = consequenceOf(v, base.consequence || {});
  return rule;
}

function consequenceOf(v, base) {
  const c = structuredClone(base);
  const set = (k, value, empty) => (empty ? delete c[k] : (c[k] = value));
  const promote = named("Pinned", () => pinsOf(v.pins));
  set("promote", promote, !promote.length);
  const hide = parseList(v.hide);
  set("hide", hide, !hide.length);
  if (!(v.keep || {}).query) set("query", { replace: v.replace.trim() }, !v.replace.trim());
  for (const k of ["boost", "bury"]) {
    if ((v.keep || {})[k]) continue;
    const f = named(k === "boost" ? "Boost" : "Bury", () => filterOf(v[k]));
    const others = (base[k] || []).slice(1);
    const list = f ? [{ ...((base[k] || [])[0] || {}), filter: f }, ...others] : others;
    set(k, list, !list.length);
  }
  const data = { ...(isObject(base.userData) ? base.userData : {}) };
  if (v.banner.trim()) data.banner = v.banner.trim();
  else delete data.banner;
  set("userData", data, !Object.keys(data).length);
  if (base.userData !== undefined && !isObject(base.userData)) c.userData = base.userData;
  return c;
}

const isObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x);

function named(field, read) {
  try {
    return read();
  } catch (e) {
    throw new Error(`${field}: ${e.message}`);
  }
}

// valuesOf is the form's values for rule, and notes on what the form does not show.
export function valuesOf(rule) {
  const cond = (rule.conditions || [])[0] || {};
  const window = (rule.validity || [])[0] || {};
  const c = rule.consequence || {};
  const notes = [];
  const keep = {};
  const text = (f, what, field) => {
    const t = filterText(f);
    if (t === null) {
      keep[field] = true;
      notes.push(`${what} is a filter this form cannot show; it is kept as it is.`);
    }
    return t || "";
  };
  const v = {
    id: rule.objectID || "", description: rule.description || "", enabled: rule.enabled !== false,
    pattern: cond.pattern || "", anchoring: cond.anchoring || "contains", condFilters: text(cond.filters, "The condition's filter", "condFilters"),
    context: cond.context || "", from: toLocal(window.from), until: toLocal(window.until),
    pins: pinsText(c.promote), hide: (c.hide || []).join(", "),
    boost: text(((c.boost || [])[0] || {}).filter, "The boost", "boost"), bury: text(((c.bury || [])[0] || {}).filter, "The bury", "bury"),
    replace: (c.query && c.query.replace) || "",
    banner: isObject(c.userData) && typeof c.userData.banner === "string" ? c.userData.banner : "",
  };
  v.keep = keep;
  if ((rule.conditions || []).length > 1) notes.push(`${rule.conditions.length - 1} more conditions are kept as they are.`);
  if ((rule.validity || []).length > 1) notes.push(`${rule.validity.length - 1} more validity windows are kept as they are.`);
  if (c.query && c.query.remove) {
    keep.query = true;
    notes.push("The words it removes from the query are kept as they are.");
  }
  for (const k of ["filters", "renderingContent"]) if (c[k]) notes.push(`Its ${k} consequence is kept as it is.`);
  return { values: v, notes };
}
