// The rules editor's form as data: a rule written from the form's fields and back. Pure
// functions of values, so what the form means is in one place. The form edits every
// condition, the first validity window, the pins, the hidden records, one boost, one bury,
// the query searched instead and a banner; whatever else a rule holds (more windows,
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

// conditionOf is the condition one condition's values c describe: {pattern, anchoring,
// filters (filterOf's text), context}, or kept (a filter the form cannot write, as loaded).
export function conditionOf(c, n) {
  const cond = {};
  if (c.pattern.trim()) Object.assign(cond, { pattern: c.pattern.trim(), anchoring: c.anchoring });
  const filters = c.kept || named(`Condition ${n}'s filters`, () => filterOf(c.filters));
  if (filters) cond.filters = filters;
  if (c.context.trim()) cond.context = c.context.trim();
  return cond;
}

// conditionsOf is the rule's conditions, in the form's order; undefined for a lone empty
// one, as a rule without conditions applies to every search just as an empty one does.
export function conditionsOf(list) {
  const conds = list.map((c, i) => conditionOf(c, i + 1));
  if (!conds.length || (conds.length === 1 && !Object.keys(conds[0]).length)) return undefined;
  return conds;
}

// conditionValues is the form's values for one condition; a filter filterText cannot
// write is shown as its JSON, read-only, and kept.
export function conditionValues(cond = {}) {
  const t = filterText(cond.filters);
  return { pattern: cond.pattern || "", anchoring: cond.anchoring || "contains", filters: t ?? JSON.stringify(cond.filters),
    context: cond.context || "", kept: t === null ? cond.filters : undefined };
}

// ruleOf is the rule the form's values v describe, on top of base (the rule as loaded,
// or {} for a new one). Throws naming a field it cannot read.
export function ruleOf(v, base = {}) {
  const rule = structuredClone(base);
  rule.objectID = v.id.trim();
  if (v.description.trim()) rule.description = v.description.trim();
  else delete rule.description;
  if (v.enabled) delete rule.enabled;
  else rule.enabled = false;
  const conditions = conditionsOf(v.conditions || []);
  if (conditions) rule.conditions = conditions;
  else delete rule.conditions;
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
    conditions: (rule.conditions && rule.conditions.length ? rule.conditions : [{}]).map(conditionValues), from: toLocal(window.from), until: toLocal(window.until),
    pins: pinsText(c.promote), hide: (c.hide || []).join(", "),
    boost: text(((c.boost || [])[0] || {}).filter, "The boost", "boost"), bury: text(((c.bury || [])[0] || {}).filter, "The bury", "bury"),
    replace: (c.query && c.query.replace) || "",
    banner: isObject(c.userData) && typeof c.userData.banner === "string" ? c.userData.banner : "",
  };
  v.keep = keep;
  v.conditions.forEach((c, i) => c.kept && notes.push(`Condition ${i + 1}'s filter is one this form cannot write; it is shown as it is and kept.`));
  if ((rule.validity || []).length > 1) notes.push(`${rule.validity.length - 1} more validity windows are kept as they are.`);
  if (c.query && c.query.remove) {
    keep.query = true;
    notes.push("The words it removes from the query are kept as they are.");
  }
  for (const k of ["filters", "renderingContent"]) if (c[k]) notes.push(`Its ${k} consequence is kept as it is.`);
  return { values: v, notes };
}
