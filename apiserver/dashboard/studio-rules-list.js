// The rules editor's list: the index's rules a page at a time, by objectID, narrowed by
// the search box to those whose ID, description or patterns hold its words (GET
// /rules?query=&offset=&limit=), with the count the API finds. A shop may hold 10,000
// rules; the list never asks for more than a page.

import { el, number, table } from "./ui.js";
import { api, indexPath, announce, showError, state } from "./studio-api.js";

const $ = (id) => document.getElementById(id);
const LIST_LIMIT = 100;
// Typing waits this long for the next key before the list is asked again.
const TYPING_MS = 300;
const list = { query: "", offset: 0, asked: 0, timer: 0 };
let buttons = () => [];

// loadRules shows the page of rules the search box and paging are at; an answer to an
// older ask, arriving late, is not shown. It returns what it said, for announce.
export async function loadRules() {
  const me = ++list.asked;
  const params = new URLSearchParams({ query: list.query, offset: String(list.offset), limit: String(LIST_LIMIT) });
  try {
    const page = await api(indexPath(`/rules?${params}`));
    if (me !== list.asked) return "";
    if (!page.rules.length && list.offset > 0) {
      // The page emptied (rules deleted meanwhile): show the last one that holds rules.
      list.offset = Math.max(0, Math.floor((page.total - 1) / LIST_LIMIT) * LIST_LIMIT);
      return loadRules();
    }
    return show(page);
  } catch (e) {
    if (me === list.asked) showError(`Could not read the rules: ${e.message}`);
    return "";
  }
}

function show(page) {
  const heads = ["Rule", "When", "Then"];
  if (state.canWrite) heads.push("Edit");
  const said = countText(page);
  const empty = list.query ? `No rule matches “${list.query}”.` : "No rule yet.";
  table($("rules-list"), heads, page.rules, (r) => {
    const cells = [ruleCell(r), whenText(r), thenText(r.consequence || {})];
    if (state.canWrite) cells.push(buttons(r));
    return cells;
  }, "rules", said, empty);
  $("rules-count").textContent = said;
  $("rules-prev").disabled = list.offset === 0;
  $("rules-next").disabled = list.offset + page.rules.length >= page.total;
  $("rule-form").hidden = !state.canWrite;
  document.body.dataset.rulesQuery = list.query;
  document.body.dataset.rulesOffset = String(list.offset);
  document.body.dataset.ruleLists = String(Number(document.body.dataset.ruleLists || 0) + 1);
  return said;
}

// countText says which rules the page shows, of how many the API counts.
function countText(page) {
  if (!page.rules.length) return list.query ? `No rule matches “${list.query}”.` : "No rule yet.";
  const matching = list.query ? ` matching “${list.query}”` : "";
  const total = `${number.format(page.total)} ${page.total === 1 ? "rule" : "rules"}${matching}`;
  if (page.offset === 0 && page.rules.length >= page.total) return total;
  return `${number.format(page.offset + 1)} to ${number.format(page.offset + page.rules.length)} of ${total}`;
}

// go asks for the list at query and offset, says what it shows, and puts the focus on it
// when paging (the page's buttons may have been disabled under the keyboard).
async function go(query, offset, focusList) {
  clearTimeout(list.timer);
  Object.assign(list, { query, offset });
  const said = await loadRules();
  if (!said) return;
  showError("");
  announce(`Rules: ${said}.`);
  if (focusList) $("rules-list").focus();
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

// setupRulesList wires the search box and paging; rowButtons makes a rule's Edit and
// Delete buttons (a write key's).
export function setupRulesList(rowButtons) {
  buttons = rowButtons;
  const box = $("rules-search");
  $("rules-find").addEventListener("submit", (e) => {
    e.preventDefault();
    go(box.value.trim(), 0, false);
  });
  box.addEventListener("input", () => {
    clearTimeout(list.timer);
    list.timer = setTimeout(() => box.value.trim() !== list.query && go(box.value.trim(), 0, false), TYPING_MS);
  });
  $("rules-prev").addEventListener("click", () => go(list.query, Math.max(0, list.offset - LIST_LIMIT), true));
  $("rules-next").addEventListener("click", () => go(list.query, list.offset + LIST_LIMIT, true));
}
