// One-click fixes of a search the Events page lists as failing (no result, or no click):
// opened as studio.html?q=…&fix=noResults|noClicks, the studio previews the query and,
// with a write key, offers to make it find what it should: a synonym both ways, a
// one-way synonym (the query also finds the word), or a rule on that exact query (which
// searches the word instead).

import { state } from "./studio-api.js";
import { addSynonym } from "./studio-synonyms.js";
import { startRule } from "./studio-rules.js";

const $ = (id) => document.getElementById(id);
const WHY = {
  noResults: "Shoppers searched for it and found nothing.",
  noClicks: "Shoppers searched for it and clicked none of the results.",
};

// ruleIdOf is a rule ID for query: its letters and digits, dash-joined, at most 64.
export function ruleIdOf(query) {
  const slug = query.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 58);
  return `fix-${slug || "query"}`;
}

// showFix shows the fixes of the link's query, when the link asks for them and the key
// may write.
export function showFix() {
  const params = new URLSearchParams(location.search);
  const query = (params.get("q") || "").trim();
  const why = WHY[params.get("fix")];
  $("fix").hidden = !(why && query && state.canWrite);
  if ($("fix").hidden) return;
  $("fix-query").textContent = `“${query}”`;
  $("fix-why").textContent = why;
}

// setupFix wires the fixes; changed reruns the preview and reloads the history.
export function setupFix(changed) {
  const query = () => (new URLSearchParams(location.search).get("q") || "").trim();
  const word = () => $("fix-word").value.trim();
  const needWord = () => {
    if (word()) return true;
    $("fix-word").focus();
    $("fix-word").setAttribute("aria-invalid", "true");
    return false;
  };
  $("fix-form").addEventListener("submit", (e) => {
    e.preventDefault();
    if (needWord()) addSynonym({ terms: [query(), word()] }, changed);
  });
  $("fix-oneway").addEventListener("click", () => {
    if (needWord()) addSynonym({ type: "oneWay", input: query(), synonyms: [word()] }, changed);
  });
  $("fix-rule").addEventListener("click", () => startRule({ objectID: ruleIdOf(query()), conditions: [{ pattern: query(), anchoring: "is" }],
    consequence: word() ? { query: { replace: word() } } : {} }));
  $("fix-word").addEventListener("input", () => $("fix-word").removeAttribute("aria-invalid"));
}
