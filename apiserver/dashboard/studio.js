// The merchandising studio: opened with the key of this tab (the Events page's login),
// it previews searches, edits the rules and lists the history of the settings and the
// rules. Everything
// shown goes in as text, and the page's Content-Security-Policy runs only its own files.

import { state, announce } from "./studio-api.js";
import { setupLogin, chosenIndex, scrollable } from "./login.js";
import { setupPreview, runPreview } from "./studio-preview.js";
import { loadHistory } from "./studio-history.js";
import { setupSynonyms, loadSynonyms } from "./studio-synonyms.js";
import { setupRules, loadRules } from "./studio-rules.js";
import { setupFacets, loadFacets, answered } from "./studio-facets.js";
import { setupFix, showFix } from "./studio-fix.js";

const $ = (id) => document.getElementById(id);

// opened shows the studio for the key's info; entered says the user just typed the key,
// so the focus moves on to the query.
async function opened(info, entered) {
  Object.assign(state, { workspace: info.workspace, canSearch: info.canSearch, canWrite: info.canWrite });
  $("mode").textContent = info.canWrite ? " · can edit" : " · read-only: a write key edits";
  // The preview searches: a key without the search scope edits, but sees no preview.
  $("preview-form").hidden = !info.canSearch;
  $("no-search").hidden = info.canSearch;
  document.body.dataset.canWrite = String(info.canWrite);
  showFix();
  await show();
  if (entered) $(info.canSearch ? "q" : "index").focus();
}

// show opens the studio on the index chosen.
async function show() {
  state.index = chosenIndex();
  $("main").hidden = false;
  state.facetFields = await loadFacets();
  await Promise.all([preview(), loadHistory(changedByRestore), loadSynonyms(), loadRules()]);
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
const changedByRestore = async () => {
  state.facetFields = await loadFacets();
  await Promise.all([preview(), loadSynonyms(), loadRules()]);
};

function start() {
  setupPreview(answered);
  setupSynonyms(changed);
  setupRules(changed);
  setupFacets(changed);
  setupFix(changed);
  $("index").addEventListener("change", show);
  setupLogin({ page: "studio", shown: ["index-field"], opened });
}

start();
