// The Events page: reads GET /events/stats with the key the user enters and shows it.
// Everything shown goes in as text (textContent, never HTML), and the page's
// Content-Security-Policy runs only its own files.

import { el, number, shortDay, table, newChart } from "./ui.js";
import { renderSearches } from "./searches.js";
import { api, setupLogin, chosenIndex, scrollable, showError as showAlert } from "./login.js";

const params = new URLSearchParams(location.search);
// Refresh about every minute: the figures are computed at most once a minute.
const REFRESH = Math.max(5, Number(params.get("refresh")) || 60) * 1000;
// Colours with at least 4.5:1 contrast on white, told apart by hue and lightness.
const TYPES = [
  ["view", "Views", "#0b57d0"],
  ["click", "Clicks", "#b3261e"],
  ["addToCart", "Added to cart", "#146c2e"],
  ["purchase", "Purchases", "#7a4b00"],
  ["cancel", "Cancels", "#5c2d91"],
];
// The recommendation lists, as the page names them.
const LISTS = { together: "Bought together", similar: "Similar", goesWith: "Goes with", trending: "Trending" };
const $ = (id) => document.getElementById(id);
let workspace = "";
let timer = 0;
let loads = 0; // the latest load; an earlier one answering late is not shown
let refreshes = 0;
const charts = new Map();

function money(amount, currency) {
  try {
    return new Intl.NumberFormat(undefined, { style: "currency", currency }).format(amount);
  } catch {
    return `${number.format(amount)} ${currency}`;
  }
}

const regions = (() => {
  try {
    return new Intl.DisplayNames(undefined, { type: "region" });
  } catch {
    return null;
  }
})();

