// The Events page: reads GET /events/stats with the key the user enters and shows it.
// Everything shown goes in as text (textContent, never HTML), and the page's
// Content-Security-Policy runs only its own files.

const KEY = "aisle.dashboard.key";
const INDEX = "aisle.dashboard.index";
const params = new URLSearchParams(location.search);
// Refresh about every minute: the figures are computed at most once a minute.
const REFRESH = Math.max(5, Number(params.get("refresh")) || 60) * 1000;
const TYPES = [
  ["view", "Views", "#0b57d0"],
  ["click", "Clicks", "#b3261e"],
  ["addToCart", "Added to cart", "#146c2e"],
  ["purchase", "Purchases", "#7a4b00"],
  ["cancel", "Cancels", "#5c2d91"],
];
const $ = (id) => document.getElementById(id);
let workspace = "";
let timer = 0;
let chart = null;
let refreshes = 0;

// el builds an element with text content and attributes.
function el(tag, text, attrs = {}) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

const number = new Intl.NumberFormat();
function money(amount, currency) {
  try {
    return new Intl.NumberFormat(undefined, { style: "currency", currency }).format(amount);
  } catch {
    return `${number.format(amount)} ${currency}`;
  }
}

async function api(path) {
  const res = await fetch(path, { headers: { Authorization: `Bearer ${sessionStorage.getItem(KEY)}` }, cache: "no-store" });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.error || `the server answered ${res.status}`);
  return body;
}

function showError(message) {
  $("error").hidden = !message;
  $("error").textContent = message || "";
  if (message) document.body.dataset.state = "error";
}

function isoDay(d) {
  return d.toISOString().slice(0, 10);
}

async function open() {
  showError("");
  $("status").textContent = "Reading the key's indexes…";
  let info;
  try {
    info = await api("/dashboard/api/key");
  } catch (e) {
    $("view-form").hidden = true;
    return showError(`This key cannot open the Events page: ${e.message}`);
  }
  workspace = info.workspace;
  const select = $("index");
  select.replaceChildren(...info.indexes.map((name) => el("option", name, { value: name })));
  if (!info.indexes.length) return showError("This key has no index.");
  const stored = sessionStorage.getItem(INDEX);
  if (info.indexes.includes(stored)) select.value = stored;
  $("view-form").hidden = false;
  await load();
}

async function load() {
  clearTimeout(timer);
  const index = $("index").value;
  sessionStorage.setItem(INDEX, index);
  const q = new URLSearchParams({ from: $("from").value, to: $("to").value });
  const path = `/api/teams/${encodeURIComponent(workspace)}/indexes/${encodeURIComponent(index)}/events/stats?${q}`;
  try {
    const stats = await api(path);
    showError("");
    render(stats);
    refreshes++;
    document.body.dataset.state = "ready";
    document.body.dataset.refreshes = String(refreshes);
    document.body.dataset.generated = stats.generatedAt;
    $("status").textContent = `Figures of ${stats.from} to ${stats.to}, computed at ${new Date(stats.generatedAt).toLocaleTimeString()}; they refresh every minute.`;
  } catch (e) {
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
  renderLists(s);
}

// table fills t with a header row and one row per item; a cell is text, or [text, value]
// for a number (right-aligned, its raw value in data-value).
function table(t, heads, items, cells, name, caption) {
  const rows = [];
  if (caption) rows.push(el("caption", caption));
  const head = el("tr");
  heads.forEach((h, i) => head.append(el("th", h, { scope: "col", class: i ? "n" : "" })));
  rows.push(el("thead"));
  rows[rows.length - 1].append(head);
  const body = el("tbody");
  for (const item of items || []) {
    const tr = el("tr", null, { "data-row": name });
    for (const c of cells(item)) {
      if (Array.isArray(c)) tr.append(el("td", c[0], { class: "n", "data-value": String(c[1]) }));
      else if (c instanceof Node) {
        const td = el("td");
        td.append(c);
        tr.append(td);
      } else tr.append(el("td", c));
    }
    body.append(tr);
  }
  if (!body.children.length) {
    const tr = el("tr");
    tr.append(el("td", "Nothing in this period.", { colspan: String(heads.length), class: "empty" }));
    body.append(tr);
  }
  rows.push(body);
  t.replaceChildren(...rows);
}

function renderDaily(days) {
  const cols = TYPES.map(([, label]) => label);
  table($("daily"), ["Day", ...cols], days, (d) => [d.date, ...TYPES.map(([k]) => [number.format(d[k]), d[k]])], "daily");
  if (typeof Chart === "undefined") return showError("The chart library did not load.");
  const data = {
    labels: days.map((d) => d.date),
    datasets: TYPES.map(([k, label, color], i) => ({
      label, data: days.map((d) => d[k]), borderColor: color, backgroundColor: color,
      pointStyle: ["circle", "rect", "triangle", "rectRot", "crossRot"][i], tension: 0.2,
    })),
  };
  if (chart) {
    chart.data = data;
    chart.update("none");
    return;
  }
  chart = new Chart($("chart"), {
    type: "line",
    data,
    options: {
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: "index", intersect: false },
      scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
      plugins: { legend: { labels: { usePointStyle: true } } },
    },
  });
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
    const wrap = el("div", null, { class: "scroll", tabindex: "0", role: "region", "aria-label": `Top products: ${label}` });
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
    keyed("Countries", s.countries, "Country", "country", (k) => k || "Unknown"),
    keyed("Devices", s.devices, "Device", "device"),
    keyed("Sites", s.sites, "Site", "site"),
    keyed("Not recorded, by reason", reasons, "Reason", "reason"),
  ];
  $("lists").replaceChildren(...sections.map(([title, fill], i) => {
    const sec = el("section", null, { "aria-labelledby": `list-h${i}` });
    const t = el("table");
    fill(t);
    const wrap = el("div", null, { class: "scroll", tabindex: "0", role: "region", "aria-labelledby": `list-h${i}` });
    wrap.append(t);
    sec.append(el("h2", title, { id: `list-h${i}` }), wrap);
    return sec;
  }));
}

function start() {
  const today = new Date();
  $("to").value = isoDay(today);
  $("from").value = isoDay(new Date(today.getTime() - 29 * 86400000));
  $("key-form").addEventListener("submit", (e) => {
    e.preventDefault();
    sessionStorage.setItem(KEY, $("key").value.trim());
    $("key").value = "";
    open();
  });
  $("forget").addEventListener("click", () => {
    sessionStorage.removeItem(KEY);
    clearTimeout(timer);
    $("view-form").hidden = true;
    $("main").hidden = true;
    $("status").textContent = "The key is forgotten.";
  });
  $("view-form").addEventListener("submit", (e) => {
    e.preventDefault();
    load();
  });
  $("index").addEventListener("change", load);
  if (sessionStorage.getItem(KEY)) open();
}

start();
