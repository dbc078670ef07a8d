// The rules editor's form as data: a rule written from the form's fields and back. Pure
// functions of values, so what the form means is in one place. The form edits every
// condition, every validity window, the pins, the hidden records, every boost and bury,
// the query searched instead and a banner; whatever else a rule holds (words removed
// from the query, filters, rendering content) is kept as it was.

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
  const f = filterShown(cond.filters);
  return { pattern: cond.pattern || "", anchoring: cond.anchoring || "contains", filters: f.text, context: cond.context || "", kept: f.kept };
}

// filterShown is a filter as the form shows it: filterText's text, or, for a filter
// filterText cannot write, its JSON and the filter itself, kept as it is.
function filterShown(f) {
  const t = filterText(f);
  return { text: t ?? JSON.stringify(f), kept: t === null ? f : undefined };
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
  const windows = windowsOf(v.windows || []);
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
  for (const [k, noun] of [["boost", "Boost"], ["bury", "Bury"]]) {
    const list = weightedOf(v[k] || [], noun);
    set(k, list, !list.length);
  }
  const data = { ...(isObject(base.userData) ? base.userData : {}) };
  if (v.banner.trim()) data.banner = v.banner.trim();
  else delete data.banner;
  set("userData", data, !Object.keys(data).length);
  if (base.userData !== undefined && !isObject(base.userData)) c.userData = base.userData;
  return c;
}

// windowsOf is the rule's validity windows, in the form's order, each of the form's
// values {from, until}; a window without either bound is refused (it would mean always).
export function windowsOf(list) {
  return list.map((w, i) => named(`Validity window ${i + 1}`, () => {
    const out = {};
    if (w.from) out.from = toTime(w.from);
    if (w.until) out.until = toTime(w.until);
    if (!Object.keys(out).length) throw new Error("give it a start or an end, or remove it");
    return out;
  }));
}

export const windowValues = (w) => ({ from: toLocal(w.from), until: toLocal(w.until) });

// weightedOf is the rule's boosts (or buries), each of the form's values {filter
// (filterOf's text), weight, kept (a filter the form cannot write, as loaded)}; the
// default weight, 1, is left out.
export function weightedOf(list, noun) {
  return list.map((w, i) => named(`${noun} ${i + 1}`, () => {
    const filter = w.kept || filterOf(w.filter);
    if (!filter) throw new Error("give it a filter, or remove it");
    const weight = Number(w.weight);
    if (!Number.isInteger(weight) || weight < 1 || weight > 10) throw new Error("its weight is a whole number from 1 to 10");
    return weight === 1 ? { filter } : { filter, weight };
  }));
}

// weightedValues is the form's values for one boost or bury (filterShown's filter).
export function weightedValues(w) {
  const f = filterShown(w.filter);
  return { filter: f.text, weight: String(w.weight ?? 1), kept: f.kept };
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
  const c = rule.consequence || {};
  const notes = [];
  const keep = {};
  const v = {
    id: rule.objectID || "", description: rule.description || "", enabled: rule.enabled !== false,
    conditions: (rule.conditions && rule.conditions.length ? rule.conditions : [{}]).map(conditionValues),
    windows: (rule.validity || []).map(windowValues),
    pins: pinsText(c.promote), hide: (c.hide || []).join(", "),
    boost: (c.boost || []).map(weightedValues), bury: (c.bury || []).map(weightedValues),
    replace: (c.query && c.query.replace) || "",
    banner: isObject(c.userData) && typeof c.userData.banner === "string" ? c.userData.banner : "",
  };
  v.keep = keep;
  // Not numbered: the groups are renumbered as they are added and removed.
  if ([...v.conditions, ...v.boost, ...v.bury].some((x) => x.kept)) {
    notes.push("A filter shown as JSON is one this form cannot write; it is read-only and kept as it is.");
  }
  if (c.query && c.query.remove) {
    keep.query = true;
    notes.push("The words it removes from the query are kept as they are.");
  }
  for (const k of ["filters", "renderingContent"]) if (c[k]) notes.push(`Its ${k} consequence is kept as it is.`);
  return { values: v, notes };
}
