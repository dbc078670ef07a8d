// The Searches section of the Events page: what shoppers searched for, from the search
// log, and how often their clicks followed.

import { el, number, shortDay, table, newChart } from "./ui.js";

const $ = (id) => document.getElementById(id);
const percent = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 1 });
const decimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const COLOR = "#0b57d0";
let chart = null;

// card is a figure of the section, its raw value in data-value.
function card(label, text, key, value) {
  const d = el("div");
  d.append(el("dt", label), el("dd", text, { "data-figure": `searches.${key}`, "data-value": String(value) }));
  return d;
}

// renderSearches shows the section, or hides it when the server reads no search log.
export function renderSearches(s) {
  $("searches").hidden = !s;
  if (!s) return;
  $("search-totals").replaceChildren(
    card("Searches", number.format(s.searches), "searches", s.searches),
    card("Without results", number.format(s.noResults), "noResults", s.noResults),
    card("Clicks on results", number.format(s.clicks), "clicks", s.clicks),
    card("Click-through rate", percent.format(s.clickThroughRate), "clickThroughRate", s.clickThroughRate),
    card("Average position clicked", s.clicks ? decimal.format(s.averageClickPosition) : "–", "averageClickPosition", s.averageClickPosition),
  );
  renderChart(s.daily);
  const queries = (title, items, cells, heads, name) => {
    const t = el("table");
    table(t, heads, items, cells, name, title);
    const wrap = el("div", null, { class: "scroll", "data-label": title });
    wrap.append(t);
    return wrap;
  };
  const searched = (x) => [x.query, [number.format(x.searches), x.searches]];
  // A search to fix opens the studio's preview on it, with the fixes for why.
  const toFix = (fix) => (x) => [studioLink(x.query, fix), [number.format(x.searches), x.searches]];
  $("search-lists").replaceChildren(
    queries("Top searches", s.topQueries, (x) => [...searched(x), [number.format(x.clicks), x.clicks],
      [percent.format(x.clickThroughRate), x.clickThroughRate]], ["Query", "Searches", "Clicks", "Click-through"], "search-top"),
    queries("Top searches without results", s.noResultQueries, toFix("noResults"), ["Query", "Searches"], "search-none"),
    queries("Top searches without a click", s.noClickQueries, toFix("noClicks"), ["Query", "Searches"], "search-unclicked"),
  );
}

// studioLink is a query as a link to the studio's preview of it and its fixes (fix says
// why it needs one: noResults or noClicks).
function studioLink(query, fix) {
  const a = el("a", query, { href: `studio.html?${new URLSearchParams({ q: query, fix })}`, "data-studio": "" });
  a.setAttribute("aria-label", `${query}: preview and fix in the studio`);
  return a;
}

// renderChart draws the searches per day, and the same figures as a table.
function renderChart(days) {
  table($("search-daily"), ["Day", "Searches", "Without results"], days,
    (d) => [d.date, [number.format(d.searches), d.searches], [number.format(d.noResults), d.noResults]], "search-daily");
  if (typeof Chart === "undefined") return;
  const labels = days.map((d) => shortDay.format(new Date(`${d.date}T00:00:00Z`)));
  const data = days.map((d) => d.searches);
  const total = data.reduce((a, b) => a + b, 0);
  $("chart-searches-total").textContent = number.format(total);
  const canvas = $("chart-searches");
  canvas.setAttribute("aria-label", `Searches per day, ${days[0] ? days[0].date : ""} to ${days.length ? days[days.length - 1].date : ""}: ${number.format(total)} in all; the table below holds each day's figure`);
  if (chart) {
    chart.data.labels = labels;
    chart.data.datasets[0].data = data;
    chart.update("none");
  } else chart = newChart(canvas, "Searches", COLOR, labels, data);
}
