// The studio's history: the versions of the settings and of the rules, each restorable
// with a write key. A restore is a write of its own, so it shows up in the list too.

import { el, number, table } from "./ui.js";
import { api, indexPath, announce, showError, state } from "./studio-api.js";

const $ = (id) => document.getElementById(id);
const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
// The two histories: their table, the path of their versions, and what the page calls them.
const KINDS = [
  { kind: "config", table: "config-history", path: "/config/history", title: "Settings" },
  { kind: "rules", table: "rules-history", path: "/rules/history", title: "Rules" },
];

// loadHistory reads both histories and shows them; changed is told after a restore, so
// the rest of the studio reads the new state.
export async function loadHistory(changed) {
  await Promise.all(KINDS.map(async (k) => {
    try {
      const { versions } = await api(indexPath(k.path));
      render(k, versions, changed);
    } catch (e) {
      showError(`Could not read the ${k.title.toLowerCase()} history: ${e.message}`);
    }
  }));
}

function render(k, versions, changed) {
  const heads = ["Version", "Changed", "By", "What changed"];
  if (state.canWrite) heads.push("Restore");
  table($(k.table), heads, versions, (v, i) => {
    const cells = [[`v${number.format(v.version)}`, v.version], when.format(new Date(v.changedAt)), v.changedBy || "outside the API", v.summary];
    if (state.canWrite) cells.push(i === 0 ? el("span", "current", { class: "empty" }) : restoreButton(k, v, changed));
    return cells;
  }, `${k.kind}-history`, `${k.title} history`, "No change yet.");
}

function restoreButton(k, v, changed) {
  const b = el("button", "Restore", { type: "button", class: "quiet", "data-restore": `${k.kind}:${v.version}`,
    "aria-label": `Restore ${k.title.toLowerCase()} version ${v.version}` });
  b.addEventListener("click", async () => {
    b.disabled = true;
    try {
      const res = await api(indexPath(`${k.path}/${v.version}/restore`), { method: "POST" });
      showError("");
      announce(`${k.title} version ${v.version} restored, as version ${res.version}.`);
      await loadHistory(changed);
      changed();
      // The button is gone with the old rows: the focus goes to the table it was in.
      $(k.table).focus();
    } catch (e) {
      b.disabled = false;
      showError(`Could not restore ${k.title.toLowerCase()} version ${v.version}: ${e.message}`);
    }
  });
  return b;
}
