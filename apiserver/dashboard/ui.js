// Building blocks of the Events page: elements made from text only, tables of figures
// and bar charts.

export const number = new Intl.NumberFormat();
export const shortDay = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", timeZone: "UTC" });

// el builds an element with text content and attributes.
export function el(tag, text, attrs = {}) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// table fills t with a header row and one row per item; a cell is text, a Node, or
// [text, value] for a number (right-aligned, its raw value in data-value); cells is
// given each item and its index; empty says what an empty table holds.
export function table(t, heads, items, cells, name, caption, empty = "Nothing in this period.") {
  const rows = [];
  if (caption) rows.push(el("caption", caption));
  const head = el("tr");
  heads.forEach((h, i) => head.append(el("th", h, { scope: "col", class: i ? "n" : "" })));
  rows.push(el("thead"));
  rows[rows.length - 1].append(head);
  const body = el("tbody");
  for (const [i, item] of (items || []).entries()) {
    const tr = el("tr", null, { "data-row": name });
    for (const c of cells(item, i)) tr.append(cell(c));
    body.append(tr);
  }
  if (!body.children.length) {
    const tr = el("tr");
    tr.append(el("td", empty, { colspan: String(heads.length), class: "empty" }));
    body.append(tr);
  }
  rows.push(body);
  t.replaceChildren(...rows);
}

function cell(c) {
  if (Array.isArray(c)) return el("td", c[0], { class: "n", "data-value": String(c[1]) });
  const td = el("td");
  td.append(c ?? "");
  return td;
}

export function newChart(canvas, label, color, labels, data) {
  return new Chart(canvas, {
    type: "bar",
    data: { labels, datasets: [{ label, data, backgroundColor: color, borderColor: color, maxBarThickness: 24 }] },
    options: {
      maintainAspectRatio: false,
      animation: false,
      plugins: { legend: { display: false } },
      scales: {
        x: { grid: { display: false }, ticks: { color: "#4a4a55", maxRotation: 0, autoSkipPadding: 12 } },
        y: { beginAtZero: true, ticks: { precision: 0, color: "#4a4a55", maxTicksLimit: 5 } },
      },
    },
  });
}
