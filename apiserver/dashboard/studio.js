// The merchandising studio: opened with the key of this tab (the Events page's login),
// it previews searches and lists the history of the settings and the rules. Everything
// shown goes in as text, and the page's Content-Security-Policy runs only its own files.

import { el } from "./ui.js";
import { KEY, INDEX, state, api, announce, showError } from "./studio-api.js";
import { setupPreview, runPreview } from "./studio-preview.js";
import { loadHistory } from "./studio-history.js";
import { setupSynonyms, loadSynonyms } from "./studio-synonyms.js";

const $ = (id) => document.getElementById(id);

function signedIn(on) {
  $("key-form").hidden = on;
  $("session").hidden = !on;
  $("index-field").hidden = !on;
  if (!on) $("main").hidden = true;
}

// open reads the key's indexes and shows the studio for the index chosen; entered says
// the user just typed the key, so the focus moves on to the query.
async function open(entered) {
  showError("");
  announce("Reading the key's indexes…");
  let info;
  try {
    info = await api("/dashboard/api/key");
  } catch (e) {
    if (e.status === 401 || e.status === 403) sessionStorage.removeItem(KEY);
    signedIn(false);
    announce("");
    document.body.dataset.state = "error";
    return showError(`This key cannot open the studio: ${e.message}`);
  }
  Object.assign(state, { workspace: info.workspace, canSearch: info.canSearch, canWrite: info.canWrite });
  $("workspace").textContent = info.workspace;
  $("mode").textContent = info.canWrite ? "can edit" : "read-only: a write key edits";
  // The preview searches: a key without the search scope edits, but sees no preview.
  $("preview-form").hidden = !info.canSearch;
  $("no-search").hidden = info.canSearch;
  document.body.dataset.canWrite = String(info.canWrite);
  $("index").replaceChildren(...info.indexes.map((name) => el("option", name, { value: name })));
  signedIn(true);
  if (!info.indexes.length) return showError("This key has no index.");
  const stored = sessionStorage.getItem(INDEX);
  if (info.indexes.includes(stored)) $("index").value = stored;
  await show();
  if (entered) $(info.canSearch ? "q" : "index").focus();
}

// show opens the studio on the index chosen.
async function show() {
  state.index = $("index").value;
  sessionStorage.setItem(INDEX, state.index);
  $("main").hidden = false;
  await Promise.all([preview(), loadHistory(changedByRestore), loadSynonyms()]);
  scrollable();
  document.body.dataset.state = "ready";
  announce(`Studio of ${state.index}.`);
}

const preview = () => (state.canSearch ? runPreview(false) : Promise.resolve());

// changed is what an edit tells: the preview and the history read the new state.
// body[data-changes] counts the edits whose effects are all shown.
async function changed() {
  await Promise.all([preview(), loadHistory(changedByRestore)]);
  document.body.dataset.changes = String(Number(document.body.dataset.changes || 0) + 1);
}
const changedByRestore = () => Promise.all([preview(), loadSynonyms()]);

// scrollable makes a table wider than its box (on a phone) a named keyboard stop, as
// the Events page does.
function scrollable() {
  for (const box of document.querySelectorAll(".scroll")) {
    const wide = box.scrollWidth > box.clientWidth;
    for (const [k, v] of [["tabindex", "0"], ["role", "region"], ["aria-label", `${box.dataset.label}, scrolls sideways`]]) {
      if (wide) box.setAttribute(k, v);
      else box.removeAttribute(k);
    }
  }
}

function start() {
  setupPreview();
  setupSynonyms(changed);
  $("key-form").addEventListener("submit", (e) => {
    e.preventDefault();
    sessionStorage.setItem(KEY, $("key").value.trim());
    $("key").value = "";
    open(true);
  });
  $("forget").addEventListener("click", () => {
    sessionStorage.removeItem(KEY);
    signedIn(false);
    announce("The key is forgotten.");
    $("key").focus();
  });
  $("index").addEventListener("change", show);
  addEventListener("resize", scrollable);
  if (sessionStorage.getItem(KEY)) open();
}

start();
