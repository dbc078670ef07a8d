// The studio's preview: a search as the shopper's page makes it, answered with each
// hit's ranking (explain), the rules that applied and the words the search ignored.

import { el, number } from "./ui.js";
import { api, indexPath, announce, showError, state } from "./studio-api.js";
import { orderFacets } from "./studio-facet-order.js";

const $ = (id) => document.getElementById(id);
// The criteria of explain, in the order the ranking applies them, as the page names them.
const CRITERIA = [["words", "Words matched"], ["typo", "Typos"], ["proximity", "Proximity"], ["attribute", "Attribute"], ["exact", "Exact words"]];
let runs = 0; // the latest preview; an earlier one answering late is not shown
let onAnswer = () => {}; // told each answer shown (the facet ordering editor's values)

// parseFilters reads "brand:Acme, brand:Zed, color:red" as facetFilters
// ({brand: ["Acme", "Zed"], color: ["red"]}); a part without a field is an error.
export function parseFilters(text) {
  const out = {};
  for (const part of text.split(",").map((p) => p.trim()).filter(Boolean)) {
    const at = part.indexOf(":");
    const field = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (at < 1 || !field || !value) throw new Error(`"${part}" is not field:value`);
    (out[field] ||= []).push(value);
  }
  return out;
}

// parseList reads a comma-separated list, dropping empty parts.
export function parseList(text) {
  return text.split(",").map((p) => p.trim()).filter(Boolean);
}

// previewRequest is the search the preview form describes.
export function previewRequest() {
  const req = { q: $("q").value, explain: true, limit: 20, facetFilters: parseFilters($("filters").value) };
  if (state.facetFields.length) req.facets = state.facetFields;
  const contexts = parseList($("contexts").value);
  if (contexts.length) req.ruleContexts = contexts;
  if (!$("rules-on").checked) req.enableRules = false;
  return req;
}

// search runs a search of the index in use.
export function search(req) {
  return api(indexPath("/search"), { method: "POST", body: req });
}

// runPreview searches what the form says and shows it; a late answer of an older run is
// dropped. asked says the user asked, so the result is announced.
export async function runPreview(asked) {
  const me = ++runs;
  let req;
  try {
    req = previewRequest();
  } catch (e) {
    return showError(`Check the filters: ${e.message}`);
  }
  try {
    const res = await search(req);
    if (me !== runs) return;
    showError("");
    renderAnswer(res, $("hits"));
    renderFacts(res);
    renderFacets(res);
    onAnswer(res);
    $("outcome").hidden = false;
    document.body.dataset.previews = String(Number(document.body.dataset.previews || 0) + 1);
    if (asked) announce(`${number.format(res.total)} results for “${req.q}”${req.enableRules === false ? ", without rules" : ""}.`);
  } catch (e) {
    if (me === runs) showError(`Could not preview: ${e.message}`);
  }
}

// renderFacts shows the answer's total, the rules applied, the words ignored and the
// banners (the userData of the rules applied).
function renderFacts(res) {
  $("summary").textContent = `${number.format(res.total)} results; the first ${res.hits.length} as shoppers see them.`;
  const fact = (label, items, name) => {
    const d = el("div", null, { "data-fact": name });
    const dd = el("dd");
    if (items.length) dd.append(...items.map((t) => el("span", t, { class: "tag" })));
    else dd.append(el("span", "none", { class: "empty" }));
    d.append(el("dt", label), dd);
    return d;
  };
  $("facts").replaceChildren(fact("Rules applied", res.appliedRules || [], "rules"), fact("Ignored words", res.ignoredWords || [], "ignored"));
  $("banners").replaceChildren(...(res.userData || []).map((u, i) => {
    const b = el("div", null, { class: "banner", "data-banner": (res.appliedRules || [])[i] || "" });
    b.append(el("strong", `Banner of rule ${(res.appliedRules || [])[i] || ""}`), el("pre", JSON.stringify(u, null, 2)));
    return b;
  }));
}

// renderFacets shows the answer's facets as a page following its renderingContent
// would: in the order of its facetOrdering, hidden values left out.
function renderFacets(res) {
  const ordering = res.renderingContent && res.renderingContent.facetOrdering;
  $("preview-facets").replaceChildren(...orderFacets(res.facets, ordering).map((f) => {
    const box = el("div", null, { class: "facet", "data-preview-facet": f.field });
    const list = el("ul", null, { "aria-label": `Values of ${f.field}` });
    list.append(...f.values.map((v) => el("li", `${v.value} (${number.format(v.count)})`, { "data-value": String(v.value) })));
    box.append(el("h3", f.field), list);
    return box;
  }));
}

// recordName is how the page names a record: its name or title, else its objectID.
export function recordName(hit) {
  const r = hit.record || {};
  for (const k of ["name", "title"]) if (typeof r[k] === "string" && r[k]) return r[k];
  return hit.objectID;
}

// renderAnswer lists the hits in list: each with its position, name, objectID, whether
// a rule pinned it, and its level of each ranking criterion.
export function renderAnswer(res, list) {
  list.replaceChildren(...res.hits.map((h, i) => {
    const li = el("li", null, { class: "hit", "data-object-id": h.objectID, "data-position": String(res.offset + i + 1) });
    const head = el("div", null, { class: "hit-head" });
    head.append(el("span", String(res.offset + i + 1), { class: "pos", "aria-hidden": "true" }),
      el("span", recordName(h), { class: "name", "data-name": "" }), el("span", h.objectID, { class: "id" }));
    if (h.promoted) head.append(el("span", "Pinned by a rule", { class: "tag pinned", "data-pinned": "" }));
    li.append(head, h.ranking ? criteria(h.ranking) : el("p", "Placed by a rule, whatever its ranking.", { class: "hint" }));
    return li;
  }));
  if (!res.hits.length) list.append(el("li", "No result: shoppers see an empty page.", { class: "empty", "data-empty": "" }));
}

// criteria shows a hit's explain: each criterion's level, the words it misses and the
// values of the custom ranking.
function criteria(r) {
  const dl = el("dl", null, { class: "criteria" });
  const add = (label, value, key) => {
    const d = el("div");
    d.append(el("dt", label), el("dd", value, { "data-criterion": key }));
    dl.append(d);
  };
  for (const [k, label] of CRITERIA) add(label, number.format(r[k]), k);
  if (r.missingWords && r.missingWords.length) add("Missing words", r.missingWords.join(" "), "missingWords");
  for (const [k, v] of Object.entries(r.custom || {})) add(k, v === null ? "–" : String(v), `custom.${k}`);
  return dl;
}

// setupPreview wires the form; answered is told each answer shown.
export function setupPreview(answered) {
  onAnswer = answered;
  $("preview-form").addEventListener("submit", (e) => {
    e.preventDefault();
    runPreview(true);
  });
  $("rules-on").addEventListener("change", () => runPreview(true));
  const q = new URLSearchParams(location.search).get("q");
  if (q !== null) $("q").value = q;
}