// country names a two-letter code, keeping the code beside it.
function country(code) {
  if (!code) return "Unknown";
  try {
    const name = regions && regions.of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}

function showError(message) {
  showAlert(message);
  if (message) document.body.dataset.state = "error";
}

function isoDay(d) {
  return d.toISOString().slice(0, 10);
}

// opened shows the figures of the key's workspace; entered says the user just typed the
// key, so the focus moves on to the index (a reload leaves the focus alone).
async function opened(info, entered) {
  workspace = info.workspace;
  await load(true);
  if (entered) $("index").focus();
}

// load reads and shows the figures; asked says the user asked for them, so the result is
// announced (the refresh every minute is not, to keep screen readers quiet).
async function load(asked) {
  clearTimeout(timer);
  const me = ++loads;
  const index = chosenIndex();
  const q = new URLSearchParams({ from: $("from").value, to: $("to").value });
  const path = `/api/teams/${encodeURIComponent(workspace)}/indexes/${encodeURIComponent(index)}/events/stats?${q}`;
  try {
    const stats = await api(path);
    if (me !== loads) return;
    showError("");
    render(stats);
    refreshes++;
    document.body.dataset.state = "ready";
    document.body.dataset.refreshes = String(refreshes);
    document.body.dataset.generated = stats.generatedAt;
    $("updated").textContent = `Computed at ${new Date(stats.generatedAt).toLocaleTimeString()}; refreshed every minute.`;
    if (asked === true) $("status").textContent = `Showing ${index}, ${stats.from} to ${stats.to}.`;
  } catch (e) {
    if (me !== loads) return;
    showError(`Could not read the figures: ${e.message}`);
  }
  timer = setTimeout(load, REFRESH);
}

function render(s) {
  $("main").hidden = false;
  const cards = TYPES.map(([k, label]) => [label, s.totals[k], `totals.${k}`]).concat([
    ["Orders", s.orders, "orders"],
    ["Cancelled orders", s.cancelledOrders, "cancelledOrders"],
    ["Not recorded", s.notRecorded.total, "notRecorded"],
  ]);
  $("totals").replaceChildren(...cards.map(([label, n, key]) => {
    const d = el("div");
    d.append(el("dt", label), el("dd", number.format(n), { "data-figure": key, "data-value": String(n) }));
    return d;
  }));
  table($("revenue"), ["Currency", "Revenue", "Purchases"], s.revenue,
    (r) => [r.currency, [money(r.amount, r.currency), r.amount], [number.format(r.purchases), r.purchases]], "revenue");
  renderDaily(s.daily);
  renderProducts(s.topProducts);
  renderRecommendations(s.lists);
  renderLists(s);
  renderSearches(s.searches);
  scrollable();
}

// renderDaily draws one chart per event type, each on its own scale so that purchases
// are not flattened by views, and the same figures as a table.
function renderDaily(days) {
  table($("daily"), ["Day", ...TYPES.map(([, label]) => label)], days,
    (d) => [d.date, ...TYPES.map(([k]) => [number.format(d[k]), d[k]])], "daily");
  if (typeof Chart === "undefined") return showError("The chart library did not load.");
  if (!charts.size) $("charts").replaceChildren(...TYPES.map(chartFigure));
  const labels = days.map((d) => shortDay.format(new Date(`${d.date}T00:00:00Z`)));
  for (const [k, label, color] of TYPES) {
    const data = days.map((d) => d[k]);
    const total = data.reduce((a, b) => a + b, 0);
    $(`chart-${k}-total`).textContent = number.format(total);
    const canvas = $(`chart-${k}`);
    canvas.setAttribute("aria-label", `${label} per day, ${days[0] ? days[0].date : ""} to ${days.length ? days[days.length - 1].date : ""}: ${number.format(total)} in all; the table below holds each day's figure`);
    const chart = charts.get(k);
    if (chart) {
      chart.data.labels = labels;
      chart.data.datasets[0].data = data;
      chart.update("none");
    } else charts.set(k, newChart(canvas, label, color, labels, data));
  }
}

function chartFigure([k, label]) {
  const fig = el("figure", null, { class: "chart" });
  const cap = el("figcaption", label);
  cap.append(" ", el("span", "", { id: `chart-${k}-total`, class: "total" }));
  const box = el("div", null, { class: "canvas" });
  box.append(el("canvas", null, { id: `chart-${k}`, role: "img" }));
  fig.append(cap, box);
  return fig;
}

// productCell shows a product by its name when the catalog still holds it.
function productCell(p) {
  const r = p.record || {};
  const name = typeof r.name === "string" ? r.name : typeof r.title === "string" ? r.title : "";
  const span = el("span");
  span.append(el("span", name || (p.record ? p.objectID : `${p.objectID} (no longer in the catalog)`), { "data-name": "" }));
  if (name) span.append(el("span", p.objectID, { class: "id" }));
  return span;
}

function renderProducts(top) {
  $("products").replaceChildren(...TYPES.filter(([k]) => k !== "cancel").map(([k, label]) => {
    const t = el("table");
    table(t, ["Product", label], top[k], (p) => [productCell(p), [number.format(p.count), p.count]], `product-${k}`, label);
    const wrap = el("div", null, { class: "scroll", "data-label": `Top products: ${label}` });
    wrap.append(t);
    return wrap;
  }));
}

// renderRecommendations shows each recommendation list's clicks and the products most
// clicked from it, so a shop sees which list earns its place.
function renderRecommendations(lists) {
  $("reclists").replaceChildren(...(lists || []).map((l) => {
    const label = LISTS[l.list] || l.list;
    const t = el("table", null, { "data-list": l.list });
    table(t, ["Product", "Clicks"], l.products, (p) => [productCell(p), [number.format(p.count), p.count]], `list-${l.list}`, label);
    t.caption.append(": ", el("span", `${number.format(l.clicks)} clicks`, { "data-figure": `lists.${l.list}`, "data-value": String(l.clicks) }));
    const wrap = el("div", null, { class: "scroll", "data-label": `${label}: most clicked` });
    wrap.append(t);
    return wrap;
  }));
}

function renderLists(s) {
  const keyed = (title, items, head, name, show = (k) => k) => [title, (t) =>
    table(t, [head, "Events"], items, (x) => [show(x.key), [number.format(x.count), x.count]], name)];
  const reasons = Object.entries(s.notRecorded.byReason || {}).sort((a, b) => b[1] - a[1]).map(([key, count]) => ({ key, count }));
  const sections = [
    ["Top clicked queries", (t) => table(t, ["Query", "Clicks"], s.topQueries, (x) => [x.query, [number.format(x.clicks), x.clicks]], "query")],
    ["Clicks by list", (t) => table(t, ["List", "Clicks"], s.clicksByList, (x) => [x.key, [number.format(x.count), x.count]], "list")],
    ["Clicks by position", (t) => table(t, ["Position", "Clicks"], s.clicksByPosition, (x) => [String(x.position), [number.format(x.clicks), x.clicks]], "position")],
    keyed("Countries", s.countries, "Country", "country", country),
    keyed("Devices", s.devices, "Device", "device"),
    keyed("Sites", s.sites, "Site", "site"),
    keyed("Not recorded, by reason", reasons, "Reason", "reason"),
  ];
  $("lists").replaceChildren(...sections.map(([title, fill], i) => {
    const sec = el("section", null, { "aria-labelledby": `list-h${i}` });
    const t = el("table");
    fill(t);
    const wrap = el("div", null, { class: "scroll", "data-label": title });
    wrap.append(t);
    sec.append(el("h2", title, { id: `list-h${i}` }), wrap);
    return sec;
  }));
}

function start() {
  const today = new Date();
  $("to").value = isoDay(today);
  $("from").value = isoDay(new Date(today.getTime() - 29 * 86400000));
  $("view-form").addEventListener("submit", (e) => {
    e.preventDefault();
    load(true);
  });
  $("index").addEventListener("change", () => load(true));
  // A closed <details> has no width: its table is measured again once opened.
  $("daily").closest("details").addEventListener("toggle", scrollable);
  $("search-daily").closest("details").addEventListener("toggle", scrollable);
  setupLogin({ page: "Events page", shown: ["view-form"], opened, forgotten: () => {
    clearTimeout(timer);
    loads++;
  } });
}

start();
