// Facet ordering as data (the facetOrdering setting, Algolia's renderingContent shape):
// the order a page shows facets and values in, and the edits of the studio's editor.
// Pure functions: the preview shows an answer's facets through orderFacets, the editor
// a draft through the same function, so both read the setting alike.

const byCount = (a, b) => b.count - a.count || String(a.value).localeCompare(String(b.value));
const byAlpha = (a, b) => String(a.value).localeCompare(String(b.value));

// facetFieldsIn is the order of fields (the facets of an answer, or of the settings) as
// ordering shows them: its order first, "*" standing for the others in their order;
// without an order, all of them.
export function facetFieldsIn(fields, ordering) {
  const order = ordering && ordering.facets && ordering.facets.order;
  if (!order || !order.length) return [...fields];
  const out = [];
  for (const f of order) {
    if (f === "*") out.push(...fields.filter((x) => !order.includes(x)));
    else if (fields.includes(f)) out.push(f);
  }
  return out;
}

// valuesIn orders a facet's values ([{value, count}]) as rule ({order, sortRemainingBy,
// hide}) says: pinned first, then the rest by count (default) or alphabetically, or none
// (hidden). With all, hidden values and the values the rule names but the answer lacks
// (count null) are listed too, marked, for the editor.
export function valuesIn(values, rule = {}, all = false) {
  const order = rule.order || [];
  const hide = rule.hide || [];
  const known = new Map(values.map((v) => [String(v.value), v]));
  const mark = (v, pinned) => ({ value: v.value, count: v.count, pinned, hidden: hide.includes(String(v.value)) });
  const pinned = order.filter((v) => all || known.has(v)).map((v) => mark(known.get(v) || { value: v, count: null }, true));
  let rest = values.filter((v) => !order.includes(String(v.value)));
  rest = rule.sortRemainingBy === "alpha" ? [...rest].sort(byAlpha) : [...rest].sort(byCount);
  const remaining = rule.sortRemainingBy === "hidden" && !all ? [] : rest.map((v) => mark(v, false));
  if (all && rule.sortRemainingBy === "hidden") remaining.forEach((v) => (v.hidden = true));
  const out = [...pinned, ...remaining];
  if (all) out.push(...hide.filter((v) => !known.has(v) && !order.includes(v)).map((v) => ({ value: v, count: null, pinned: false, hidden: true })));
  return all ? out : out.filter((v) => !v.hidden);
}

// orderFacets is an answer's facets ({field: [{value, count}]}) as ordering shows them:
// [{field, values}].
export function orderFacets(facets, ordering, all = false) {
  const values = (ordering && ordering.values) || {};
  return facetFieldsIn(Object.keys(facets || {}).sort(), ordering)
    .map((field) => ({ field, values: valuesIn(facets[field] || [], values[field], all) }));
}

// moveBefore is list with item moved to just before target (to the end when target is
// not in it).
export function moveBefore(list, item, target) {
  const out = list.filter((x) => x !== item);
  const at = out.indexOf(target);
  out.splice(at < 0 ? out.length : at, 0, item);
  return out;
}

// The edits of a draft: each returns a new draft. fields are the index's facet fields.
export function withFacetOrder(draft, order) {
  return { ...draft, facets: { order } };
}

function editValues(draft, field, edit) {
  const rule = edit({ order: [], hide: [], ...((draft.values || {})[field] || {}) });
  for (const k of ["order", "hide"]) if (!rule[k].length) delete rule[k];
  if (!rule.sortRemainingBy || rule.sortRemainingBy === "count") delete rule.sortRemainingBy;
  const values = { ...(draft.values || {}) };
  if (Object.keys(rule).length) values[field] = rule;
  else delete values[field];
  return { ...draft, values };
}

// pinValue puts value at the place of target among the pinned values of field (last
// when target is not pinned), and shows it.
export function pinValue(draft, field, value, target) {
  return editValues(draft, field, (r) => ({ ...r, order: moveBefore(r.order, value, target), hide: r.hide.filter((v) => v !== value) }));
}

export function unpinValue(draft, field, value) {
  return editValues(draft, field, (r) => ({ ...r, order: r.order.filter((v) => v !== value) }));
}

// hideValue hides value (and unpins it); showValue shows it again.
export function hideValue(draft, field, value) {
  return editValues(draft, field, (r) => ({ ...r, order: r.order.filter((v) => v !== value), hide: [...r.hide.filter((v) => v !== value), value] }));
}

export function showValue(draft, field, value) {
  return editValues(draft, field, (r) => ({ ...r, hide: r.hide.filter((v) => v !== value) }));
}

export function sortRemaining(draft, field, by) {
  return editValues(draft, field, (r) => ({ ...r, sortRemainingBy: by }));
}

// settingOf is the draft as the setting stores it: null when it orders nothing.
export function settingOf(draft) {
  const out = {};
  if (draft.facets && draft.facets.order && draft.facets.order.length) out.facets = { order: draft.facets.order };
  if (draft.values && Object.keys(draft.values).length) out.values = draft.values;
  return Object.keys(out).length ? out : null;
}
