// The studio's synonyms and stop words: edited as text, one synonym group a line, and
// saved into the settings. The search API takes no draft settings, so a draft is tried
// by saving it (a version of the history), previewing, and undoing it with one click
// (restoring the version before), which the history keeps as well.

import { api, indexPath, announce, showError, state } from "./studio-api.js";

const $ = (id) => document.getElementById(id);
let undo = 0; // the settings version the Undo button restores; 0 when none

// formatSynonyms writes synonym groups one a line: "tv, television set" (multiWay),
// "phone => smartphone, mobile" (oneWay), "addidas ~1 adidas" (altCorrection, its typos).
export function formatSynonyms(groups) {
  return (groups || []).map((g) => {
    if (g.type === "oneWay") return `${g.input} => ${g.synonyms.join(", ")}`;
    if (g.type === "altCorrection") return `${g.word} ~${g.typos || 1} ${g.corrections.join(", ")}`;
    return g.terms.join(", ");
  }).join("\n");
}

const terms = (text) => text.split(",").map((t) => t.trim()).filter(Boolean);

// parseSynonyms reads formatSynonyms' lines back; a line it cannot read is an error
// naming it. Empty lines are skipped.
export function parseSynonyms(text) {
  return text.split("\n").map((l) => l.trim()).filter(Boolean).map((line, i) => {
    const alt = line.match(/^(.+?)\s+~([12])\s+(.+)$/);
    if (alt) return { type: "altCorrection", word: alt[1].trim(), corrections: terms(alt[3]), typos: Number(alt[2]) };
    const at = line.indexOf("=>");
    if (at >= 0) {
      const input = line.slice(0, at).trim();
      const synonyms = terms(line.slice(at + 2));
      if (!input || !synonyms.length || synonyms.some((s) => s.includes("=>"))) throw new Error(`line ${i + 1}: write "word => synonym, synonym"`);
      return { type: "oneWay", input, synonyms };
    }
    const list = terms(line);
    if (list.length < 2) throw new Error(`line ${i + 1}: a group needs two terms or more, comma-separated`);
    return { terms: list };
  });
}

// loadSynonyms shows the settings' synonyms and stop words.
export async function loadSynonyms() {
  try {
    const cfg = await api(indexPath("/config"));
    $("synonyms").value = formatSynonyms(cfg.synonyms);
    $("stop-on").checked = cfg.stopWords ? cfg.stopWords.enabled !== false : true;
    $("stop-words").value = ((cfg.stopWords && cfg.stopWords.words) || []).join(", ");
    for (const id of ["synonyms", "stop-words"]) $(id).readOnly = !state.canWrite;
    $("stop-on").disabled = !state.canWrite;
    $("synonyms-save").hidden = !state.canWrite;
  } catch (e) {
    showError(`Could not read the synonyms: ${e.message}`);
  }
}

// save writes the draft into the settings, as they are now otherwise, and offers Undo.
async function save(changed) {
  let synonyms;
  try {
    synonyms = parseSynonyms($("synonyms").value);
  } catch (e) {
    return showError(`Check the synonyms: ${e.message}`);
  }
  try {
    const cfg = await api(indexPath("/config"));
    delete cfg.rebuild;
    cfg.synonyms = synonyms;
    cfg.stopWords = { ...(cfg.stopWords || {}), enabled: $("stop-on").checked, words: terms($("stop-words").value) };
    await api(indexPath("/config"), { method: "PUT", body: cfg });
    const { versions } = await api(indexPath("/config/history"));
    showError("");
    undo = versions.length > 1 ? versions[1].version : 0;
    $("synonyms-undo").hidden = !undo;
    announce(`Synonyms and stop words saved as settings version ${versions[0].version}; the preview shows them.`);
    await changed();
  } catch (e) {
    showError(`Could not save the synonyms: ${e.message}`);
  }
}

// addSynonym adds group to the synonyms as they are now, and saves them (with Undo).
export async function addSynonym(group, changed) {
  const text = $("synonyms").value.trim();
  $("synonyms").value = `${text ? `${text}\n` : ""}${formatSynonyms([group])}`;
  await save(changed);
}

async function restore(changed) {
  try {
    const res = await api(indexPath(`/config/history/${undo}/restore`), { method: "POST" });
    showError("");
    announce(`Undone: settings version ${undo} restored, as version ${res.version}.`);
    undo = 0;
    $("synonyms-undo").hidden = true;
    $("synonyms-save").focus();
    await loadSynonyms();
    await changed();
  } catch (e) {
    showError(`Could not undo: ${e.message}`);
  }
}

// setupSynonyms wires the form; changed reruns the preview and reloads the history.
export function setupSynonyms(changed) {
  $("synonyms-form").addEventListener("submit", (e) => {
    e.preventDefault();
    save(changed);
  });
  $("synonyms-undo").addEventListener("click", () => restore(changed));
}
